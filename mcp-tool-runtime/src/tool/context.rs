//! What a running tool can see of its call and do with the client: progress, log messages,
//! cancellation, server-to-client requests, request metadata.

#![allow(deprecated)] // rmcp marks MCP logging and sampling deprecated (SEP-2577); 2025-11-25 has both.

use std::borrow::Cow;
use std::fmt;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use rmcp::RoleServer;
use rmcp::model::{
    Extensions, LoggingLevel, LoggingMessageNotificationParam, ProgressNotificationParam,
    ProgressToken, RequestId, RequestMetaObject,
};
use rmcp::service::Peer;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::context_error::ContextError;
use super::principal::{Principal, principal_of};
use super::rounds::Rounds;
use super::task::TaskLink;

/// The state one client session shares among its calls: the `logging/setLevel` threshold.
#[derive(Debug)]
pub(crate) struct Session {
    level: AtomicU8,
}

impl Default for Session {
    fn default() -> Self {
        Self {
            level: AtomicU8::new(rank(LoggingLevel::Info)),
        }
    }
}

impl Session {
    pub(crate) fn set_level(&self, level: LoggingLevel) {
        self.level.store(rank(level), Ordering::Relaxed);
    }

    fn allows(&self, level: LoggingLevel) -> bool {
        rank(level) >= self.level.load(Ordering::Relaxed)
    }
}

/// Severity order of the MCP (syslog) levels.
fn rank(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}

pub(crate) struct Connected {
    pub(crate) peer: Peer<RoleServer>,
    pub(crate) session: Arc<Session>,
    pub(crate) request_id: RequestId,
    pub(crate) meta: RequestMetaObject,
    pub(crate) extensions: Extensions,
    pub(crate) tool: Cow<'static, str>,
    /// Set on a 2026-07-28 request: its questions end the call, answered in the next round.
    pub(crate) rounds: Option<Arc<Rounds>>,
    /// Set on a call that runs, or may start, as a task (the tasks extension).
    pub(crate) task: Option<Arc<TaskLink>>,
}

impl Connected {
    /// Whether a log message at `level` goes to the client.
    fn allows(&self, level: LoggingLevel) -> bool {
        if self.rounds.is_none() {
            return self.session.allows(level);
        }
        self.meta
            .log_level()
            .is_some_and(|threshold| rank(level) >= rank(threshold))
    }
}

/// The extensions of a call without a request: none.
static NO_EXTENSIONS: Extensions = Extensions::new();

/// The context of one tool call. Cheap to clone; pass it to spawned work.
///
/// A tool asks for it by taking an argument of type [`ToolContext`], in any position. The
/// macro recognises the type by name (the last path segment, so `mcp_tool_runtime::ToolContext`
/// works too) and leaves the argument out of the input schema.
///
/// ```
/// use mcp_tool_runtime::{McpServer, ToolContext, ToolError, mcp_tool};
///
/// /// Count to `to`, reporting progress and stopping when the client cancels.
/// #[mcp_tool]
/// async fn count(to: u32, ctx: ToolContext) -> Result<String, ToolError> {
///     for step in 1..=to {
///         if ctx.is_cancelled() {
///             return Err(ToolError::cancelled());
///         }
///         ctx.progress(f64::from(step), Some(f64::from(to)), None).await?;
///     }
///     ctx.info(format!("counted to {to}")).await?;
///     Ok(format!("counted to {to}"))
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let server = McpServer::builder(()).tool(count_tool()).build()?;
/// // In-process calls get a detached context: progress and logs go nowhere.
/// let result = server.call("count", Some(serde_json::json!({"to": 3}))).await?;
/// assert_eq!(result.is_error, Some(false));
/// let registry = server.registry();
/// let listed = &registry.list()[0];
/// assert!(listed.input_schema.get("properties").is_some_and(|p| p.get("ctx").is_none()));
/// # Ok(()) }
/// ```
///
/// A call made in-process ([`crate::McpServer::call`]) gets a *detached* context: progress
/// and log messages go nowhere, [`ToolContext::peer`] is `None`, and it is cancelled only by
/// the call's time limit.
///
#[doc = include_str!("../../docs/context.md")]
#[derive(Clone)]
pub struct ToolContext {
    connected: Option<Arc<Connected>>,
    cancel: CancellationToken,
}

impl fmt::Debug for ToolContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut debug = f.debug_struct("ToolContext");
        if let Some(connected) = &self.connected {
            debug
                .field("tool", &connected.tool)
                .field("request_id", &connected.request_id);
        }
        debug
            .field("cancelled", &self.cancel.is_cancelled())
            .finish()
    }
}

impl ToolContext {
    /// A context without a client: for in-process calls and tests.
    pub fn detached() -> Self {
        Self {
            connected: None,
            cancel: CancellationToken::new(),
        }
    }

    /// True once the client has cancelled the call or its time limit has passed. Long work
    /// should check this (or await [`ToolContext::cancelled`]) and stop; its result is not
    /// sent either way.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }

