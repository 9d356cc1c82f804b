//! A failed call's trace: a correlation id shared by the log line and the model's answer.

use crate::error::{ErrorCode, ToolError};

/// A fresh id that ties what the model saw to the server's log: 32 hex digits.
pub(super) fn correlation_id() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

/// Logs a failed call of `tool` under `correlation_id`: a masked cause in full at `error`,
/// rejected arguments at `info`, any other failure at `warn`.
pub(super) fn log_failure(tool: &str, error: &ToolError, correlation_id: &str) {
    let code = error.code().as_str();
    match error.internal_detail() {
        Some(detail) => tracing::error!(
            tool, code, correlation_id = %correlation_id, error = %detail, detail = ?detail,
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

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::correlation_id;

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
