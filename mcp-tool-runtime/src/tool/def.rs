//! A tool ready to register: its cached definition and the function that runs it.

use std::borrow::Cow;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::Value;

use super::call::ToolCall;
use super::context::ToolContext;
use super::info::{InfoRef, ToolInfo};
use super::info_builder::SchemaError;
use super::output::IntoToolOutput;
use super::state::Shared;
use crate::error::ToolError;
use crate::render::ToolOutput;

/// A boxed, sendable future, as tool handlers return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The function that runs one tool for state `S`.
pub type Handler<S> =
    for<'a> fn(Shared<S>, ToolCall<'a>) -> BoxFuture<'a, Result<ToolOutput, ToolError>>;

/// The handler of a free `#[mcp_tool]` function, which takes no state.
pub type FreeHandler = for<'a> fn(ToolCall<'a>) -> BoxFuture<'a, Result<ToolOutput, ToolError>>;

/// A handler over state `S`, possibly reaching it through a part of a larger state.
type Run<S> = dyn for<'a> Fn(&Shared<S>, ToolCall<'a>) -> BoxFuture<'a, Result<ToolOutput, ToolError>>
    + Send
    + Sync;

/// A tool ready to register: its cached definition and its handler.
pub struct ToolDef<S> {
    info: InfoRef,
    handler: Arc<Run<S>>,
}

impl<S: 'static> ToolDef<S> {
    /// Pairs a definition kept in a static with its handler, as `#[mcp_tool]` does.
    pub(crate) fn from_static(info: &'static ToolInfo, handler: Handler<S>) -> Self {
        Self {
            info: InfoRef::Static(info),
            handler: Arc::new(move |state: &Shared<S>, call| handler(state.clone(), call)),
        }
    }

    /// Pairs a definition kept in a static with the handler of a free `#[mcp_tool]`
    /// function, which takes no state (and so no clone of it per call).
    pub(crate) fn from_static_free(info: &'static ToolInfo, handler: FreeHandler) -> Self {
        Self {
            info: InfoRef::Static(info),
            handler: Arc::new(move |_: &Shared<S>, call| handler(call)),
        }
    }

    /// A tool built at run time: its input is described by a JSON Schema, and `handler`
    /// receives the arguments, checked against it, as a JSON value. Calls get the same
    /// validation messages, error envelope, masking of errors and panics, and time limits
    /// as a `#[mcp_tool]`'s. The tool is freed when it is removed and its last call ends.
    ///
    /// The handler's return type is what a `#[mcp_tool]` function may return
    /// ([`IntoToolOutput`]), and gives the tool its output schema the same way. A handler
    /// that blocks should do its work in [`run_blocking`](crate::__private::run_blocking)'s
    /// public counterpart, a `#[mcp_tool]` sync function, or `tokio::task::spawn_blocking`.
    /// Fails when the name is not an MCP tool name, or the schema is not one the runtime can
    /// check ([`ToolInfo::from_schema`]).
    ///
    /// ```
    /// use mcp_tool_runtime::{McpServer, ToolDef, ToolError};
    /// use serde_json::{Value, json};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let schema = json!({
    ///     "type": "object",
    ///     "properties": {"name": {"type": "string", "minLength": 1}},
    ///     "required": ["name"],
    /// });
    /// let greet = ToolDef::from_schema("greet", "Greet someone.", schema, |arguments: Value, _ctx| async move {
    ///     Ok::<_, ToolError>(format!("Hello, {}!", arguments["name"].as_str().unwrap_or_default()))
    /// })?;
    /// let server = McpServer::builder(()).tool(greet).build()?;
    /// let result = server.call("greet", Some(json!({"name": 5}))).await?;
    /// assert_eq!(result.is_error, Some(true));
    /// assert!(format!("{:?}", result.content).contains("Argument 'name' expected a string, but received 5."));
    /// # Ok(()) }
    /// ```
    pub fn from_schema<F, Fut>(
        name: impl Into<Cow<'static, str>>,
        description: impl Into<Cow<'static, str>>,
        input_schema: Value,
        handler: F,
    ) -> Result<Self, SchemaError>
    where
        F: Fn(Value, ToolContext) -> Fut + Send + Sync + 'static,
        Fut: Future + Send + 'static,
        Fut::Output: IntoToolOutput,
    {
        let info = ToolInfo::from_schema(name, description, input_schema)?.build();
        Ok(Self::from_info(info, handler))
    }

    /// A tool built at run time from a definition made with [`ToolInfo::from_schema`] (with
    /// a title, hints, tags or a time limit), and its handler, as
    /// [`ToolDef::from_schema`] describes. The definition's output schema is the handler's
    /// return type's.
    pub fn from_info<F, Fut>(info: ToolInfo, handler: F) -> Self
    where
        F: Fn(Value, ToolContext) -> Fut + Send + Sync + 'static,
        Fut: Future + Send + 'static,
        Fut::Output: IntoToolOutput,
    {
        let (schema, wrapped) = match Fut::Output::output_schema() {
            Some((schema, wrapped)) => (Some(schema), wrapped),
            None => (None, false),
        };
        let info = info.with_output(schema, wrapped);
        let handler = Arc::new(handler);
        Self {
            info: InfoRef::Shared(Arc::new(info)),
            handler: erased(move |_: &Shared<S>, call| {
                let handler = Arc::clone(&handler);
                Box::pin(async move {
                    let arguments = call.parse_value().await?;
                    // Inside the future, so that a panic in the handler is caught with the call.
                    handler(arguments, call.context()).await.into_tool_output()
                })
            }),
        }
    }

    /// The same tool on a server whose state `T` holds this tool's state as a part, which
    /// `part` picks out (like axum's `FromRef`): tools of several state types, or of an
    /// `Arc<S>`, share one server.
    ///
    /// ```
    /// use mcp_tool_runtime::{McpServer, mcp_tool, mcp_tools, tool::ToolSet};
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
    /// # Ok::<(), mcp_tool_runtime::registry::RegistryError>(())
    /// ```
    pub fn for_part_of<T: 'static>(self, part: fn(&T) -> &S) -> ToolDef<T> {
        let handler = self.handler;
        ToolDef {
            info: self.info.clone(),
            handler: Arc::new(move |state: &Shared<T>, call: ToolCall<'_>| {
                handler(&state.part(part), call)
            }),
        }
    }
}

/// `run` as a handler: a closure passed here gets the handler's higher-ranked signature.
fn erased<S, F>(run: F) -> Arc<Run<S>>
where
    F: for<'a> Fn(&Shared<S>, ToolCall<'a>) -> BoxFuture<'a, Result<ToolOutput, ToolError>>
        + Send
        + Sync
        + 'static,
{
    Arc::new(run)
}

impl<S> ToolDef<S> {
    /// The definition.
    pub fn info(&self) -> &ToolInfo {
        &self.info
    }

    /// The definition, to hand to a call.
    pub(crate) fn info_ref(&self) -> &InfoRef {
        &self.info
    }

    /// Whether `self` and `other` are the same definition (not merely equal ones).
    pub(crate) fn same_as(&self, other: &Self) -> bool {
        std::ptr::eq(self.info(), other.info())
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
            info: self.info.clone(),
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
