//! The tools of one server: definitions published once, calls dispatched by name, run under
//! their time limit with panics caught, and failures logged under a correlation id.

mod failure;
mod live;
mod outcome;
mod run;

pub(crate) use live::Live;
pub use live::LiveTools;
pub use outcome::CallOutcome;
pub(crate) use run::{CatchUnwind, Panicked, error_result};

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::time::Duration;

use rmcp::model::{CallToolResult, Tool};
use serde_json::Value;

use crate::error::{ToolError, Violation};
use crate::input::{InputLimits, InputMode, ranked};
use crate::render;
use crate::schema::{SchemaProfile, is_object_schema};
use crate::tool::{Arguments, CallScope, Shared, ToolDef, ToolInfo, ToolNameError};

/// Why a registry could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RegistryError {
    /// Two tools share a name.
    DuplicateTool {
        /// The name used twice.
        name: String,
        /// The Rust paths of the two tools' functions, where the macro recorded them.
        defined_at: [Option<&'static str>; 2],
    },
    /// The server has no tools: most likely `.tool_set()` or `.tool(..)` was forgotten.
    NoTools,
    /// A tool built at run time has a name MCP does not allow, which `#[mcp_tool]` would
    /// have refused at compile time (with the same message).
    InvalidName(ToolNameError),
    /// A tool's input schema does not describe a JSON object.
    InputNotAnObject {
        /// The tool.
        name: String,
    },
    /// A tool's name is not accepted by the clients its schema profile targets: the whole
    /// request (every tool) would be rejected there, so the server refuses to start.
    NameNotAccepted {
        /// The tool.
        name: String,
        /// The profile the tool is published under.
        profile: SchemaProfile,
        /// What that profile's clients accept.
        rule: &'static str,
    },
    /// A tool names a view (`#[mcp_tool(ui = "ui://...")]`) that the server does not
    /// register with `ServerBuilder::ui_resource`: a host would find no resource to render.
    ViewNotRegistered {
        /// The tool.
        tool: String,
        /// The view it names.
        uri: String,
    },
    /// A resource given to `ServerBuilder::ui_resource` has a URI that does not start with
    /// `ui://`, or shares its URI with another.
    InvalidUiResource {
        /// The resource's URI.
        uri: String,
        /// Whether another resource has the same URI (otherwise the scheme is wrong).
        duplicate: bool,
    },
    /// The key given to `ServerBuilder::request_state_key` is shorter than 32 bytes.
    RequestStateKeyTooShort {
        /// Its length in bytes.
        length: usize,
    },
}

impl fmt::Display for RegistryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::DuplicateTool { name, defined_at } => {
                write!(f, "two tools are named '{name}'")?;
                match defined_at {
                    [Some(first), Some(second)] if first == second => write!(
                        f,
                        " (`{first}` was added twice, e.g. by calling `.tool_set()` twice)"
                    )?,
                    [Some(first), Some(second)] => write!(f, " (`{first}` and `{second}`)")?,
                    _ => {}
                }
                write!(
                    f,
                    ": tool names must be unique within a server \
                     (rename one with #[mcp_tool(name = \"...\")])"
                )
            }
            Self::RequestStateKeyTooShort { length } => write!(
                f,
                "the request state key has {length} bytes: it must have at least 32, from a \
                 secret generator"
            ),
            Self::NoTools => f.write_str(
                "the server has no tools: add them before .build() with .tool(my_function_tool()), \
                 .tools(..), or .tool_set() for the methods of an #[mcp_tools] block",
            ),
            Self::InvalidName(error) => error.fmt(f),
            Self::ViewNotRegistered { tool, uri } if !uri.starts_with("ui://") => write!(
                f,
                "tool '{tool}' names the view '{uri}', which is not a ui:// URI: MCP Apps \
                 views are resources of the ui:// scheme"
            ),
            Self::ViewNotRegistered { tool, uri } => write!(
                f,
                "tool '{tool}' names the view '{uri}', which the server does not register: \
                 add it with .ui_resource(UiResource::html(\"{uri}\", ...)) before .build()"
            ),
            Self::InvalidUiResource {
                uri,
                duplicate: true,
            } => write!(f, "two UI resources have the URI '{uri}'"),
            Self::InvalidUiResource { uri, .. } => write!(
                f,
                "the UI resource '{uri}' does not have a ui:// URI, which MCP Apps requires"
            ),
            Self::InputNotAnObject { name } => write!(
                f,
                "the input of tool '{name}' is not a JSON object: a whole-input argument \
                 must be a struct with named fields"
            ),
            Self::NameNotAccepted {
                name,
                profile,
                rule,
            } => write!(
                f,
                "tool '{name}' is published under the {profile} schema profile, whose clients \
                 reject its name ({rule}); rename it with #[mcp_tool(name = \"...\")]"
            ),
        }
    }
}

