//! Methods on a state type (`#[mcp_tools]`).

use std::sync::atomic::Ordering;

use mcp_tool_test_support::results::{call, ok_text, violation_messages};
use serde_json::json;

use crate::fixtures::{counter_server, published};

#[tokio::test]
async fn sync_and_async_methods_share_the_state() {
    let server = counter_server();
    assert_eq!(ok_text(&call(&server, "get", json!({})).await), "0");
    let added = call(&server, "add", json!({"by": 3})).await;
    assert_eq!(added.structured_content, Some(json!({"total": 3})));
    let added = call(&server, "add", json!({"by": 4})).await;
    assert_eq!(added.structured_content, Some(json!({"total": 7})));
    assert_eq!(ok_text(&call(&server, "get", json!({})).await), "7");
    assert_eq!(server.state().value.load(Ordering::SeqCst), 7);
}

#[tokio::test]
async fn associated_functions_without_self_are_tools_too() {
    let result = call(&counter_server(), "double", json!({"n": 21})).await;
    assert_eq!(ok_text(&result), "42");
}

#[tokio::test]
async fn method_arguments_are_validated() {
    let server = counter_server();
    let result = call(&server, "add", json!({"by": 11})).await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'by' must be between 1 and 10, but received 11."]
    );
    assert_eq!(server.state().value.load(Ordering::SeqCst), 0);
    assert!(
        result.structured_content.is_none(),
        "add has an output schema"
    );
}

#[test]
fn method_tools_publish_their_docs() {
    let tool = published(&counter_server(), "add");
    assert_eq!(tool["description"], "Add to the counter.");
    assert_eq!(
        tool["inputSchema"]["properties"]["by"]["description"],
        "How much to add."
    );
    assert_eq!(
        published(&counter_server(), "get")["annotations"],
        json!({"readOnlyHint": true})
    );
}

#[tokio::test]
async fn free_tools_work_with_any_state() {
    let result = call(&counter_server(), "hello", json!({})).await;
    assert_eq!(ok_text(&result), "hello");
}
