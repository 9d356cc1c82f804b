//! A tool ready to register: its cached definition and the function that runs it.

use std::fmt;
use std::future::Future;
use std::pin::Pin;

use super::call::ToolCall;
use super::info::ToolInfo;
use crate::error::ToolError;
use crate::render::ToolOutput;

/// A boxed, sendable future, as tool handlers return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The function that runs one tool for state `S`.
pub type Handler<S> =
    for<'a> fn(&'a S, ToolCall<'a>) -> BoxFuture<'a, Result<ToolOutput, ToolError>>;

/// A tool ready to register: its cached definition and its handler.
pub struct ToolDef<S> {
    info: &'static ToolInfo,
    handler: Handler<S>,
}

impl<S> ToolDef<S> {
    /// Pairs a definition with its handler. The macros call this; users rarely do.
    pub fn new(info: &'static ToolInfo, handler: Handler<S>) -> Self {
        Self { info, handler }
    }

    /// The definition.
    pub fn info(&self) -> &'static ToolInfo {
        self.info
    }

    /// Starts the tool on `state` with `call`.
    pub(crate) fn start<'a>(
        &self,
        state: &'a S,
        call: ToolCall<'a>,
    ) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        (self.handler)(state, call)
    }
}

impl<S> Clone for ToolDef<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for ToolDef<S> {}

impl<S> fmt::Debug for ToolDef<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolDef")
            .field("name", &self.info.name())
            .finish()
    }
}

/// A state type whose methods are tools, as `#[mcp_tools]` on its `impl` block generates.
pub trait ToolSet: Sized + Send + Sync + 'static {
    /// The tools of this type, in declaration order.
    fn tools() -> Vec<ToolDef<Self>>;
}
