//! Masking: other errors than `ToolError`, and panics, reach the model as an internal error
//! with a correlation id, never with their detail.

use mcp_tool_runtime::rmcp::model::CallToolResult;
use mcp_tool_runtime::{ErrorCode, ToolError, mcp_tool};
use mcp_tool_test_support::results::{call, envelope, ok_text, text, wire};
use serde_json::json;

use crate::fixtures::{counter_server, is_correlation_id, server};

/// Read a file that is not there.
#[mcp_tool]
pub(crate) fn read_secret() -> Result<String, std::io::Error> {
    Err(std::io::Error::other(
        "open /etc/secret-token failed: permission denied",
    ))
}

fn load_config() -> Result<String, std::io::Error> {
    Err(std::io::Error::new(
        std::io::ErrorKind::NotFound,
        "db password file /run/secrets/db missing",
    ))
}

/// Load the configuration with `?`.
#[mcp_tool]
pub(crate) fn load_with_question_mark() -> Result<String, ToolError> {
    let config = load_config()?;
    Ok(config)
}

/// Panic, synchronously.
#[mcp_tool]
pub(crate) fn explode(#[arg(default)] note: String) -> String {
    panic!("secret panic detail: {note}");
}

/// Panic after an await point.
#[mcp_tool]
pub(crate) async fn explode_later() -> String {
    tokio::task::yield_now().await;
    panic!("secret async panic detail");
}

fn assert_masked(result: &CallToolResult, tool: &str, secrets: &[&str]) {
    let envelope = envelope(result);
    let id = envelope["correlationId"].as_str().unwrap().to_string();
    assert!(is_correlation_id(&envelope["correlationId"]));
    let expected = format!(
        "Tool '{tool}' failed because of an internal error on the server. The arguments were \
         accepted; the details were logged under correlation id {id}."
    );
    assert_eq!(envelope["code"], "internal_error");
    assert_eq!(envelope["class"], "system");
    assert_eq!(envelope["retryable"], false);
    assert_eq!(envelope["error"], expected);
    assert_eq!(text(result), expected);
    let everything = wire(result).to_string();
    for secret in secrets {
        assert!(
            !everything.contains(secret),
            "the model must not see {secret:?}: {everything}"
        );
    }
}

#[tokio::test]
async fn io_errors_are_masked() {
    let result = call(&server(), "read_secret", json!({})).await;
    assert_masked(
        &result,
        "read_secret",
        &["/etc/secret-token", "permission denied"],
    );
}

#[tokio::test]
async fn errors_converted_with_question_mark_are_masked() {
    let result = call(&server(), "load_with_question_mark", json!({})).await;
    assert_masked(
        &result,
        "load_with_question_mark",
        &["/run/secrets/db", "password"],
    );
}

#[tokio::test]
async fn method_errors_are_masked() {
    let result = call(&counter_server(), "broken", json!({})).await;
    assert_masked(&result, "broken", &["/dev/sda1", "method secret"]);
}

#[tokio::test]
async fn panics_are_masked() {
    let result = call(&server(), "explode", json!({"note": "hunter2"})).await;
    assert_masked(
        &result,
        "explode",
        &["secret panic detail", "hunter2", "panicked"],
    );
}

#[tokio::test]
async fn panics_after_an_await_are_masked() {
    let result = call(&server(), "explode_later", json!({})).await;
    assert_masked(&result, "explode_later", &["secret async panic detail"]);
}

#[test]
fn masked_errors_keep_the_cause_for_the_log_only() {
    let error = ToolError::from(std::io::Error::other("disk full at /var/db"));
    assert!(error.is_masked());
    assert_eq!(error.code(), &ErrorCode::INTERNAL_ERROR);
    assert_eq!(
        error.internal_detail().map(ToString::to_string).as_deref(),
        Some("disk full at /var/db")
    );
    let envelope = serde_json::to_value(error.envelope("t", "abc")).unwrap();
    assert!(!envelope.to_string().contains("/var/db"), "{envelope}");
}

#[test]
fn expose_is_the_explicit_opt_out_of_masking() {
    let error = ToolError::expose(&std::io::Error::other("the cache is warming up"));
    assert!(!error.is_masked());
    assert_eq!(error.code(), &ErrorCode::INTERNAL_ERROR);
    assert_eq!(error.message(), "the cache is warming up");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panic_in_one_call_never_affects_concurrent_calls() {
    let server = server();
    let mut tasks = Vec::new();
    for i in 0..16_i64 {
        let server = server.clone();
        tasks.push(tokio::spawn(async move {
            if i % 4 == 0 {
                let result = server.call("explode_later", Some(json!({}))).await.unwrap();
                (i, None, result)
            } else {
                let result = server
                    .call("slow_add", Some(json!({"a": i, "b": 100})))
                    .await
                    .unwrap();
                (i, Some(i + 100), result)
            }
        }));
    }
    for task in tasks {
        let (i, sum, result) = task.await.expect("no task dies with the panic");
        match sum {
            Some(sum) => assert_eq!(ok_text(&result), sum.to_string(), "call {i}"),
            None => assert_masked(&result, "explode_later", &["secret async panic detail"]),
        }
    }
    // And the server keeps working afterwards.
    let result = call(&server, "slow_add", json!({"a": 1, "b": 2})).await;
    assert_eq!(ok_text(&result), "3");
}

#[tokio::test]
async fn a_panic_in_one_joined_call_never_affects_the_others_on_one_thread() {
    let server = server();
    let (boom, sum, hello) = tokio::join!(
        server.call("explode", Some(json!({}))),
        server.call("slow_add", Some(json!({"a": 2, "b": 3}))),
        server.call("hello", None),
    );
    assert_masked(&boom.unwrap(), "explode", &["secret panic detail"]);
    assert_eq!(ok_text(&sum.unwrap()), "5");
    assert_eq!(ok_text(&hello.unwrap()), "hello");
}
