//! Schemas: the published input and output schemas.

use mcp_tool_runtime::{Json, McpServer, SchemaProfile, mcp_tool};
use mcp_tool_test_support::results::{
    assert_portable, assert_valid_2020_12, call, ok_text, tool_json, violation_messages,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::fixtures::{counter_server, every_type_tool, input_schema, published, server};

/// A catalog item.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Item {
    sku: String,
    price_cents: u32,
}

/// List items.
#[mcp_tool(read_only)]
pub(crate) fn list_items(#[arg(default = 2)] count: u32) -> Json<Vec<Item>> {
    Json(
        (0..count)
            .map(|i| Item {
                sku: format!("ABC-000{i}"),
                price_cents: 100 * i,
            })
            .collect(),
    )
}

/// A tree of labels.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct Tree {
    label: String,
    #[serde(default)]
    children: Vec<Tree>,
}

/// Count the nodes of a tree.
#[mcp_tool]
pub(crate) fn count_nodes(tree: Tree) -> String {
    fn count(tree: &Tree) -> usize {
        1 + tree.children.iter().map(count).sum::<usize>()
    }
    format!("{} has {} nodes", tree.label, count(&tree))
}

#[test]
fn every_published_schema_is_portable_2020_12() {
    let server = server();
    for tool in server.registry().list() {
        let tool = tool_json(tool);
        let recursive = tool["name"] == "count_nodes";
        assert_portable(&tool["inputSchema"], recursive);
        // No boolean `additionalProperties` (google-genai fails on it, issue 27); a map
        // input keeps its value schema.
        let extra = if tool["name"] == "store_labels" {
            json!({"type": "string"})
        } else {
            Value::Null
        };
        assert_eq!(
            tool["inputSchema"]["additionalProperties"], extra,
            "{}",
            tool["name"]
        );
        if let Some(output) = tool.get("outputSchema") {
            assert_portable(output, false);
        }
    }
    for tool in counter_server().registry().list() {
        let tool = tool_json(tool);
        assert_portable(&tool["inputSchema"], false);
        assert!(tool["inputSchema"].get("additionalProperties").is_none());
    }
}

#[test]
fn every_published_tool_has_a_description() {
    let server = server();
    for tool in server.registry().list() {
        let description = tool.description.as_deref().unwrap_or_default();
        assert!(!description.trim().is_empty(), "{}", tool.name);
        assert!(!description.contains("# Arguments"), "{}", tool.name);
    }
}

#[test]
fn integer_formats_become_bounds() {
    let schema = input_schema("every_type");
    // An i64's width bounds are past ±2^53, which JSON clients cannot hold exactly: left
    // out (issue 12, item 8); the runtime still enforces them (see `numbers`).
    assert_eq!(schema["properties"]["quantity"], json!({"type": "integer"}));
    assert_eq!(
        schema["properties"]["address"]["properties"]["zip"],
        json!({"type": "integer", "minimum": 0, "maximum": 4294967295_u64})
    );
    assert_eq!(schema["properties"]["price"], json!({"type": "number"}));
    let register = input_schema("register");
    assert_eq!(register["properties"]["age"]["minimum"], 18);
    assert_eq!(register["properties"]["age"]["maximum"], 130);
    assert!(register["properties"]["age"].get("format").is_none());
}

#[test]
fn nested_types_are_inlined() {
    let schema = input_schema("every_type");
    let address = &schema["properties"]["address"];
    assert_eq!(address["type"], "object");
    assert_eq!(address["required"], json!(["street", "zip"]));
    assert!(schema.get("$defs").is_none());
}

#[test]
fn optional_arguments_are_not_required_and_not_nullable() {
    let schema = input_schema("search");
    assert_eq!(schema["required"], json!(["query"]));
    assert_eq!(
        schema["properties"]["page"],
        json!({"type": "integer", "minimum": 0, "maximum": 4294967295_u64, "description": "Which page of results."})
    );
    let then_by = &schema["properties"]["then_by"];
    assert_eq!(then_by["enum"], json!(["asc", "desc"]));
    assert!(then_by.get("anyOf").is_none(), "{then_by}");
}

#[test]
fn a_tool_without_arguments_has_an_empty_object() {
    let schema = input_schema("hello");
    assert_eq!(schema["type"], "object");
    // Not `additionalProperties: false`, which google-genai fails on (issue 27); the runtime
    // still rejects any argument.
    assert!(schema.get("additionalProperties").is_none(), "{schema}");
    assert!(
        schema["properties"]
            .as_object()
            .is_none_or(|p| p.is_empty()),
        "{schema}"
    );
    assert!(schema.get("required").is_none_or(|r| r == &json!([])));
}