impl std::error::Error for RegistryError {}

/// A call to a tool this server does not have: a protocol error, not a tool result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownTool {
    /// The name that was called.
    pub name: String,
    /// Likely intended names, closest first.
    pub suggestions: Vec<String>,
    /// Every tool the server has.
    pub available: Vec<String>,
}

impl fmt::Display for UnknownTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = render::unknown_tool(&self.name, &self.suggestions, &self.available);
        f.write_str(&text)
    }
}

impl std::error::Error for UnknownTool {}

/// The tools a server serves at one moment: definitions published once, calls dispatched by
/// name. A registry never changes; [`LiveTools`] replaces the server's with a new one.
pub struct ToolRegistry<S> {
    tools: Vec<ToolDef<S>>,
    /// Names and their index in `tools`, sorted by name for a binary search: the set never
    /// changes after `new`.
    by_name: Vec<(Cow<'static, str>, usize)>,
    published: Vec<Tool>,
    /// The least `cache_ttl` of the tools, which caps the list's.
    cache_ttl: Option<Duration>,
    input_mode: InputMode,
    input_limits: InputLimits,
}

impl<S> fmt::Debug for ToolRegistry<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.tools.iter().map(|t| t.info().name()))
            .finish()
    }
}

impl<S: Send + Sync + 'static> ToolRegistry<S> {
    /// A registry of `tools`, publishing schemas under `profile`. Fails on duplicate names.
    pub fn new(tools: Vec<ToolDef<S>>, profile: SchemaProfile) -> Result<Self, RegistryError> {
        check_tools(&tools, profile)?;
        let published = tools
            .iter()
            .map(|tool| tool.info().publish(profile))
            .collect();
        Ok(Self::from_published(tools, published))
    }

    /// A registry of checked `tools` and their published definitions, in the same order.
    pub(crate) fn from_published(tools: Vec<ToolDef<S>>, published: Vec<Tool>) -> Self {
        let mut by_name: Vec<(Cow<'static, str>, usize)> = tools
            .iter()
            .enumerate()
            .map(|(index, tool)| (tool.info().name_cow(), index))
            .collect();
        by_name.sort_unstable();
        let cache_ttl = tools
            .iter()
            .filter_map(|tool| tool.info().cache_ttl())
            .min();
        Self {
            tools,
            by_name,
            published,
            cache_ttl,
            input_mode: InputMode::default(),
            input_limits: InputLimits::default(),
        }
    }

    /// The tools, each with its published definition, in registration order.
    pub(crate) fn entries(&self) -> impl Iterator<Item = (&ToolDef<S>, &Tool)> {
        self.tools.iter().zip(&self.published)
    }

    /// Whether `self` and `other` hold the same definitions in the same order.
    pub(crate) fn same_tools(&self, other: &Self) -> bool {
        self.tools.len() == other.tools.len()
            && self
                .tools
                .iter()
                .zip(&other.tools)
                .all(|(a, b)| a.same_as(b))
    }

    /// The same registry parsing arguments under `mode`.
    pub fn with_input_mode(mut self, mode: InputMode) -> Self {
        self.input_mode = mode;
        self
    }

    /// The same registry refusing arguments over `limits` before they are parsed.
    pub fn with_input_limits(mut self, limits: InputLimits) -> Self {
        self.input_limits = limits;
        self
    }

    /// The limits on the size of the arguments.
    pub fn input_limits(&self) -> InputLimits {
        self.input_limits
    }

    /// The published tool list, as `tools/list` returns it.
    pub fn list(&self) -> &[Tool] {
        &self.published
    }

    /// The least [`ToolInfo::cache_ttl`](crate::ToolInfo::cache_ttl) of the tools, if any
    /// sets one.
    pub fn cache_ttl(&self) -> Option<Duration> {
        self.cache_ttl
    }

    /// The published definition of one tool.
    pub fn published(&self, name: &str) -> Option<&Tool> {
        self.index_of(name).map(|index| &self.published[index])
    }

    /// The definition and handler of one tool.
    pub fn get(&self, name: &str) -> Option<&ToolDef<S>> {
        self.index_of(name).map(|index| &self.tools[index])
    }

    fn index_of(&self, name: &str) -> Option<usize> {
        self.by_name
            .binary_search_by(|(known, _)| (**known).cmp(name))
            .ok()
            .map(|at| self.by_name[at].1)
    }

    /// Calls `name` with `arguments` and a detached context. Every failure of the tool itself
    /// (bad arguments, an error, a panic) is an `isError` result; only an unknown name is an
    /// `Err`.
    pub async fn call(
        &self,
        state: &Shared<S>,
        name: &str,
        arguments: Option<Value>,
    ) -> Result<CallToolResult, UnknownTool> {
        let tool = self.get(name).ok_or_else(|| self.unknown(name))?;
        let (arguments, oversized) = Arguments::checked_if_sent(arguments, &self.input_limits);
        if let Some(violation) = oversized {
            return Ok(Self::refuse(tool, *violation).into_result());
        }
        let outcome = self
            .run(
                state,
                tool,
                arguments.as_ref(),
                &CallScope::detached(),
                None,
            )
            .await;
        Ok(outcome.into_result())
    }

    /// Runs `tool` in `scope` under its time limit (its own, else `default_timeout`), with
    /// `arguments` within this registry's input limits ([`Arguments::checked`]).
    ///
    /// `run::run`'s own future, not an `async fn` awaiting it: the wrapping state machine
    /// copied that future into itself on every call (207 instructions of P2's call, 226 of
    /// P1's, `callgrind_profile.sh`).
    pub(crate) fn run<'a>(
        &self,
        state: &'a Shared<S>,
        tool: &'a ToolDef<S>,
        arguments: Option<&'a Arguments>,
        scope: &'a CallScope,
        default_timeout: Option<Duration>,
    ) -> impl Future<Output = CallOutcome> + Send + 'a {
        run::run(
            state,
            tool,
            arguments,
            scope,
            self.input_mode,
            self.input_limits,
            default_timeout,
        )
    }

    /// The answer to a call of `tool` whose arguments break `violation`, without running it.
    pub(crate) fn refuse(tool: &ToolDef<S>, violation: Violation) -> CallOutcome {
        let info = tool.info();
        run::error_result(
            info,
            ToolError::invalid_arguments(info.name(), vec![violation]),
        )
    }

    /// The error for a call of `name`, which this registry does not have.
    pub(crate) fn unknown(&self, name: &str) -> UnknownTool {
        self.unknown_among(name, |_| true)
    }

    /// The error for a call of `name`, naming only the tools `shown` lets the caller see.
    pub(crate) fn unknown_among(
        &self,
        name: &str,
        shown: impl Fn(&ToolInfo) -> bool,
    ) -> UnknownTool {
        let available: Vec<String> = self
            .tools
            .iter()
            .filter(|t| shown(t.info()))
            .map(|t| t.info().name().to_string())
            .collect();
        let suggestions = ranked(name, available.iter().map(String::as_str))
            .into_iter()
            .take(3)
            .map(str::to_string)
            .collect();
        UnknownTool {
            name: name.to_string(),
            suggestions,
            available,
        }
    }
}

