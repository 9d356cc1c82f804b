//! Error codes and builders: the code table, custom codes, hints, details and retry times.

use std::time::Duration;

use mcp_tool_runtime::{ErrorCode, McpServer, ToolError, error::ErrorClass, mcp_tool};
use mcp_tool_test_support::results::{call, envelope, text};
use serde_json::json;

use crate::fixtures::server;

/// Find a user.
#[mcp_tool]
pub(crate) fn get_user(id: i64) -> Result<String, ToolError> {
    Err(ToolError::not_found(format!("No user with id {id}."))
        .with_hint("Call list_users to see valid ids."))
}

const OUT_OF_STOCK: ErrorCode = ErrorCode::custom("out_of_stock", ErrorClass::Input, false);

/// Reserve stock.
#[mcp_tool]
pub(crate) fn reserve(sku: String) -> Result<String, ToolError> {
    Err(
        ToolError::new(OUT_OF_STOCK, format!("'{sku}' is out of stock."))
            .with_details(json!({"sku": sku, "available": 0})),
    )
}

/// Call an upstream that asks for a retry after 300 ms.
#[mcp_tool]
fn slow_upstream() -> Result<String, ToolError> {
    Err(ToolError::timeout("Slow upstream.").with_retry_after(Duration::from_millis(300)))
}

#[test]
fn error_code_table_has_stable_snake_case_names() {
    let names: Vec<&str> = ErrorCode::TABLE.iter().map(ErrorCode::as_str).collect();
    assert_eq!(
        names,
        [
            "invalid_arguments",
            "not_found",
            "conflict",
            "forbidden",
            "unauthenticated",
            "rate_limited",
            "at_capacity",
            "timeout",
            "unavailable",
            "upstream_error",
            "cancelled",
            "internal_error",
        ]
    );
    assert!(names.iter().all(|name| ErrorCode::is_valid_name(name)));
    for code in ErrorCode::TABLE {
        assert_eq!(ErrorCode::lookup(code.as_str()).as_ref(), Some(code));
    }
    assert_eq!(ErrorCode::lookup("no_such_code"), None);
}

#[test]
fn error_codes_carry_class_and_retryability() {
    let table = [
        (ErrorCode::INVALID_ARGUMENTS, ErrorClass::Input, false),
        (ErrorCode::NOT_FOUND, ErrorClass::Input, false),
        (ErrorCode::RATE_LIMITED, ErrorClass::System, true),
        (ErrorCode::TIMEOUT, ErrorClass::Dependency, true),
        (ErrorCode::INTERNAL_ERROR, ErrorClass::System, false),
    ];
    for (code, class, retryable) in table {
        assert_eq!(code.class(), class, "{code}");
        assert_eq!(code.default_retryable(), retryable, "{code}");
    }
}

#[test]
fn snake_case_names_are_checked() {
    assert!(ErrorCode::is_valid_name("out_of_stock"));
    assert!(ErrorCode::is_valid_name("e2"));
    for bad in [
        "",
        "OutOfStock",
        "out-of-stock",
        "_x",
        "2fast",
        "out of stock",
    ] {
        assert!(!ErrorCode::is_valid_name(bad), "{bad:?}");
    }
}

#[tokio::test]
async fn not_found_with_hint_reaches_the_model() {
    let result = call(&server(), "get_user", json!({"id": 9})).await;
    let envelope = envelope(&result);
    assert_eq!(envelope["code"], "not_found");
    assert_eq!(envelope["class"], "input");
    assert_eq!(envelope["error"], "No user with id 9.");
    assert_eq!(envelope["hint"], "Call list_users to see valid ids.");
    assert_eq!(envelope["retryable"], false);
    assert!(envelope.get("violations").is_none());
    assert_eq!(
        text(&result),
        "No user with id 9.\nHint: Call list_users to see valid ids."
    );
}

#[tokio::test]
async fn retry_after_is_whole_seconds_rounded_up() {
    let result = call(&server(), "throttled", json!({})).await;
    let envelope = envelope(&result);
    assert_eq!(envelope["code"], "rate_limited");
    assert_eq!(envelope["class"], "system");
    assert_eq!(envelope["retryable"], true);
    assert_eq!(envelope["retryAfter"], 2);
    assert_eq!(
        text(&result),
        "Too many reservations.\nThis is temporary: retry after 2 seconds."
    );
}

#[test]
fn retry_after_is_at_least_one_second() {
    for (wait, seconds) in [
        (Duration::ZERO, 1),
        (Duration::from_millis(1), 1),
        (Duration::from_secs(1), 1),
        (Duration::from_millis(1001), 2),
        (Duration::from_secs(30), 30),
    ] {
        let error = ToolError::not_found("gone").with_retry_after(wait);
        assert_eq!(error.retry_after(), Some(seconds), "{wait:?}");
        assert!(error.is_retryable(), "with_retry_after marks it retryable");
    }
}

#[tokio::test]
async fn one_second_retry_reads_in_the_singular() {
    let server = McpServer::builder(())
        .tool(slow_upstream_tool())
        .build()
        .unwrap();
    let result = call(&server, "slow_upstream", json!({})).await;
    assert_eq!(
        text(&result),
        "Slow upstream.\nThis is temporary: retry after 1 second."
    );
}

#[tokio::test]
async fn custom_codes_and_details_reach_the_envelope() {
    let result = call(&server(), "reserve", json!({"sku": "ABC-0001"})).await;
    let envelope = envelope(&result);
    assert_eq!(envelope["code"], "out_of_stock");
    assert_eq!(envelope["class"], "input");
    assert_eq!(envelope["retryable"], false);
    assert_eq!(envelope["error"], "'ABC-0001' is out of stock.");
    assert_eq!(
        envelope["details"],
        json!({"sku": "ABC-0001", "available": 0})
    );
    assert_eq!(text(&result), "'ABC-0001' is out of stock.");
}

#[test]
fn builders_set_what_they_name() {
    let error = ToolError::new(OUT_OF_STOCK, "None left.")
        .with_hint("Try tomorrow.")
        .with_details(json!({"left": 0}));
    assert_eq!(error.code(), &OUT_OF_STOCK);
    assert_eq!(error.code().as_str(), "out_of_stock");
    assert_eq!(error.message(), "None left.");
    assert_eq!(error.hint(), Some("Try tomorrow."));
    assert_eq!(error.details(), Some(&json!({"left": 0})));
    assert!(!error.is_retryable());
    assert!(!error.is_masked());
    assert!(ToolError::unavailable("down").is_retryable());
    assert!(
        !ToolError::unavailable("down")
            .with_retryable(false)
            .is_retryable()
    );
}

#[test]
fn from_code_uses_the_default_message() {
    let error = ToolError::from_code(ErrorCode::TIMEOUT);
    assert_eq!(error.message(), "The tool did not finish in time.");
    assert_eq!(ToolError::cancelled().code(), &ErrorCode::CANCELLED);
    assert_eq!(
        ToolError::from_code(OUT_OF_STOCK).message(),
        "The tool failed (out_of_stock)."
    );
}