#[test]
fn validation_constraints_appear_in_the_schema() {
    let schema = input_schema("register");
    let properties = &schema["properties"];
    assert_eq!(properties["name"]["minLength"], 3);
    assert_eq!(properties["name"]["maxLength"], 20);
    assert_eq!(properties["email"]["format"], "email");
    assert_eq!(properties["homepage"]["format"], "uri");
    assert_eq!(
        properties["favourite_sku"]["pattern"],
        "^[A-Z]{3}-[0-9]{4}$"
    );
    assert_eq!(properties["favourite_sku"]["examples"], json!(["ABC-0001"]));
    assert_eq!(properties["tags"]["minItems"], 1);
    assert_eq!(properties["tags"]["maxItems"], 3);
}

#[test]
fn recursive_types_keep_only_their_own_defs() {
    let schema = input_schema("count_nodes");
    let defs = schema["$defs"].as_object().expect("recursion needs $defs");
    assert_eq!(defs.keys().collect::<Vec<_>>(), ["Tree"]);
    // The first level is inlined; only the recursion refers back.
    let tree = &schema["properties"]["tree"];
    assert_eq!(tree["type"], "object");
    assert_eq!(tree["properties"]["label"]["type"], "string");
    assert_eq!(
        tree["properties"]["children"]["items"]["$ref"],
        "#/$defs/Tree"
    );
    assert_valid_2020_12(&schema);
}

#[tokio::test]
async fn recursive_arguments_are_validated_with_paths() {
    let server = server();
    let ok = call(
        &server,
        "count_nodes",
        json!({"tree": {"label": "a", "children": [{"label": "b"}, {"label": "c", "children": [{"label": "d"}]}]}}),
    )
    .await;
    assert_eq!(ok_text(&ok), "a has 4 nodes");
    let bad = call(
        &server,
        "count_nodes",
        json!({"tree": {"label": "a", "children": [{"label": "b"}, {"label": "c", "children": [{"label": 4}]}]}}),
    )
    .await;
    assert_eq!(
        violation_messages(&bad),
        ["Argument 'tree.children[1].children[0].label' expected a string, but received 4."]
    );
}

#[test]
fn full_profile_publishes_the_canonical_schema() {
    let server = McpServer::builder(())
        .tool(every_type_tool())
        .schema_profile(SchemaProfile::Full)
        .build()
        .unwrap();
    let schema = published(&server, "every_type")["inputSchema"].clone();
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert_eq!(schema["properties"]["address"]["$ref"], "#/$defs/Address");
    assert_valid_2020_12(&schema);
}

#[test]
fn object_outputs_are_not_wrapped() {
    let server = server();
    let output = published(&server, "quote")["outputSchema"].clone();
    assert_eq!(output["type"], "object");
    assert_eq!(output["required"], json!(["sku", "total_cents"]));
    assert_eq!(output["properties"]["total_cents"]["minimum"], 0);
}

#[test]
fn non_object_outputs_are_wrapped_in_result() {
    let output = published(&server(), "list_items")["outputSchema"].clone();
    assert_eq!(output["type"], "object");
    assert_eq!(output["required"], json!(["result"]));
    let items = &output["properties"]["result"];
    assert_eq!(items["type"], "array");
    assert_eq!(items["items"]["type"], "object");
    assert_eq!(items["items"]["required"], json!(["sku", "price_cents"]));
    assert_portable(&output, false);
}

#[tokio::test]
async fn non_object_results_are_wrapped_in_result() {
    let result = call(&server(), "list_items", json!({})).await;
    let expected = json!({"result": [
        {"sku": "ABC-0000", "price_cents": 0},
        {"sku": "ABC-0001", "price_cents": 100}
    ]});
    assert_eq!(result.structured_content.as_ref(), Some(&expected));
    let text: Value = serde_json::from_str(&ok_text(&result)).unwrap();
    assert_eq!(text, expected);
}

#[test]
fn tools_without_structured_output_have_no_output_schema() {
    let server = server();
    for name in [
        "hello",
        "noop",
        "pixel",
        "raw_result",
        "every_type",
        "read_secret",
    ] {
        assert!(
            published(&server, name).get("outputSchema").is_none(),
            "{name}"
        );
    }
}
