//! Return types: how each return type becomes a `CallToolResult`.

use mcp_tool_runtime::mcp_tool;
use mcp_tool_runtime::rmcp::model::{CallToolResult, ContentBlock};
use mcp_tool_test_support::results::{call, ok_text, wire};
use serde_json::{Value, json};

use crate::fixtures::server;

/// Do nothing, successfully.
#[mcp_tool]
pub(crate) fn noop() {}

/// A red pixel.
#[mcp_tool]
pub(crate) fn pixel() -> Vec<ContentBlock> {
    vec![
        ContentBlock::image("iVBORw0KGgo=", "image/png"),
        ContentBlock::text("a red pixel"),
    ]
}

/// A hand-made result.
#[mcp_tool]
pub(crate) fn raw_result() -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text("one"), ContentBlock::text("two")])
}

#[tokio::test]
async fn string_results_are_one_text_block() {
    let result = call(&server(), "slow_add", json!({"a": 2, "b": 40})).await;
    assert_eq!(
        wire(&result)["content"],
        json!([{"type": "text", "text": "42"}])
    );
    assert!(result.structured_content.is_none());
    assert_ne!(result.is_error, Some(true));
}

#[tokio::test]
async fn static_str_results_are_text() {
    assert_eq!(ok_text(&call(&server(), "hello", json!({})).await), "hello");
}

#[tokio::test]
async fn unit_results_say_the_tool_completed() {
    assert_eq!(
        ok_text(&call(&server(), "noop", json!({})).await),
        "Tool 'noop' completed."
    );
}

#[tokio::test]
async fn json_results_are_structured_content_with_a_text_copy() {
    let result = call(
        &server(),
        "quote",
        json!({"sku": "ABC-0001", "quantity": 4}),
    )
    .await;
    let expected = json!({"sku": "ABC-0001", "total_cents": 1000});
    assert_eq!(result.structured_content.as_ref(), Some(&expected));
    let text: Value = serde_json::from_str(&ok_text(&result)).unwrap();
    assert_eq!(text, expected);
}

#[tokio::test]
async fn content_blocks_are_passed_through() {
    let result = call(&server(), "pixel", json!({})).await;
    assert_ne!(result.is_error, Some(true));
    let content = wire(&result)["content"].clone();
    assert_eq!(content[0]["type"], "image");
    assert_eq!(content[0]["mimeType"], "image/png");
    assert_eq!(content[0]["data"], "iVBORw0KGgo=");
    assert_eq!(content[1], json!({"type": "text", "text": "a red pixel"}));
    assert!(result.structured_content.is_none());
}

#[tokio::test]
async fn call_tool_results_are_returned_as_built() {
    let result = call(&server(), "raw_result", json!({})).await;
    assert_eq!(
        result,
        CallToolResult::success(vec![ContentBlock::text("one"), ContentBlock::text("two")])
    );
}

#[tokio::test]
async fn ok_results_of_result_types_are_unwrapped() {
    let result = call(
        &server(),
        "quote",
        json!({"sku": "XYZ-9999", "quantity": 1}),
    )
    .await;
    assert_eq!(
        result.structured_content,
        Some(json!({"sku": "XYZ-9999", "total_cents": 250}))
    );
}
