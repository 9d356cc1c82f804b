//! Lenient input: what models send is accepted where the schema leaves no doubt, and
//! nothing else is coerced. A strict input mode turns it off.

use mcp_tool_corpus::tools;
use mcp_tool_runtime::rmcp::model::CallToolResult;
use mcp_tool_runtime::{InputMode, McpServer};
use mcp_tool_test_support::results::violation_messages;
use serde_json::{Value, json};

fn server(mode: InputMode) -> McpServer<()> {
    McpServer::builder(())
        .tools(tools())
        .input_mode(mode)
        .build()
        .unwrap()
}

async fn call(server: &McpServer<()>, tool: &str, arguments: Value) -> CallToolResult {
    server.call(tool, Some(arguments)).await.unwrap()
}

fn structured(result: &CallToolResult) -> Value {
    assert_ne!(result.is_error, Some(true), "{result:?}");
    result.structured_content.clone().unwrap()
}

/// The sentence of each violation: the text's lines (the envelope leaves them to the text).
fn messages(result: &CallToolResult) -> Vec<String> {
    violation_messages(result)
}

#[tokio::test]
async fn json_text_for_arrays_and_objects_is_parsed() {
    let server = server(InputMode::Lenient);
    let result = call(&server, "echo_vec", json!({"value": "[\"a\", \"b\"]"})).await;
    assert_eq!(structured(&result), json!({"result": ["a", "b"]}));
    let order = json!({"ship_to": {"street": "Main 1", "city": "Oslo"}, "lines": [], "note": null});
    let result = call(&server, "echo_order", json!({"value": order.to_string()})).await;
    assert_eq!(structured(&result)["ship_to"]["city"], "Oslo");
    // Nested: an array of JSON text inside an object given as JSON text.
    let result = call(
        &server,
        "echo_nested_vec",
        json!({"value": ["[1, 2]", "[3]"]}),
    )
    .await;
    assert_eq!(structured(&result), json!({"result": [[1, 2], [3]]}));
}

#[tokio::test]
async fn numeric_strings_and_boolean_words_are_accepted() {
    let server = server(InputMode::Lenient);
    let result = call(&server, "echo_i32", json!({"value": "5"})).await;
    assert_eq!(structured(&result), json!({"result": 5}));
    let result = call(&server, "echo_f64", json!({"value": "2.5"})).await;
    assert_eq!(structured(&result), json!({"result": 2.5}));
    let result = call(&server, "echo_bool", json!({"value": "false"})).await;
    assert_eq!(structured(&result), json!({"result": false}));
    let result = call(
        &server,
        "place_order",
        json!({"sku": "ABC-0001", "quantity": "3", "price": "9.5", "express": "true"}),
    )
    .await;
    assert_ne!(result.is_error, Some(true), "{result:?}");
}

#[tokio::test]
async fn nothing_else_is_coerced() {
    let server = server(InputMode::Lenient);
    let result = call(&server, "echo_i32", json!({"value": "five"})).await;
    assert_eq!(
        messages(&result),
        ["Argument 'value' expected an integer, but received 'five'."]
    );
    let result = call(&server, "echo_bool", json!({"value": "yes"})).await;
    assert_eq!(
        messages(&result),
        ["Argument 'value' expected a boolean, but received 'yes'."]
    );
    // A fraction is not an integer, as text or as a number.
    let result = call(&server, "echo_u8", json!({"value": "2.5"})).await;
    assert_eq!(result.is_error, Some(true));
    // A string stays a string where a string is allowed.
    let result = call(&server, "echo_either", json!({"value": "7"})).await;
    assert_eq!(structured(&result), json!({"result": "7"}));
    // Coerced values still meet their constraints.
    let result = call(
        &server,
        "place_order",
        json!({"sku": "ABC-0001", "quantity": "500", "price": 1.0}),
    )
    .await;
    assert_eq!(
        messages(&result),
        ["Argument 'quantity' must be between 1 and 100, but received 500."]
    );
    // One problem left after the repairs is reported alone.
    let result = call(
        &server,
        "place_order",
        json!({"sku": "ABC-0001", "quantity": "5", "price": "cheap"}),
    )
    .await;
    assert_eq!(
        messages(&result),
        ["Argument 'price' expected a number, but received 'cheap'."]
    );
}

#[tokio::test]
async fn strict_input_mode_coerces_nothing() {
    let server = server(InputMode::Strict);
    let result = call(&server, "echo_i32", json!({"value": "5"})).await;
    assert_eq!(
        messages(&result),
        ["Argument 'value' expected an integer, but received '5'."]
    );
    let result = call(&server, "echo_vec", json!({"value": "[\"a\"]"})).await;
    assert_eq!(result.is_error, Some(true));
    let result = call(&server, "echo_bool", json!({"value": "true"})).await;
    assert_eq!(result.is_error, Some(true));
}

#[tokio::test]
async fn what_the_schemas_publish_is_accepted_in_every_input_mode() {
    for mode in [InputMode::Lenient, InputMode::Strict] {
        let server = server(mode);
        // 5.0 is an integer in JSON Schema.
        let result = call(&server, "echo_i64", json!({"value": 5.0})).await;
        assert_eq!(structured(&result), json!({"result": 5}));
        // Inside a tagged enum too: the branch its tag names says what the value must be.
        let message = json!({"type": "Number", "data": -9.223372036854776e18});
        let result = call(&server, "echo_message", json!({"value": message})).await;
        let expected = json!({"type": "Number", "data": i64::MIN});
        assert_eq!(structured(&result), expected);
        let result = call(
            &server,
            "echo_event",
            json!({"value": {"kind": "click", "x": 1.0, "y": 2}}),
        )
        .await;
        assert_eq!(
            structured(&result),
            json!({"kind": "click", "x": 1, "y": 2})
        );
        // The strict profile publishes optional arguments as nullable, maps as pair lists.
        let result = call(
            &server,
            "place_order",
            json!({"sku": "ABC-0001", "quantity": 1, "price": 1.0, "color": null,
                   "tags": null, "limit": null, "express": null}),
        )
        .await;
        assert_ne!(result.is_error, Some(true), "{result:?}");
        let result = call(
            &server,
            "echo_btree_map",
            json!({"value": [{"key": "a", "value": 1}, {"key": "b", "value": 2}]}),
        )
        .await;
        assert_eq!(structured(&result), json!({"a": 1, "b": 2}));
    }
}
