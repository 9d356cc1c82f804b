//! Bounded answers: a huge bad call gets the first problems in full and a summary.

use mcp_tool_runtime::{McpServer, mcp_tool};
use mcp_tool_test_support::results::{call, envelope, text};
use serde_json::{Value, json};

/// Tag some items.
#[mcp_tool]
pub(crate) fn tag_items(ids: Vec<u32>, tags: Vec<String>) -> String {
    format!("{} {}", ids.len(), tags.len())
}

fn server() -> McpServer<()> {
    McpServer::builder(())
        .tool(tag_items_tool())
        .build()
        .expect("server")
}

#[tokio::test]
async fn a_call_with_thousands_of_problems_gets_twenty_and_a_summary() {
    let tags: Vec<Value> = (0..120_000).map(Value::from).collect();
    let result = call(&server(), "tag_items", json!({"ids": [1], "tags": tags})).await;
    let text = text(&result);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "Invalid arguments for tool 'tag_items': 120000 problems."
    );
    assert_eq!(
        lines[1],
        "- Argument 'tags[0]' expected a string, but received 0."
    );
    assert_eq!(
        lines[20],
        "- Argument 'tags[19]' expected a string, but received 19."
    );
    assert_eq!(
        lines[21],
        "- …and 119,980 more problems of the same kinds under tags[…]."
    );
    assert!(
        lines[22].starts_with("Valid call: tag_items("),
        "{}",
        lines[22]
    );
    assert_eq!(lines.len(), 23);
    assert!(text.len() < 4_096, "{} bytes", text.len());
    let envelope = envelope(&result);
    assert_eq!(envelope["violations"].as_array().map(Vec::len), Some(20));
    assert_eq!(envelope["violationsTotal"], 120_000);
}

#[tokio::test]
async fn new_kinds_and_places_past_the_first_twenty_are_named() {
    let tags: Vec<Value> = (0..25).map(Value::from).collect();
    let result = call(&server(), "tag_items", json!({"tags": tags, "idz": 1})).await;
    let text = text(&result);
    let summary = text.lines().nth(21).unwrap_or_default();
    assert_eq!(
        summary,
        "- …and 7 more problems (among them unknown_argument) under tags[…], idz."
    );
}

#[tokio::test]
async fn twenty_problems_or_fewer_are_all_spelled_out() {
    let tags: Vec<Value> = (0..20).map(Value::from).collect();
    let result = call(&server(), "tag_items", json!({"ids": [1], "tags": tags})).await;
    assert!(!text(&result).contains("more problem"));
    assert_eq!(envelope(&result).get("violationsTotal"), None);
}
