//! Sentences about a tool as a whole: how a valid call looks, an unknown name, a timeout.

use std::time::Duration;

use serde_json::Value;

use super::phrases::{duration, echoed_name, expected_phrase, received};
use crate::error::Expected;

/// One argument as the "Valid call" line shows it.
pub(crate) struct SignatureEntry<'a> {
    /// The argument's name.
    pub(crate) name: &'a str,
    /// What it accepts.
    pub(crate) expected: Expected,
    /// Whether the call must send it.
    pub(crate) required: bool,
    /// What the tool uses when it is left out.
    pub(crate) default: Option<&'a Value>,
}

/// The "Valid call" line of a tool: `quantity: an integer between 1 and 100, sort?: one of
/// 'asc', 'desc' (default 'asc')`.
pub(crate) fn valid_call(entries: &[SignatureEntry<'_>]) -> String {
    let entries: Vec<String> = entries.iter().map(signature_entry).collect();
    entries.join(", ")
}

fn signature_entry(entry: &SignatureEntry<'_>) -> String {
    let optional = if entry.required { "" } else { "?" };
    let mut text = format!(
        "{}{optional}: {}",
        entry.name,
        expected_phrase(&entry.expected)
    );
    if let Some(default) = entry.default {
        text.push_str(&format!(" (default {})", received(default)));
    }
    text
}

/// The JSON-RPC error message (-32601) for a method the server does not implement, with the
/// methods it does (`supported`).
pub(crate) fn method_not_found(method: &str, supported: &[&str]) -> String {
    format!(
        "Method not found: '{}'. This server implements: {}.",
        echoed_name(method),
        supported.join(", ")
    )
}

/// The JSON-RPC error message for a tool name the server does not have.
pub(crate) fn unknown_tool(name: &str, suggestions: &[String], available: &[String]) -> String {
    let mut text = format!("Unknown tool '{}'.", echoed_name(name));
    match suggestions {
        [] => {}
        [one] => text.push_str(&format!(" Did you mean '{one}'?")),
        many => {
            let quoted: Vec<String> = many.iter().map(|name| format!("'{name}'")).collect();
            text.push_str(&format!(" Did you mean one of {}?", quoted.join(", ")));
        }
    }
    if available.is_empty() {
        text.push_str(" This server has no tools.");
    } else {
        text.push_str(&format!(" Available tools: {}.", available.join(", ")));
    }
    text
}

/// The text of a `timeout` result.
pub(crate) fn timed_out(tool: &str, limit: Duration, blocking: bool) -> String {
    let limit = duration(limit);
    if blocking {
        // A thread cannot be stopped: the model must know the work may still take effect.
        format!(
            "Tool '{tool}' did not finish within its time limit of {limit}; its answer was \
             abandoned, but its work may still complete."
        )
    } else {
        format!("Tool '{tool}' did not finish within its time limit of {limit} and was stopped.")
    }
}

/// The text of a tool that returns `()`.
pub(crate) fn completed(tool: &str) -> String {
    format!("Tool '{tool}' completed.")
}

/// What the client and the log are told when a client cancels a call.
pub(crate) const CANCELLED_BY_CLIENT: &str = "The client cancelled the call.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_tool_lists_and_suggests() {
        assert_eq!(
            unknown_tool(
                "add_iten",
                &["add_item".into()],
                &["add_item".into(), "get_user".into()]
            ),
            "Unknown tool 'add_iten'. Did you mean 'add_item'? Available tools: add_item, get_user."
        );
    }
}
