//! A tool ready to register: its cached definition and the function that runs it.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use super::call::ToolCall;
use super::info::ToolInfo;
use super::state::Shared;
use crate::error::ToolError;
use crate::render::ToolOutput;

/// A boxed, sendable future, as tool handlers return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The function that runs one tool for state `S`.
pub type Handler<S> =
    for<'a> fn(Shared<S>, ToolCall<'a>) -> BoxFuture<'a, Result<ToolOutput, ToolError>>;

/// A handler over state `S`, possibly reaching it through a part of a larger state.
type Run<S> = dyn for<'a> Fn(&Shared<S>, ToolCall<'a>) -> BoxFuture<'a, Result<ToolOutput, ToolError>>
    + Send
    + Sync;

/// A tool ready to register: its cached definition and its handler.
pub struct ToolDef<S> {
    info: &'static ToolInfo,
    handler: Arc<Run<S>>,
}

impl<S: 'static> ToolDef<S> {
    /// Pairs a definition with its handler. The macros call this; users rarely do.
    pub fn new(info: &'static ToolInfo, handler: Handler<S>) -> Self {
        Self {
            info,
            handler: Arc::new(move |state: &Shared<S>, call| handler(state.clone(), call)),
        }
    }

    /// The same tool on a server whose state `T` holds this tool's state as a part, which
    /// `part` picks out (like axum's `FromRef`): tools of several state types, or of an
    /// `Arc<S>`, share one server.
    ///
    /// ```
    /// use mcp_tool_runtime::{McpServer, ToolSet, mcp_tool, mcp_tools};
    ///
    /// #[derive(Default)]
    /// struct Users;
    /// #[mcp_tools]
    /// impl Users {
    ///     /// Count the users.
    ///     #[mcp_tool]
    ///     fn count_users(&self) -> String { "3".into() }
    /// }
    ///
    /// #[derive(Default)]
    /// struct App { users: Users }
    ///
    /// let tools = Users::tools().into_iter().map(|tool| tool.for_part_of(|app: &App| &app.users));
    /// let server = McpServer::builder(App::default()).tools(tools).build()?;
    /// assert_eq!(server.registry().list()[0].name, "count_users");
    /// # Ok::<(), mcp_tool_runtime::RegistryError>(())
    /// ```
    pub fn for_part_of<T: 'static>(self, part: fn(&T) -> &S) -> ToolDef<T> {
        let handler = self.handler;
        ToolDef {
            info: self.info,
            handler: Arc::new(move |state: &Shared<T>, call: ToolCall<'_>| {
                handler(&state.part(part), call)
            }),
        }
    }
}

impl<S> ToolDef<S> {
    /// The definition.
    pub fn info(&self) -> &'static ToolInfo {
        self.info
    }

    /// Starts the tool on `state` with `call`.
    pub(crate) fn start<'a>(
        &self,
        state: &Shared<S>,
        call: ToolCall<'a>,
    ) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        (self.handler)(state, call)
    }
}

impl<S> Clone for ToolDef<S> {
    fn clone(&self) -> Self {
        Self {
            info: self.info,
            handler: Arc::clone(&self.handler),
        }
    }
}

impl<S> fmt::Debug for ToolDef<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolDef")
            .field("name", &self.info.name())
            .finish()
    }
}

/// A state type whose methods are tools, as `#[mcp_tools]` on its `impl` block generates.
/// Only a block without a name implements it; a named block gets a function instead.
pub trait ToolSet: Sized + Send + Sync + 'static {
    /// The tools of this type, in declaration order.
    fn tools() -> Vec<ToolDef<Self>>;
}

/// A shared state's tools: `McpServer::builder(Arc::new(shop)).tool_set()` just works.
impl<S: ToolSet> ToolSet for Arc<S> {
    fn tools() -> Vec<ToolDef<Self>> {
        S::tools()
            .into_iter()
            .map(|tool| tool.for_part_of(|state: &Arc<S>| &**state))
            .collect()
    }
}