    /// Completes when the call is cancelled. Use it in `tokio::select!` against the work.
    pub async fn cancelled(&self) {
        self.cancel.cancelled().await;
    }

    /// The client's progress token for this call, if it asked for progress.
    pub fn progress_token(&self) -> Option<ProgressToken> {
        self.connected
            .as_ref()
            .and_then(|connected| connected.meta.get_progress_token())
    }

    /// Reports progress, echoing the request's progress token. Does nothing when the client
    /// did not send one (or the context is detached).
    pub async fn progress(
        &self,
        progress: f64,
        total: Option<f64>,
        message: Option<&str>,
    ) -> Result<(), ContextError> {
        let Some(connected) = &self.connected else {
            return Ok(());
        };
        let Some(token) = self.progress_token() else {
            // A task shows the message as its status even when nobody asked for progress.
            if let (Some(task), Some(message)) = (connected.task.as_deref(), message) {
                task.set_status(message).await?;
            }
            return Ok(());
        };
        if let (Some(task), Some(message)) = (connected.task.as_deref(), message) {
            task.set_status(message).await?;
        }
        let mut param = ProgressNotificationParam::new(token, progress);
        param.total = total;
        param.message = message.map(str::to_string);
        connected.peer.notify_progress(param).await?;
        Ok(())
    }

    /// Sends a log message to the client (`notifications/message`) when `level` is at or
    /// above the session's `logging/setLevel` threshold (default `info`). On protocol
    /// 2026-07-28, which has no session, the threshold is the request's `_meta` log level,
    /// and a request without one gets no log messages. `data` is any JSON: a string, or an
    /// object with details. The logger name is the tool's name.
    pub async fn log(
        &self,
        level: LoggingLevel,
        data: impl Into<Value>,
    ) -> Result<(), ContextError> {
        let Some(connected) = &self.connected else {
            return Ok(());
        };
        if !connected.allows(level) {
            return Ok(());
        }
        let param = LoggingMessageNotificationParam::new(level, data.into())
            .with_logger(connected.tool.clone());
        connected.peer.notify_logging_message(param).await?;
        Ok(())
    }

    /// [`ToolContext::log`] at `debug`.
    pub async fn debug(&self, data: impl Into<Value>) -> Result<(), ContextError> {
        self.log(LoggingLevel::Debug, data).await
    }

    /// [`ToolContext::log`] at `info`.
    pub async fn info(&self, data: impl Into<Value>) -> Result<(), ContextError> {
        self.log(LoggingLevel::Info, data).await
    }

    /// [`ToolContext::log`] at `warning`.
    pub async fn warning(&self, data: impl Into<Value>) -> Result<(), ContextError> {
        self.log(LoggingLevel::Warning, data).await
    }

    /// [`ToolContext::log`] at `error`.
    pub async fn error(&self, data: impl Into<Value>) -> Result<(), ContextError> {
        self.log(LoggingLevel::Error, data).await
    }

    /// The task this call runs as, once it started.
    pub(crate) fn task(&self) -> Option<&TaskLink> {
        let task = self.connected.as_ref()?.task.as_deref()?;
        task.id().is_some().then_some(task)
    }

    /// Whether the call runs as a task (the tasks extension), its questions parked until
    /// the client answers them through `tasks/update`.
    pub fn in_task(&self) -> bool {
        self.task().is_some()
    }

    /// The id of the task this call runs as, if it does.
    pub fn task_id(&self) -> Option<String> {
        self.task().and_then(TaskLink::id)
    }

    /// Turns the rest of this call into a task, for a tool declared with
    /// `#[mcp_tool(task = "...", task_start = "explicit")]`: the client gets the task's id
    /// now and polls for the result, while the tool goes on. Questions asked before are
    /// 2026-07-28 rounds (the client calls again with the answers); those after wait inside
    /// the task. Does nothing when the client did not declare the tasks extension (the call
    /// goes on as a plain one) or the task has already started.
    ///
    /// Errors: [`ContextError::Store`] when the shared store cannot be reached.
    pub async fn start_task(&self) -> Result<(), ContextError> {
        let Some(task) = self.connected.as_ref().and_then(|c| c.task.as_deref()) else {
            return Ok(());
        };
        task.start().await.map_err(ContextError::Store)
    }

    /// The rounds of a 2026-07-28 call.
    pub(crate) fn rounds(&self) -> Option<&Rounds> {
        self.connected.as_ref()?.rounds.as_deref()
    }

    /// The client, for server-to-client requests on protocol revisions up to 2025-11-25
    /// (2026-07-28 has none: use [`ToolContext::elicit`], [`ToolContext::sample`] or
    /// [`ToolContext::roots`], which work on both). `None` for a detached context.
    pub fn peer(&self) -> Option<&Peer<RoleServer>> {
        self.connected.as_ref().map(|connected| &connected.peer)
    }

