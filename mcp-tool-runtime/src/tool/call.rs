//! One call of a tool: the arguments as the client sent them, and the call's surroundings.

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::blocking::run_heavy;
use super::context::{CallScope, ToolContext};
use super::def::InfoRef;
use super::info::ToolInfo;
use crate::error::ToolError;
use crate::input::{self, InputMode};

/// The arguments and surroundings of one call, handed to a tool's handler.
pub struct ToolCall<'a> {
    arguments: Option<&'a Value>,
    info: InfoRef,
    scope: Option<&'a CallScope>,
    input_mode: InputMode,
}

impl<'a> ToolCall<'a> {
    /// A call of the tool `info` with `arguments` as the client sent them, with a detached
    /// context.
    pub fn new(info: &'static ToolInfo, arguments: Option<&'a Value>) -> Self {
        Self::of(InfoRef::Static(info), arguments)
    }

    /// A call of the tool `info`, static or built at run time.
    pub(crate) fn of(info: InfoRef, arguments: Option<&'a Value>) -> Self {
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

    /// Runs `parse` (a tool's [`ToolCall::parse`]) on this call, except that a large input is
    /// read and checked on the sync tools' threads: a huge bad call (100,000 wrong items)
    /// takes a hundred milliseconds to report, which would hold an executor thread and delay
    /// every other call. Generated handlers call this.
    pub async fn parse_off_executor<A: Send + 'static>(
        &self,
        parse: fn(&ToolCall<'_>) -> Result<A, ToolError>,
    ) -> Result<A, ToolError> {
        match self.arguments {
            Some(arguments) if input::is_large(arguments) => {
                let (arguments, info, mode) =
                    (arguments.clone(), self.info.clone(), self.input_mode);
                run_heavy(move || {
                    parse(&ToolCall::of(info, Some(&arguments)).with_input_mode(mode))
                })
                .await?
            }
            _ => parse(self),
        }
    }

    /// The arguments of a tool built at run time, checked against its input schema, as
    /// [`ToolCall::parse_off_executor`] checks a typed tool's.
    pub(crate) async fn parse_value(&self) -> Result<Value, ToolError> {
        let parse = |call: &ToolCall<'_>| {
            input::parse_value(call.arguments, call.info.input(), call.input_mode)
        };
        self.parse_off_executor(parse).await
    }

    /// The tool being called.
    pub fn info(&self) -> &ToolInfo {
        &self.info
    }
}
