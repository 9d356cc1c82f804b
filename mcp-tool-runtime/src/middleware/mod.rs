//! Code that runs around every tool call: your own, and the built-ins (a tracing span, a rate
//! limit, a concurrency limit).
//!
#![doc = include_str!("../../docs/middleware.md")]

mod concurrency;
#[cfg(feature = "otel")]
mod metrics;
mod rate;
mod semconv;
mod trace;
mod trace_parent;

pub use concurrency::ConcurrencyLimit;
#[cfg(feature = "otel")]
#[cfg_attr(docsrs, doc(cfg(feature = "otel")))]
pub use metrics::CallMetrics;
pub use rate::RateLimit;
pub use trace::TraceCalls;
pub use trace_parent::TraceParent;

use std::fmt;
use std::future::Future;
use std::pin::{Pin, pin};
use std::sync::Arc;

use serde_json::Value;

pub use crate::dispatch::CallOutcome;

use crate::dispatch::{CatchUnwind, Panicked, error_result};
use crate::error::ToolError;
use crate::tool::{BoxFuture, CallScope, Principal, ToolContext, ToolInfo};

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
/// Implement it with an `async fn`, as below; a middleware that needs no state of its own
/// can be an `async fn` wrapped in [`from_fn`]. The future must be `Send`, since calls run
/// on a multi-threaded runtime: hold no `MutexGuard` or `Rc` across an `.await`. Each
/// registered middleware costs one allocation per call; with none registered a call is not
/// boxed at all.
///
/// ```
/// use std::sync::atomic::{AtomicU64, Ordering};
///
/// use mcp_tool_runtime::middleware::{CallOutcome, Middleware, Next, ToolRequest};
/// use mcp_tool_runtime::{McpServer, ToolError, mcp_tool};
///
/// /// Counts failed calls, and refuses calls to `drop_table`.
/// #[derive(Default)]
/// struct Guard { failures: AtomicU64 }
///
/// impl Middleware for Guard {
///     async fn handle(&self, request: ToolRequest<'_>, next: Next<'_>) -> Result<CallOutcome, ToolError> {
///         if request.tool().name() == "drop_table" {
///             return Err(ToolError::forbidden("Dropping tables is not allowed here."));
///         }
///         let outcome = next.run(request).await;
///         if outcome.is_error() {
///             self.failures.fetch_add(1, Ordering::Relaxed);
///         }
///         Ok(outcome)
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
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a middleware",
    label = "expected a type that implements `Middleware`",
    note = "a middleware with state is a type: `impl Middleware for MyType {{ async fn handle(&self, request: ToolRequest<'_>, next: Next<'_>) -> Result<CallOutcome, ToolError> {{ Ok(next.run(request).await) }} }}`",
    note = "one without is an `async fn guard(request: ToolRequest<'_>, next: Next<'_>) -> Result<CallOutcome, ToolError>`, registered as `.middleware(middleware::from_fn(guard))`"
)]
pub trait Middleware: Send + Sync + 'static {
    /// Handles one call: usually some work, `next.run(request).await`, more work.
    fn handle(
        &self,
        request: ToolRequest<'_>,
        next: Next<'_>,
    ) -> impl Future<Output = Result<CallOutcome, ToolError>> + Send;
}

/// A shared middleware, so that one limit can serve several servers.
impl<M: Middleware> Middleware for Arc<M> {
    fn handle(
        &self,
        request: ToolRequest<'_>,
        next: Next<'_>,
    ) -> impl Future<Output = Result<CallOutcome, ToolError>> + Send {
        (**self).handle(request, next)
    }
}

/// A [`Middleware`] as the chain stores it: its future boxed, so that middlewares of
/// different types share one list.
pub(crate) trait Layer: Send + Sync + 'static {
    fn handle_boxed<'a>(
        &'a self,
        request: ToolRequest<'a>,
        next: Next<'a>,
    ) -> BoxFuture<'a, Result<CallOutcome, ToolError>>;
}

impl<M: Middleware> Layer for M {
    fn handle_boxed<'a>(
        &'a self,
        request: ToolRequest<'a>,
        next: Next<'a>,
    ) -> BoxFuture<'a, Result<CallOutcome, ToolError>> {
        Box::pin(self.handle(request, next))
    }
}

