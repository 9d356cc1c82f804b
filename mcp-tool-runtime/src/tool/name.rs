//! MCP's rule for tool names, which `#[mcp_tool]` applies at compile time and the runtime
//! applies to tools built at run time ([`ToolInfo::from_schema`](super::ToolInfo::from_schema),
//! `LiveTools::add`, `ServerBuilder::build`).
//!
//! The macros crate cannot call this (the runtime depends on it, and a proc-macro crate
//! exports only macros), so it keeps its own copy of the rule in `mcp-tool-macros/src/check.rs`;
//! `tests/core/registry_errors.rs` asserts that both word every problem alike, against the
//! macro's reviewed UI output.

use std::fmt;

/// The most characters a tool name may have.
const MAX_LENGTH: usize = 128;

/// A name that is not an MCP tool name (1 to 128 of `A-Z a-z 0-9 _ - .`). Its message is
/// the one `#[mcp_tool(name = "...")]` gives at compile time.
///
/// ```
/// use mcp_tool_runtime::ToolInfo;
///
/// let schema = serde_json::json!({"type": "object"});
/// let refused = ToolInfo::from_schema("add item!", "Add an item.", schema).unwrap_err();
/// assert_eq!(
///     refused.to_string(),
///     "tool name `add item!` contains ' ', '!'; MCP tool names use only A-Z, a-z, 0-9, `_`, \
///      `-` and `.`"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolNameError {
    name: String,
    problem: Problem,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Problem {
    Empty,
    /// The name's length in characters.
    TooLong(usize),
    /// Characters outside the rule.
    Characters,
}

impl ToolNameError {
    /// Checks `name` against the rule.
    pub(crate) fn check(name: &str) -> Result<(), Self> {
        let length = name.chars().count();
        let problem = if length == 0 {
            Problem::Empty
        } else if length > MAX_LENGTH {
            Problem::TooLong(length)
        } else if name.chars().any(|c| !allowed(c)) {
            Problem::Characters
        } else {
            return Ok(());
        };
        Err(Self {
            name: name.to_string(),
            problem,
        })
    }

    /// The name that was refused.
    pub fn name(&self) -> &str {
        &self.name
    }
}

fn allowed(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

impl fmt::Display for ToolNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.problem {
            Problem::Empty => f.write_str("a tool name cannot be empty"),
            Problem::TooLong(length) => write!(
                f,
                "tool name is {length} characters long; MCP allows at most {MAX_LENGTH}"
            ),
            Problem::Characters => {
                write!(f, "tool name `{}` contains ", self.name)?;
                let bad = self.name.chars().filter(|c| !allowed(*c));
                for (at, c) in bad.enumerate() {
                    let separator = if at == 0 { "" } else { ", " };
                    write!(f, "{separator}{c:?}")?;
                }
                f.write_str("; MCP tool names use only A-Z, a-z, 0-9, `_`, `-` and `.`")
            }
        }
    }
}

impl std::error::Error for ToolNameError {}

#[cfg(test)]
mod tests {
    use super::ToolNameError;

    fn problem(name: &str) -> Option<String> {
        ToolNameError::check(name)
            .err()
            .map(|error| error.to_string())
    }

    #[test]
    fn names_of_1_to_128_allowed_characters_pass() {
        for name in ["a", "cart.add_item-2", &"x".repeat(128)] {
            assert_eq!(problem(name), None, "{name}");
        }
        assert_eq!(problem("").as_deref(), Some("a tool name cannot be empty"));
        assert_eq!(
            problem(&"é".repeat(129)).as_deref(),
            Some("tool name is 129 characters long; MCP allows at most 128")
        );
        assert_eq!(
            problem("a/b c").as_deref(),
            Some(
                "tool name `a/b c` contains '/', ' '; MCP tool names use only A-Z, a-z, 0-9, \
                 `_`, `-` and `.`"
            )
        );
    }
}
