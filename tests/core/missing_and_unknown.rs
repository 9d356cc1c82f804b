//! Every violation at once; missing and unknown arguments.

use mcp_tool_runtime::mcp_tool;
use mcp_tool_test_support::results::{
    call, client_envelope, ok_text, violation_at, violation_messages,
};
use serde_json::{Value, json};

use crate::fixtures::server;

#[tokio::test]
async fn every_violation_is_reported_in_one_response() {
    let result = call(
        &server(),
        "every_type",
        json!({
            "quantity": "five",
            "name": 1,
            "price": "cheap",
            "gift": "no",
            "tags": "a,b",
            "address": {"street": "Main St", "zip": -1}
        }),
    )
    .await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'quantity' expected an integer, but received 'five'.",
            "Argument 'name' expected a string, but received 1.",
            "Argument 'price' expected a number, but received 'cheap'.",
            "Argument 'gift' expected a boolean, but received 'no'.",
            "Argument 'tags' expected an array, but received 'a,b'.",
            "Argument 'address.zip' must be between 0 and 4294967295, but received -1.",
        ]
    );
    assert_eq!(
        client_envelope(&result).error,
        "Invalid arguments for tool 'every_type': 6 problems."
    );
}

#[tokio::test]
async fn missing_required_arguments_name_what_they_expect() {
    let result = call(&server(), "quote", json!({})).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Missing required argument 'sku': expected a string of exactly 8 characters.",
            "Missing required argument 'quantity': expected an integer between 1 and 100.",
        ]
    );
    let missing = violation_at(&result, "quantity");
    assert_eq!(missing["problem"], "missing");
    // The phrase of what was expected is in the sentence, not on the wire (issue 27).
    assert!(missing.get("expected").is_none(), "{missing}");
    assert!(missing.get("received").is_none(), "{missing}");
}

#[tokio::test]
async fn unknown_argument_suggests_the_closest_and_lists_the_valid_ones() {
    let result = call(&server(), "quote", json!({"sku": "ABC-0001", "quantiy": 3})).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Missing required argument 'quantity': expected an integer between 1 and 100.",
            "Unknown argument 'quantiy'. Did you mean 'quantity'? Valid arguments here: sku, quantity.",
        ]
    );
    let unknown = violation_at(&result, "quantiy");
    assert_eq!(unknown["problem"], "unknown_argument");
    assert_eq!(unknown["suggestion"], "quantity");
    // The valid names are in the sentence, not in the envelope (issue 27).
    assert!(unknown.get("allowed").is_none(), "{unknown}");
    assert_eq!(unknown["received"], 3);
}

#[tokio::test]
async fn unknown_argument_without_a_close_name_still_lists_the_valid_ones() {
    let result = call(
        &server(),
        "quote",
        json!({"sku": "ABC-0001", "quantity": 1, "zebra": true}),
    )
    .await;
    assert_eq!(
        violation_messages(&result),
        ["Unknown argument 'zebra'. Valid arguments here: sku, quantity."]
    );
}

#[tokio::test]
async fn a_tool_without_arguments_rejects_any() {
    let result = call(&server(), "hello", json!({"greeting": "hi"})).await;
    assert_eq!(
        violation_messages(&result),
        ["Unknown argument 'greeting'. This tool takes no arguments."]
    );
}

#[tokio::test]
async fn a_tool_without_arguments_accepts_none_null_and_empty() {
    let server = server();
    for arguments in [None, Some(Value::Null), Some(json!({}))] {
        let result = server.call("hello", arguments.clone()).await.unwrap();
        assert_eq!(ok_text(&result), "hello", "arguments {arguments:?}");
    }
}

#[tokio::test]
async fn absent_arguments_report_every_required_argument() {
    let result = server().call("quote", None).await.unwrap();
    assert_eq!(
        violation_messages(&result),
        [
            "Missing required argument 'sku': expected a string of exactly 8 characters.",
            "Missing required argument 'quantity': expected an integer between 1 and 100.",
        ]
    );
}

#[tokio::test]
async fn null_arguments_report_every_required_argument() {
    let result = server().call("quote", Some(Value::Null)).await.unwrap();
    assert_eq!(
        violation_messages(&result),
        [
            "Missing required argument 'sku': expected a string of exactly 8 characters.",
            "Missing required argument 'quantity': expected an integer between 1 and 100.",
        ]
    );
}

#[tokio::test]
async fn non_object_arguments_get_a_clear_message() {
    let server = server();
    for (arguments, shown) in [
        (json!([1, 2]), "[1,2]"),
        (json!("sku=ABC-0001"), "'sku=ABC-0001'"),
        (json!(7), "7"),
    ] {
        let result = server.call("quote", Some(arguments)).await.unwrap();
        assert_eq!(
            violation_messages(&result),
            [format!(
                "The arguments must be a JSON object of named arguments, but received {shown}."
            )]
        );
        let violation = violation_at(&result, "");
        assert_eq!(violation["problem"], "not_an_object");
        // The phrase of what was expected is in the sentence, not on the wire (issue 27).
        assert!(violation.get("expected").is_none(), "{violation}");
    }
}

/// Search the catalog.
#[mcp_tool]
pub(crate) fn search_catalog(query: String, #[arg(default = 10)] limit: u32) -> String {
    format!("{query} {limit}")
}

fn catalog_server() -> mcp_tool_runtime::McpServer<()> {
    mcp_tool_runtime::McpServer::builder(())
        .tool(search_catalog_tool())
        .build()
        .expect("server")
}

#[tokio::test]
async fn an_unknown_argument_that_fits_the_one_missing_suggests_it() {
    let result = call(&catalog_server(), "search_catalog", json!({"q": "widget"})).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Missing required argument 'query': expected a string.",
            "Unknown argument 'q'. Did you mean 'query'? Valid arguments here: query, limit.",
        ]
    );
    assert_eq!(violation_at(&result, "q")["suggestion"], "query");
}

#[tokio::test]
async fn an_unknown_argument_of_another_type_suggests_nothing() {
    let result = call(&catalog_server(), "search_catalog", json!({"q": 5})).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Missing required argument 'query': expected a string.",
            "Unknown argument 'q'. Valid arguments here: query, limit.",
        ]
    );
}