/// Every tool has a unique name its profile's clients accept, and an object input.
fn check_tools<S>(tools: &[ToolDef<S>], profile: SchemaProfile) -> Result<(), RegistryError> {
    let mut seen = HashMap::with_capacity(tools.len());
    for tool in tools {
        let name = tool.info().name();
        if let Some(first) = seen.insert(name, tool.info().rust_path()) {
            return Err(duplicate(first, tool.info()));
        }
        check_tool(tool.info(), profile)?;
    }
    Ok(())
}

/// The error for `second`, named like a tool whose Rust path is `first`.
fn duplicate(first: Option<&'static str>, second: &ToolInfo) -> RegistryError {
    RegistryError::DuplicateTool {
        name: second.name().to_string(),
        defined_at: [first, second.rust_path()],
    }
}

/// The tool has an MCP tool name, an object input and a name its profile's clients accept.
fn check_tool(info: &ToolInfo, profile: SchemaProfile) -> Result<(), RegistryError> {
    let name = info.name();
    ToolNameError::check(name).map_err(RegistryError::InvalidName)?;
    if !is_object_schema(info.input_schema()) {
        return Err(RegistryError::InputNotAnObject {
            name: name.to_string(),
        });
    }
    let effective = info.effective_profile(profile);
    if let Some(rule) = effective.name_problem(name) {
        return Err(RegistryError::NameNotAccepted {
            name: name.to_string(),
            profile: effective,
            rule,
        });
    }
    Ok(())
}
