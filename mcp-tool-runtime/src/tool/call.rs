//! One call of a tool: the arguments as the client sent them, and the call's surroundings.

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::context::{CallScope, ToolContext};
use super::info::ToolInfo;
use crate::error::ToolError;
use crate::input::{self, InputMode};

/// The arguments and surroundings of one call, handed to a tool's handler.
pub struct ToolCall<'a> {
    arguments: Option<&'a Value>,
    info: &'static ToolInfo,
    scope: Option<&'a CallScope>,
    input_mode: InputMode,
}

impl<'a> ToolCall<'a> {
    /// A call of the tool `info` with `arguments` as the client sent them, with a detached
    /// context.
    pub fn new(info: &'static ToolInfo, arguments: Option<&'a Value>) -> Self {
        Self {
            arguments,
            info,
            scope: None,
            input_mode: InputMode::default(),
        }
    }

    /// The same call parsed under `mode`.
    pub fn with_input_mode(mut self, mode: InputMode) -> Self {
        self.input_mode = mode;
        self
    }

    /// The same call inside `scope`: its context reaches the client.
    pub(crate) fn in_scope(mut self, scope: &'a CallScope) -> Self {
        self.scope = Some(scope);
        self
    }

    /// The call's context, for a tool that takes a [`ToolContext`] argument; detached when
    /// the call was built with [`ToolCall::new`] alone.
    pub fn context(&self) -> ToolContext {
        self.scope
            .map_or_else(ToolContext::detached, CallScope::context)
    }

    /// Deserializes and validates the arguments, or reports every violation.
    pub fn parse<A>(&self) -> Result<A, ToolError>
    where
        A: DeserializeOwned + validator::Validate,
    {
        input::parse(self.arguments, self.info.input(), self.input_mode)
    }

    /// The tool being called.
    pub fn info(&self) -> &'static ToolInfo {
        self.info
    }
}
