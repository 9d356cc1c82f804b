//! The error envelope: an error result with the envelope in `_meta`, not a protocol error.

use mcp_tool_test_support::results::{call, client_envelope, envelope, text, wire};
use serde_json::json;

use crate::fixtures::{is_correlation_id, published, server};

#[tokio::test]
async fn bad_arguments_are_an_error_result_not_an_err() {
    let outcome = server()
        .call(
            "quote",
            Some(json!({"sku": "ABC-0001", "quantity": "five"})),
        )
        .await;
    let result = outcome.expect("bad arguments are a result, not a protocol error");
    assert_eq!(result.is_error, Some(true));
}

#[tokio::test]
async fn text_content_carries_the_full_message_and_a_valid_call() {
    let result = call(
        &server(),
        "quote",
        json!({"sku": "ABC-0001", "quantity": "five"}),
    )
    .await;
    assert_eq!(
        text(&result),
        "Invalid arguments for tool 'quote': 1 problem.\n\
         - Argument 'quantity' expected an integer, but received 'five'.\n\
         Valid call: quote(sku: a string of exactly 8 characters, quantity: an integer between 1 and 100)"
    );
}

#[tokio::test]
async fn envelope_of_invalid_arguments_has_every_field() {
    let result = call(
        &server(),
        "every_type",
        json!({"quantity": "five", "name": "Ada", "price": 1, "gift": true, "tags": [], "address": {"street": "x", "zip": 1}}),
    )
    .await;
    let envelope = envelope(&result);
    assert_eq!(envelope["code"], "invalid_arguments");
    assert_eq!(envelope["class"], "input");
    // The sentences are the text's (issue 27: google-genai shows the model the whole
    // result); a client reads them back from it.
    assert!(envelope.get("error").is_none(), "{envelope}");
    let read = client_envelope(&result);
    assert_eq!(
        read.error,
        "Invalid arguments for tool 'every_type': 1 problem."
    );
    assert_eq!(
        read.violations[0]["message"],
        "Argument 'quantity' expected an integer, but received 'five'."
    );
    assert_eq!(envelope["retryable"], false);
    assert!(envelope.get("retryAfter").is_none());
    assert!(envelope.get("hint").is_none());
    assert!(is_correlation_id(&envelope["correlationId"]), "{envelope}");
    assert_eq!(
        envelope["violations"],
        json!([{
            "path": "quantity",
            "problem": "type_mismatch",
            "received": "five"
        }])
    );
}

/// pydantic-ai shows the model `structuredContent` rather than the text when a result has
/// it (issue 27): an error carries its envelope in `_meta` only, output schema or not.
#[tokio::test]
async fn envelope_is_only_in_meta_when_the_tool_has_no_output_schema() {
    let server = server();
    assert!(
        published(&server, "every_type")
            .get("outputSchema")
            .is_none()
    );
    let result = call(&server, "every_type", json!({"quantity": "five"})).await;
    assert_eq!(envelope(&result)["code"], "invalid_arguments");
    assert!(result.structured_content.is_none(), "{:#}", wire(&result));
}

#[tokio::test]
async fn envelope_is_only_in_meta_when_the_tool_has_an_output_schema() {
    let server = server();
    assert!(published(&server, "quote").get("outputSchema").is_some());
    let result = call(
        &server,
        "quote",
        json!({"sku": "ABC-0001", "quantity": "five"}),
    )
    .await;
    assert_eq!(envelope(&result)["code"], "invalid_arguments");
    assert!(
        result.structured_content.is_none(),
        "structuredContent must match the outputSchema, so errors leave it out: {:#}",
        wire(&result)
    );
    let failed = call(&server, "throttled", json!({})).await;
    assert_eq!(envelope(&failed)["code"], "rate_limited");
    assert!(failed.structured_content.is_none());
}

#[tokio::test]
async fn each_error_gets_a_fresh_correlation_id() {
    let server = server();
    let first = envelope(&call(&server, "quote", json!({})).await);
    let second = envelope(&call(&server, "quote", json!({})).await);
    assert!(is_correlation_id(&first["correlationId"]));
    assert_ne!(first["correlationId"], second["correlationId"]);
}
