//! Code that runs around every tool call: your own, and the built-ins (a tracing span, a rate
//! limit, a concurrency limit).
//!
#![doc = include_str!("../../docs/middleware.md")]

mod concurrency;
mod rate;
mod trace;

pub use concurrency::ConcurrencyLimit;
pub use rate::RateLimit;
pub use trace::{TraceCalls, TraceParent};

pub use crate::dispatch::CallOutcome;
pub use crate::tool::def::BoxFuture;

use std::future::Future;
use std::pin::{Pin, pin};
use std::sync::Arc;

use serde_json::Value;

use crate::dispatch::{CatchUnwind, Panicked, error_result};
use crate::error::ToolError;
use crate::tool::{CallScope, Principal, ToolContext, ToolInfo};

/// Code that runs around every tool call, registered with `ServerBuilder::middleware`.
///
/// It sees the tool, the arguments as the client sent them and the call's [`ToolContext`]
/// (with the caller's principal and the HTTP request's headers), calls the rest of the chain
/// with [`Next::run`], and reads what the call came to ([`CallOutcome`]). Returning a
/// [`ToolError`] instead answers the call with that error's envelope, without running the
/// tool. Middlewares run in registration order, the first outermost; all of them run outside
/// argument validation, panic catching and the time limit, so an invalid call, a panic and a
/// timeout reach them as outcomes like any other. A call of a name the server does not have
/// is a protocol error and reaches none. A call the client cancels is dropped, middleware
/// included: code after `next.run(..).await` does not run then, so release what must be
/// released in a `Drop` (as a semaphore permit does).
///
/// The method returns a boxed future (`Box::pin(async move { .. })`), which keeps the trait
/// object-safe; with no middleware registered a call is not boxed at all.
///
/// ```
/// use std::sync::atomic::{AtomicU64, Ordering};
///
/// use mcp_tool_runtime::middleware::{BoxFuture, CallOutcome, Next, ToolMiddleware, ToolRequest};
/// use mcp_tool_runtime::{McpServer, ToolError, mcp_tool};
///
/// /// Counts failed calls, and refuses calls to `drop_table`.
/// #[derive(Default)]
/// struct Guard { failures: AtomicU64 }
///
/// impl ToolMiddleware for Guard {
///     fn handle<'a>(
///         &'a self,
///         request: ToolRequest<'a>,
///         next: Next<'a>,
///     ) -> BoxFuture<'a, Result<CallOutcome, ToolError>> {
///         Box::pin(async move {
///             if request.tool().name() == "drop_table" {
///                 return Err(ToolError::forbidden("Dropping tables is not allowed here."));
///             }
///             let outcome = next.run(request).await;
///             if outcome.is_error() {
///                 self.failures.fetch_add(1, Ordering::Relaxed);
///             }
///             Ok(outcome)
///         })
///     }
/// }
///
/// /// Drop a table.
/// #[mcp_tool]
/// fn drop_table(name: String) -> String { format!("dropped {name}") }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let server = McpServer::builder(()).tool(drop_table_tool()).middleware(Guard::default()).build()?;
/// let result = server.call("drop_table", Some(serde_json::json!({"name": "users"}))).await?;
/// assert!(format!("{:?}", result.content).contains("Dropping tables is not allowed here."));
/// # Ok(()) }
/// ```
pub trait ToolMiddleware: Send + Sync + 'static {
    /// Handles one call: usually some work, `next.run(request).await`, more work.
    fn handle<'a>(
        &'a self,
        request: ToolRequest<'a>,
        next: Next<'a>,
    ) -> BoxFuture<'a, Result<CallOutcome, ToolError>>;
}

/// A shared middleware, so that one limit can serve several servers.
impl<M: ToolMiddleware + ?Sized> ToolMiddleware for Arc<M> {
    fn handle<'a>(
        &'a self,
        request: ToolRequest<'a>,
        next: Next<'a>,
    ) -> BoxFuture<'a, Result<CallOutcome, ToolError>> {
        (**self).handle(request, next)
    }
}

