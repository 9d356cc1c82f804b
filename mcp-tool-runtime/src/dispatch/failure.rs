//! A failed call's trace: a correlation id shared by the log line and the model's answer.

use std::fmt;
use std::io::Write;

use crate::error::{ErrorCode, ToolError};
use crate::stderr::StderrLog;

/// A fresh id that ties what the model saw to the server's log: 32 hex digits.
pub(super) fn correlation_id() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

/// Logs a failed call of `tool` under `correlation_id`: a masked cause in full at `error`,
/// rejected arguments at `info`, any other failure at `warn`.
pub(super) fn log_failure(tool: &str, error: &ToolError, correlation_id: &str) {
    let code = error.code().as_str();
    if let Some(detail) = error.internal_detail()
        && no_subscriber()
    {
        write_to_stderr(tool, code, correlation_id, detail);
        return;
    }
    match error.internal_detail() {
        Some(detail) => tracing::error!(
            tool, code, correlation_id = %correlation_id, error = %Chain(detail), detail = ?detail,
            "tool call failed; the cause is masked for the client"
        ),
        None if error.code() == &ErrorCode::INVALID_ARGUMENTS => tracing::info!(
            tool, code, correlation_id = %correlation_id, violations = error.violations().len(),
            "tool call rejected: invalid arguments"
        ),
        None => tracing::warn!(
            tool, code, correlation_id = %correlation_id, message = &*error.message(),
            "tool call failed"
        ),
    }
}

/// Whether no tracing subscriber is installed, so that a log line would go nowhere.
fn no_subscriber() -> bool {
    tracing::dispatcher::get_default(|dispatch| dispatch.is::<tracing::subscriber::NoSubscriber>())
}

/// The masked failure's line, written by the runtime itself when nothing else would log it:
/// the model was told the details were logged under `correlation_id`, so they must be.
/// Stderr, never stdout: a stdio server's stdout carries the protocol.
fn write_to_stderr(
    tool: &str,
    code: &str,
    correlation_id: &str,
    detail: &(dyn std::error::Error + Send + Sync + 'static),
) {
    let line = format!(
        "ERROR mcp_tool_runtime: tool call failed; the cause is masked for the client \
         tool={tool} code={code} correlation_id={correlation_id} error={}\n",
        Chain(detail)
    );
    // Through the bounded queue: a stderr nobody reads must not block the call. StderrLog
    // never fails a write; a dropped line is counted and reported there.
    let _ = StderrLog.write_all(line.as_bytes());
}

/// An error and its sources, `outer: inner: root`: a wrapped cause (`anyhow`'s context, a
/// `#[source]` field) is often the part that explains the failure.
struct Chain<'a>(&'a (dyn std::error::Error + 'static));

impl fmt::Display for Chain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)?;
        let mut source = self.0.source();
        while let Some(cause) = source {
            write!(f, ": {cause}")?;
            source = cause.source();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::{Chain, correlation_id};

    #[derive(Debug)]
    struct Reading(std::io::Error);

    impl std::fmt::Display for Reading {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("reading the settings")
        }
    }

    impl std::error::Error for Reading {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn a_logged_cause_names_its_sources() {
        let error = Reading(std::io::Error::other("disk full"));
        assert_eq!(Chain(&error).to_string(), "reading the settings: disk full");
    }

    #[test]
    fn correlation_ids_are_32_hex_digits_and_never_repeat() {
        let ids: HashSet<String> = (0..10_000).map(|_| correlation_id()).collect();
        assert_eq!(ids.len(), 10_000);
        assert!(
            ids.iter()
                .all(|id| id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit()))
        );
    }
}
