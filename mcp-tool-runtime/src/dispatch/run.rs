//! Running one call: the time limit, panic catching, and the result it becomes.

use std::any::Any;
use std::fmt;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use super::failure::{correlation_id, log_failure};
use super::outcome::CallOutcome;
use crate::error::ToolError;
use crate::input::{InputLimits, InputMode};
use crate::render;
use crate::tool::{Arguments, CallScope, Shared, ToolCall, ToolDef, ToolInfo};

/// Runs `tool`, stopping it when its time limit passes: the tool's own
/// (`#[mcp_tool(timeout = ...)]`), else `default_timeout`. A call that runs over is dropped
/// at the limit, its context is cancelled (for work it spawned), and the result is a
/// retryable `timeout` error. Every failure becomes an `isError` result.
pub(super) async fn run<S>(
    state: &Shared<S>,
    tool: &ToolDef<S>,
    arguments: Option<&Arguments>,
    scope: &CallScope,
    input_mode: InputMode,
    input_limits: InputLimits,
    default_timeout: Option<Duration>,
) -> CallOutcome {
    let info = tool.info();
    let call = ToolCall::of(tool.info_ref().clone(), arguments)
        .in_scope(scope)
        .with_input_mode(input_mode)
        .with_input_limits(input_limits);
    let running = CatchUnwind(tool.start(state, call));
    let outcome = match info.timeout().or(default_timeout) {
        None => running.await,
        Some(limit) => match tokio::time::timeout(limit, running).await {
            Ok(outcome) => outcome,
            Err(_elapsed) => {
                scope.cancel_tool();
                let message = render::timed_out(info.name(), limit, info.runs_blocking());
                return error_result(info, ToolError::timeout(message));
            }
        },
    };
    match outcome {
        Ok(Ok(output)) => CallOutcome::finished(render::success_result(
            info.name(),
            info.output_wrapped(),
            output,
        )),
        Ok(Err(error)) => error_result(info, error),
        Err(payload) => error_result(info, ToolError::internal(Panicked::from(payload))),
    }
}

/// The `isError` result of a failed call, logged under a fresh correlation id.
pub(crate) fn error_result(info: &ToolInfo, error: ToolError) -> CallOutcome {
    let correlation_id = correlation_id();
    log_failure(info.name(), &error, &correlation_id);
    let result = render::error_result(info.name(), info.valid_call(), &error, &correlation_id);
    CallOutcome::failed(result, error, correlation_id)
}

/// A panic, turned into an error for the log.
#[derive(Debug)]
pub(crate) struct Panicked {
    /// What panicked: the tool, or a middleware around it.
    culprit: &'static str,
    message: String,
}

impl Panicked {
    /// A middleware's panic.
    pub(crate) fn in_middleware(payload: Box<dyn Any + Send>) -> Self {
        Self {
            culprit: "a middleware",
            ..Self::from(payload)
        }
    }
}

impl From<Box<dyn Any + Send>> for Panicked {
    fn from(payload: Box<dyn Any + Send>) -> Self {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic with a non-text payload".to_string());
        Self {
            culprit: "the tool",
            message,
        }
    }
}

impl fmt::Display for Panicked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} panicked: {}", self.culprit, self.message)
    }
}

impl std::error::Error for Panicked {}

/// Runs a future and turns a panic during any poll into an `Err`, so one call's panic
/// becomes that call's error result instead of taking the session down.
pub(crate) struct CatchUnwind<F>(pub(crate) F);

impl<F: Future + Unpin> Future for CatchUnwind<F> {
    type Output = Result<F::Output, Box<dyn Any + Send>>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = &mut self.0;
        match std::panic::catch_unwind(AssertUnwindSafe(|| Pin::new(&mut *inner).poll(cx))) {
            Ok(Poll::Ready(output)) => Poll::Ready(Ok(output)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(payload) => Poll::Ready(Err(payload)),
        }
    }
}