/// A middleware from a closure, for one that needs no type of its own.
///
/// ```
/// use mcp_tool_runtime::middleware::middleware_fn;
/// use mcp_tool_runtime::{McpServer, ToolError, mcp_tool};
///
/// /// Say hello.
/// #[mcp_tool]
/// fn hello() -> String { "hello".into() }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let server = McpServer::builder(())
///     .tool(hello_tool())
///     .middleware(middleware_fn(|request, next| {
///         Box::pin(async move {
///             if request.principal().is_none() && request.tool().name() != "hello" {
///                 return Err(ToolError::unauthenticated("Sign in first."));
///             }
///             Ok(next.run(request).await)
///         })
///     }))
///     .build()?;
/// let result = server.call("hello", None).await?;
/// assert_eq!(result.is_error, Some(false));
/// # Ok(()) }
/// ```
pub fn middleware_fn<F>(handle: F) -> impl ToolMiddleware
where
    F: for<'a> Fn(ToolRequest<'a>, Next<'a>) -> BoxFuture<'a, Result<CallOutcome, ToolError>>
        + Send
        + Sync
        + 'static,
{
    FnMiddleware(handle)
}

struct FnMiddleware<F>(F);

impl<F> ToolMiddleware for FnMiddleware<F>
where
    F: for<'a> Fn(ToolRequest<'a>, Next<'a>) -> BoxFuture<'a, Result<CallOutcome, ToolError>>
        + Send
        + Sync
        + 'static,
{
    fn handle<'a>(
        &'a self,
        request: ToolRequest<'a>,
        next: Next<'a>,
    ) -> BoxFuture<'a, Result<CallOutcome, ToolError>> {
        (self.0)(request, next)
    }
}

/// One tool call as middleware sees it. `Copy`: pass it to [`Next::run`] and keep reading it.
#[derive(Clone, Copy)]
pub struct ToolRequest<'a> {
    info: &'a ToolInfo,
    arguments: Option<&'a Value>,
    scope: &'a CallScope,
}

impl std::fmt::Debug for ToolRequest<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolRequest")
            .field("tool", &self.info.name())
            .field("arguments", &self.arguments)
            .finish()
    }
}

impl<'a> ToolRequest<'a> {
    /// The tool being called.
    pub fn tool(&self) -> &'a ToolInfo {
        self.info
    }

    /// The arguments as the client sent them, before any check.
    pub fn arguments(&self) -> Option<&'a Value> {
        self.arguments
    }

    /// The call's context, the one the tool receives: the request's `_meta`, extensions,
    /// principal and, over HTTP, headers. Assembled on first use.
    pub fn context(&self) -> &'a ToolContext {
        self.scope.shared_context()
    }

    /// Who is calling ([`ToolContext::principal`]).
    pub fn principal(&self) -> Option<&'a Principal> {
        self.context().principal()
    }

    /// The W3C trace context the client sent in `_meta.traceparent` (SEP-414), if it is
    /// well formed. Read without assembling the context.
    pub fn trace_parent(&self) -> Option<TraceParent> {
        self.scope.peek_meta(|meta| {
            meta.and_then(|meta| meta.get_traceparent())
                .and_then(TraceParent::parse)
        })
    }
}

/// The rest of the chain: the middlewares registered after this one, then the tool.
pub struct Next<'a> {
    rest: &'a [Box<dyn ToolMiddleware>],
    /// The registry's run of the call, created by the caller and not yet polled.
    tool: Pin<&'a mut (dyn Future<Output = CallOutcome> + Send + 'a)>,
}

impl<'a> Next<'a> {
    /// Runs the rest of the chain and the tool. A later middleware's refusal comes back as
    /// an outcome with its error, as the client will see it; its panic, as an
    /// `internal_error`.
    pub async fn run(self, request: ToolRequest<'a>) -> CallOutcome {
        let Some((first, rest)) = self.rest.split_first() else {
            return self.tool.await;
        };
        let next = Next {
            rest,
            tool: self.tool,
        };
        match CatchUnwind(first.handle(request, next)).await {
            Ok(Ok(outcome)) => outcome,
            Ok(Err(error)) => error_result(request.info, error),
            Err(payload) => error_result(
                request.info,
                ToolError::internal(Panicked::in_middleware(payload)),
            ),
        }
    }
}

/// Whether a built-in limited to `only` (all tools when `None`) covers the tool `name`.
fn covers(only: Option<&[String]>, name: &str) -> bool {
    only.is_none_or(|only| only.iter().any(|tool| tool == name))
}

/// Runs `tool`, the registry's run of one call, inside `chain`.
pub(crate) async fn run_chain(
    chain: &[Box<dyn ToolMiddleware>],
    info: &ToolInfo,
    arguments: Option<&Value>,
    scope: &CallScope,
    tool: impl Future<Output = CallOutcome> + Send,
) -> CallOutcome {
    let tool = pin!(tool);
    let request = ToolRequest {
        info,
        arguments,
        scope,
    };
    Next { rest: chain, tool }.run(request).await
}