    /// The request's `_meta`, as the client sent it.
    pub fn meta(&self) -> Option<&RequestMetaObject> {
        self.connected.as_ref().map(|connected| &connected.meta)
    }

    /// The JSON-RPC id of the `tools/call` request.
    pub fn request_id(&self) -> Option<&RequestId> {
        self.connected
            .as_ref()
            .map(|connected| &connected.request_id)
    }

    /// What the transport attached to the request: over HTTP the request's `Parts` (see
    /// `ToolContext::http_parts`), and whatever a layer in front put there. Empty for a
    /// detached context.
    pub fn extensions(&self) -> &Extensions {
        self.connected
            .as_ref()
            .map_or(&NO_EXTENSIONS, |connected| &connected.extensions)
    }

    /// Who is calling, as the HTTP guard's token verifier established it; `None` without a
    /// verifier, on stdio, and for a detached context.
    pub fn principal(&self) -> Option<&Principal> {
        principal_of(self.extensions())
    }

    /// The HTTP request that carried the call (method, URI, headers), without its body;
    /// `None` on stdio and for a detached context.
    ///
    /// ```
    /// use mcp_tool_runtime::{ToolContext, mcp_tool};
    ///
    /// /// Which client library is calling.
    /// #[mcp_tool]
    /// async fn user_agent(ctx: ToolContext) -> String {
    ///     ctx.http_parts()
    ///         .and_then(|parts| parts.headers.get("user-agent"))
    ///         .and_then(|value| value.to_str().ok())
    ///         .unwrap_or("unknown")
    ///         .to_string()
    /// }
    /// ```
    #[cfg(feature = "http")]
    pub fn http_parts(&self) -> Option<&http::request::Parts> {
        self.extensions().get::<http::request::Parts>()
    }
}

/// What one call knows about its client, kept unassembled until the tool asks for its
/// [`ToolContext`]. Most tools never do, and assembling one (an `Arc`, a child cancellation
/// token registered under the request's lock) would be a third of the dispatch cost.
pub(crate) struct CallScope {
    connection: Mutex<Option<Connected>>,
    /// The request's own token, cancelled by the client; `None` in-process.
    parent: Option<CancellationToken>,
    context: OnceLock<ToolContext>,
}

impl CallScope {
    /// The scope of an in-process call: a detached context, cancelled only by a time limit.
    pub(crate) fn detached() -> Self {
        Self {
            connection: Mutex::new(None),
            parent: None,
            context: OnceLock::new(),
        }
    }

    /// The scope of a `tools/call` request from a client.
    pub(crate) fn connected(connected: Connected, request_cancel: CancellationToken) -> Self {
        Self {
            connection: Mutex::new(Some(connected)),
            parent: Some(request_cancel),
            context: OnceLock::new(),
        }
    }

    /// The call's context, assembled on first use. Its token is a child of the request's,
    /// so that a time limit can cancel the tool's work without cancelling the request,
    /// whose answer rmcp would then drop.
    pub(crate) fn context(&self) -> ToolContext {
        self.shared_context().clone()
    }

    /// The call's context, assembled on first use, borrowed from the scope.
    pub(crate) fn shared_context(&self) -> &ToolContext {
        self.context.get_or_init(|| {
            let cancel = self
                .parent
                .as_ref()
                .map_or_else(CancellationToken::new, CancellationToken::child_token);
            let connected = self
                .connection
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take()
                .map(Arc::new);
            ToolContext { connected, cancel }
        })
    }

    /// Reads the request's `_meta` without assembling the context (middleware that only
    /// looks at `_meta`, such as a trace parent, need not pay for it).
    pub(crate) fn peek_meta<R>(&self, read: impl FnOnce(Option<&RequestMetaObject>) -> R) -> R {
        self.peek_connected(|connected| read(connected.map(|connected| &connected.meta)))
    }

    /// Reads what the call knows of its client without assembling the context (the
    /// telemetry's attributes: transport, session, protocol version). `read` runs under the
    /// scope's lock: it must not ask for the context.
    pub(crate) fn peek_connected<R>(&self, read: impl FnOnce(Option<&Connected>) -> R) -> R {
        if let Some(context) = self.context.get() {
            return read(context.connected.as_deref());
        }
        let connection = self
            .connection
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        match connection.as_ref() {
            Some(connected) => read(Some(connected)),
            // A detached call, or one whose context took the connection since the first look.
            None => read(
                self.context
                    .get()
                    .and_then(|context| context.connected.as_deref()),
            ),
        }
    }

    /// Cancels the context handed to the tool, if it took one, so that work it spawned stops.
    pub(crate) fn cancel_tool(&self) {
        if let Some(context) = self.context.get() {
            context.cancel.cancel();
        }
    }

    /// Completes when the client cancels the request; never for an in-process call.
    pub(crate) async fn client_cancelled(&self) {
        match &self.parent {
            Some(token) => token.cancelled().await,
            None => std::future::pending().await,
        }
    }
}
