//! Client side: call a tool through rmcp's client and retry what may succeed later.
//!
//! The strategy: a result whose error envelope says `retryable: true` (`rate_limited`,
//! `at_capacity`, `timeout`, `unavailable`, `upstream_error`, or a custom retryable code) is
//! retried; anything else comes back at once. The wait is the envelope's `retryAfter` when it
//! has one, otherwise exponential backoff (`base_delay`, doubling, at most `max_delay`) with
//! jitter, so that many clients do not retry in step. Attempts and the total time are capped;
//! a wait that would pass the time cap is not started.
//!
//! ```no_run
//! # async fn demo(peer: &mcp_tool_runtime::rmcp::Peer<mcp_tool_runtime::rmcp::RoleClient>)
//! # -> Result<(), Box<dyn std::error::Error>> {
//! use mcp_tool_runtime::client::{RetryPolicy, call_with_retry};
//! let arguments = serde_json::json!({"sku": "ABC-0001", "quantity": 1});
//! let result = call_with_retry(peer, "reserve_stock", Some(arguments), &RetryPolicy::default()).await?;
//! println!("{:?}", result.structured_content);
//! # Ok(()) }
//! ```

use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::time::{Duration, Instant};

use rmcp::RoleClient;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{Peer, ServiceError};
use serde::Deserialize;
use serde_json::Value;

use crate::error::META_KEY;

/// How often and how long to retry.
#[derive(Clone, Debug)]
pub struct RetryPolicy {
    /// Calls in all, the first included (default 5).
    pub max_attempts: u32,
    /// The first backoff delay (default 200 ms); it doubles on every retry.
    pub base_delay: Duration,
    /// The longest single backoff delay (default 10 s). `retryAfter` is honoured beyond it.
    pub max_delay: Duration,
    /// The longest time from the first call to the start of the last one (default 60 s).
    pub max_elapsed: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_attempts: 5,
            base_delay: Duration::from_millis(200),
            max_delay: Duration::from_secs(10),
            max_elapsed: Duration::from_secs(60),
        }
    }
}

impl RetryPolicy {
    /// The backoff before retry number `retry` (1 for the first retry), with jitter: a random
    /// point in the upper half of the exponential delay.
    pub fn backoff(&self, retry: u32) -> Duration {
        let exponent = retry.saturating_sub(1).min(20);
        let full = self
            .base_delay
            .saturating_mul(1u32 << exponent)
            .min(self.max_delay);
        let half = full / 2;
        let random = std::collections::hash_map::RandomState::new()
            .build_hasher()
            .finish();
        let spread = half.as_nanos().max(1) as u64;
        half + Duration::from_nanos(random % spread)
    }
}

/// The error envelope of a tool result, as the client reads it.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RemoteError {
    /// The stable code, such as `rate_limited`.
    pub code: String,
    /// `input`, `dependency` or `system`.
    pub class: String,
    /// The message: the first line of the result's text.
    #[serde(default)]
    pub error: String,
    /// Whether the same call may succeed later.
    pub retryable: bool,
    /// Seconds to wait before retrying.
    #[serde(default)]
    pub retry_after: Option<u64>,
    /// How to fix or work around the problem.
    #[serde(default)]
    pub hint: Option<String>,
    /// The id under which the server logged the error.
    #[serde(default)]
    pub correlation_id: Option<String>,
    /// The argument problems, for `invalid_arguments`; each with its `message`, the text's
    /// line for it.
    #[serde(default)]
    pub violations: Vec<Value>,
    /// Extra details from the tool.
    #[serde(default)]
    pub details: Option<Value>,
}

impl RemoteError {
    /// The envelope of an `isError` result: from `_meta` (else from `structuredContent`, as
    /// servers before 0.2 sent it), with the sentences the server leaves to the text read
    /// back from it.
    pub fn of(result: &CallToolResult) -> Option<Self> {
        if result.is_error != Some(true) {
            return None;
        }
        let from_meta = result
            .meta
            .as_ref()
            .and_then(|meta| meta.0.get(META_KEY))
            .cloned();
        let mut envelope: Self = from_meta
            .or_else(|| result.structured_content.clone())
            .and_then(|value| serde_json::from_value(value).ok())?;
        let text = result
            .content
            .iter()
            .find_map(|block| block.as_text().map(|text| text.text.as_str()))
            .unwrap_or_default();
        envelope.read_sentences(text);
        Some(envelope)
    }

