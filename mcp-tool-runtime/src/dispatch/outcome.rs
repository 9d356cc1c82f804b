//! What a call came to: the result the client receives, and for a failure the error and the
//! correlation id it was logged under, which middleware reads.

use rmcp::model::CallToolResult;

use crate::error::{ErrorCode, ToolError};

/// What one tool call came to: the `CallToolResult` the client receives and, when the call
/// failed, the [`ToolError`] it was rendered from and the correlation id it was logged under.
///
/// Middleware ([`crate::middleware::Middleware`]) reads it after `next.run(..)`: every failure is here,
/// whether the arguments were invalid, the tool returned an error, panicked or ran out of
/// time, or an inner middleware refused the call.
///
/// ```
/// use mcp_tool_runtime::{ErrorCode, McpServer, ToolError, mcp_tool};
/// # use mcp_tool_runtime::middleware::{CallOutcome, Middleware, Next, ToolRequest};
///
/// /// Refuse every call.
/// struct Closed;
///
/// impl Middleware for Closed {
///     async fn handle(&self, _request: ToolRequest<'_>, _next: Next<'_>) -> Result<CallOutcome, ToolError> {
///         Err(ToolError::forbidden("The shop is closed."))
///     }
/// }
///
/// /// Say hello.
/// #[mcp_tool]
/// fn hello() -> String { "hello".into() }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let server = McpServer::builder(()).tool(hello_tool()).middleware(Closed).build()?;
/// let result = server.call("hello", None).await?;
/// assert_eq!(result.is_error, Some(true));
/// assert!(format!("{:?}", result.content).contains("The shop is closed."));
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct CallOutcome {
    result: CallToolResult,
    failure: Option<Failure>,
}

/// A failed call's error and the id its log line carries.
#[derive(Debug)]
struct Failure {
    error: ToolError,
    correlation_id: String,
}

impl CallOutcome {
    /// A call that produced `result` without a [`ToolError`] (a success, or an `isError`
    /// result a tool built itself).
    pub(crate) fn finished(result: CallToolResult) -> Self {
        Self {
            result,
            failure: None,
        }
    }

    /// A call that failed with `error`, rendered as `result` and logged under
    /// `correlation_id`.
    pub(crate) fn failed(result: CallToolResult, error: ToolError, correlation_id: String) -> Self {
        Self {
            result,
            failure: Some(Failure {
                error,
                correlation_id,
            }),
        }
    }

    /// The result the client receives.
    pub fn result(&self) -> &CallToolResult {
        &self.result
    }

    /// The result, for a middleware that adds to it (its `_meta`, say).
    pub fn result_mut(&mut self) -> &mut CallToolResult {
        &mut self.result
    }

    /// The result the client receives, taken out.
    // In line in each call (`Arguments::checked` says why).
    #[inline]
    pub fn into_result(self) -> CallToolResult {
        self.result
    }

    /// Whether the client is told the call failed (`isError: true`).
    pub fn is_error(&self) -> bool {
        self.result.is_error == Some(true)
    }

    /// The error the call failed with, if it failed with one. A masked error keeps its cause
    /// here ([`ToolError::internal_detail`]) for a middleware that reports it.
    pub fn error(&self) -> Option<&ToolError> {
        self.failure.as_ref().map(|failure| &failure.error)
    }

    /// The code of the error the call failed with.
    pub fn code(&self) -> Option<&ErrorCode> {
        self.error().map(ToolError::code)
    }

    /// The id the failure was logged under, which the client's envelope names too.
    pub fn correlation_id(&self) -> Option<&str> {
        self.failure
            .as_ref()
            .map(|failure| failure.correlation_id.as_str())
    }
}

impl From<CallOutcome> for CallToolResult {
    fn from(outcome: CallOutcome) -> Self {
        outcome.result
    }
}