/// A middleware from an `async fn` of the request and the rest of the chain, for one that
/// needs no state of its own (axum's `from_fn`).
///
/// ```
/// use mcp_tool_runtime::middleware::{CallOutcome, Next, ToolRequest, from_fn};
/// use mcp_tool_runtime::{McpServer, ToolError, mcp_tool};
///
/// /// Refuses anonymous calls to every tool but `hello`.
/// async fn sign_in_first(request: ToolRequest<'_>, next: Next<'_>) -> Result<CallOutcome, ToolError> {
///     if request.principal().is_none() && request.tool().name() != "hello" {
///         return Err(ToolError::unauthenticated("Sign in first."));
///     }
///     Ok(next.run(request).await)
/// }
///
/// /// Say hello.
/// #[mcp_tool]
/// fn hello() -> String { "hello".into() }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let server = McpServer::builder(()).tool(hello_tool()).middleware(from_fn(sign_in_first)).build()?;
/// let result = server.call("hello", None).await?;
/// assert_eq!(result.is_error, Some(false));
/// # Ok(()) }
/// ```
///
/// An async closure that captures nothing works too
/// (`from_fn(async |request: ToolRequest<'_>, next: Next<'_>| Ok(next.run(request).await))`,
/// its parameters' types written out). One that captures state does not: Rust (1.95) gives
/// a capturing async closure no `Fn` implementation, and cannot require its future to be
/// `Send`. Give such state a type and implement [`Middleware`] for it.
pub fn from_fn<F>(handle: F) -> FromFn<F> {
    // No bound here: the one on `FromFn`'s `Middleware` reports a function of the wrong
    // signature once, where it is registered, not a second time here.
    FromFn(handle)
}

/// The middleware [`from_fn`] makes of `F`, a [`MiddlewareFn`].
pub struct FromFn<F>(F);

impl<F> fmt::Debug for FromFn<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("FromFn")
    }
}

impl<F> Middleware for FromFn<F>
where
    F: for<'a> MiddlewareFn<'a>,
{
    async fn handle(
        &self,
        request: ToolRequest<'_>,
        next: Next<'_>,
    ) -> Result<CallOutcome, ToolError> {
        // The function takes both at one lifetime: the shorter of the two, chosen in here.
        self.0.call(request, next.shorten()).await
    }
}

/// An `async fn(ToolRequest<'_>, Next<'_>) -> Result<CallOutcome, ToolError>`, as
/// [`from_fn`] takes it. Implemented for every such function; its future is named here, once
/// per lifetime, because a bound on a function's returned future cannot name it otherwise.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a middleware function",
    label = "expected an `async fn(ToolRequest<'_>, Next<'_>) -> Result<CallOutcome, ToolError>`",
    note = "write `async fn guard(request: ToolRequest<'_>, next: Next<'_>) -> Result<CallOutcome, ToolError> {{ Ok(next.run(request).await) }}` and register `middleware::from_fn(guard)`"
)]
pub trait MiddlewareFn<'a>: Send + Sync + 'static {
    /// The future the function returns.
    type Future: Future<Output = Result<CallOutcome, ToolError>> + Send + 'a;

    /// Calls the function.
    fn call(&self, request: ToolRequest<'a>, next: Next<'a>) -> Self::Future;
}

impl<'a, F, Fut> MiddlewareFn<'a> for F
where
    F: Fn(ToolRequest<'a>, Next<'a>) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<CallOutcome, ToolError>> + Send + 'a,
{
    type Future = Fut;

    fn call(&self, request: ToolRequest<'a>, next: Next<'a>) -> Fut {
        self(request, next)
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
    rest: &'a [Box<dyn Layer>],
    /// The registry's run of the call, created by the caller and not yet polled.
    tool: Pin<&'a mut (dyn Future<Output = CallOutcome> + Send + 'a)>,
}

impl fmt::Debug for Next<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Next")
            .field("middlewares", &self.rest.len())
            .finish_non_exhaustive()
    }
}

impl<'a> Next<'a> {
    /// Runs the rest of the chain and the tool. A later middleware's refusal comes back as
    /// an outcome with its error, as the client will see it; its panic, as an
    /// `internal_error`. The request may borrow for a lifetime other than this `Next`'s, so
    /// that `handle(&self, request: ToolRequest<'_>, next: Next<'_>)` can pass its own.
    pub async fn run(self, request: ToolRequest<'_>) -> CallOutcome {
        let this = self.shorten();
        let Some((first, rest)) = this.rest.split_first() else {
            return this.tool.await;
        };
        let next = Next {
            rest,
            tool: this.tool,
        };
        match CatchUnwind(first.handle_boxed(request, next)).await {
            Ok(Ok(outcome)) => outcome,
            Ok(Err(error)) => error_result(request.info, error),
            Err(payload) => error_result(
                request.info,
                ToolError::internal(Panicked::in_middleware(payload)),
            ),
        }
    }

    /// The same chain, borrowed for a shorter lifetime: the tool's future is behind a `&mut`,
    /// which fixes its lifetime, but a trait object's may shrink.
    fn shorten<'c>(self) -> Next<'c>
    where
        'a: 'c,
    {
        Next {
            rest: self.rest,
            tool: self.tool,
        }
    }
}

/// Whether a built-in limited to `only` (all tools when `None`) covers the tool `name`.
fn covers(only: Option<&[String]>, name: &str) -> bool {
    only.is_none_or(|only| only.iter().any(|tool| tool == name))
}

/// Runs `tool`, the registry's run of one call, inside `chain`.
pub(crate) async fn run_chain(
    chain: &[Box<dyn Layer>],
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