    /// Fills `error` from the text's first line and each violation's `message` from the
    /// text's `- ` lines, in order, where the envelope does not carry them.
    fn read_sentences(&mut self, text: &str) {
        let mut lines = text.lines();
        let headline = lines.next().unwrap_or_default();
        if self.error.is_empty() {
            self.error = headline.to_string();
        }
        let problems = lines.filter_map(|line| line.strip_prefix("- "));
        for (violation, sentence) in self.violations.iter_mut().zip(problems) {
            if let Value::Object(violation) = violation {
                violation
                    .entry("message")
                    .or_insert_with(|| Value::String(sentence.to_string()));
            }
        }
    }
}

/// Why a call did not succeed.
#[derive(Debug)]
#[non_exhaustive]
pub enum RetryError {
    /// A JSON-RPC error (an unknown tool, a transport failure): never retried.
    Protocol(ServiceError),
    /// The tool answered with an error that is not retryable (or has no envelope).
    Failed {
        /// The envelope, when the server sent one.
        envelope: Option<RemoteError>,
        /// The whole result.
        result: Box<CallToolResult>,
        /// Calls made.
        attempts: u32,
    },
    /// A retryable error persisted until the attempts or the time ran out.
    GaveUp {
        /// The last envelope.
        envelope: RemoteError,
        /// The last result.
        result: Box<CallToolResult>,
        /// Calls made.
        attempts: u32,
    },
}

impl RetryError {
    /// The envelope of the last tool error, if there is one.
    pub fn envelope(&self) -> Option<&RemoteError> {
        match self {
            Self::Protocol(_) => None,
            Self::Failed { envelope, .. } => envelope.as_ref(),
            Self::GaveUp { envelope, .. } => Some(envelope),
        }
    }
}

impl fmt::Display for RetryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Protocol(error) => write!(f, "the call failed: {error}"),
            Self::Failed {
                envelope: Some(envelope),
                ..
            } => write!(f, "the tool failed ({}): {}", envelope.code, envelope.error),
            Self::Failed { envelope: None, .. } => f.write_str("the tool failed"),
            Self::GaveUp {
                envelope, attempts, ..
            } => write!(
                f,
                "gave up after {attempts} attempts ({}): {}",
                envelope.code, envelope.error
            ),
        }
    }
}

impl std::error::Error for RetryError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Protocol(error) => Some(error),
            _ => None,
        }
    }
}

/// Calls `tool` with `arguments` through `peer`, retrying retryable errors under `policy`.
/// Returns the first successful result, or the error that ended the attempts.
pub async fn call_with_retry(
    peer: &Peer<RoleClient>,
    tool: &str,
    arguments: Option<Value>,
    policy: &RetryPolicy,
) -> Result<CallToolResult, RetryError> {
    let mut params = CallToolRequestParams::new(tool.to_string());
    if let Some(Value::Object(object)) = arguments {
        params.arguments = Some(object);
    }
    let started = Instant::now();
    let mut attempts = 0u32;
    loop {
        attempts += 1;
        let result = peer
            .call_tool(params.clone())
            .await
            .map_err(RetryError::Protocol)?;
        if result.is_error != Some(true) {
            return Ok(result);
        }
        let Some(envelope) = RemoteError::of(&result).filter(|envelope| envelope.retryable) else {
            return Err(RetryError::Failed {
                envelope: RemoteError::of(&result),
                result: Box::new(result),
                attempts,
            });
        };
        let wait = match envelope.retry_after {
            Some(seconds) => Duration::from_secs(seconds),
            None => policy.backoff(attempts),
        };
        let out_of_time = started.elapsed() + wait > policy.max_elapsed;
        if attempts >= policy.max_attempts || out_of_time {
            return Err(RetryError::GaveUp {
                envelope,
                result: Box::new(result),
                attempts,
            });
        }
        tracing::debug!(tool, code = %envelope.code, ?wait, attempts, "retrying a tool call");
        tokio::time::sleep(wait).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_within_jitter_and_caps() {
        let policy = RetryPolicy {
            base_delay: Duration::from_millis(100),
            max_delay: Duration::from_millis(1000),
            ..RetryPolicy::default()
        };
        for (retry, full) in [(1, 100), (2, 200), (3, 400), (4, 800), (5, 1000), (9, 1000)] {
            let delay = policy.backoff(retry);
            let full = Duration::from_millis(full);
            assert!(
                delay >= full / 2 && delay <= full,
                "retry {retry}: {delay:?}"
            );
        }
    }
}
