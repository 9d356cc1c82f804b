//! Unknown tools: a protocol error (-32602) that suggests and lists the tool names.

use mcp_tool_runtime::McpServer;
use mcp_tool_runtime::rmcp::model::{ErrorCode as RpcCode, ErrorData};
use serde_json::json;

use crate::fixtures::{counter_server, hello_tool, server};

#[tokio::test]
async fn unknown_tool_is_an_err_that_suggests_and_lists() {
    let server = counter_server();
    let unknown = server
        .call("ad", Some(json!({})))
        .await
        .expect_err("an unknown tool is a protocol error");
    assert_eq!(unknown.name, "ad");
    assert_eq!(unknown.suggestions, ["add"]);
    assert_eq!(
        unknown.available,
        ["get", "add", "double", "broken", "hello"]
    );
    assert_eq!(
        unknown.to_string(),
        "Unknown tool 'ad'. Did you mean 'add'? Available tools: get, add, double, broken, hello."
    );
}

#[tokio::test]
async fn unknown_tool_with_several_close_names() {
    let unknown = server()
        .call("explod", None)
        .await
        .expect_err("unknown tool");
    assert_eq!(unknown.suggestions, ["explode", "explode_later"]);
    let message = unknown.to_string();
    assert!(
        message.starts_with(
            "Unknown tool 'explod'. Did you mean one of 'explode', 'explode_later'? Available tools: quote, every_type,"
        ),
        "{message}"
    );
}

#[tokio::test]
async fn unknown_tool_without_a_close_name_lists_the_available_ones() {
    let server = McpServer::builder(()).tool(hello_tool()).build().unwrap();
    let unknown = server.call("zzzzzz", None).await.unwrap_err();
    assert!(unknown.suggestions.is_empty());
    assert_eq!(
        unknown.to_string(),
        "Unknown tool 'zzzzzz'. Available tools: hello."
    );
}

#[tokio::test]
async fn unknown_tool_becomes_invalid_params_32602() {
    let unknown = counter_server().call("ad", None).await.unwrap_err();
    let message = unknown.to_string();
    let error = ErrorData::from(unknown);
    assert_eq!(error.code, RpcCode::INVALID_PARAMS);
    assert_eq!(error.code.0, -32602);
    assert_eq!(error.message, message);
    assert_eq!(
        error.data,
        Some(json!({
            "tool": "ad",
            "suggestions": ["add"],
            "available": ["get", "add", "double", "broken", "hello"]
        }))
    );
}
