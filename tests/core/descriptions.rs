//! Descriptions, annotations, names, metadata.

use mcp_tool_runtime::mcp_tool;
use mcp_tool_test_support::results::{call, ok_text};
use serde_json::json;

use crate::fixtures::{input_schema, published, server};

/// Delete an item.
#[mcp_tool(
    name = "catalog.delete_item",
    title = "Delete a catalog item",
    destructive,
    idempotent = true,
    read_only = false,
    open_world = false,
    meta = r#"{"team": "catalog", "version": 2}"#
)]
pub(crate) fn delete_item(sku: String) -> String {
    format!("deleted {sku}")
}

/// A documented tool.
#[mcp_tool(
    description = "Overrides the doc comment.",
    icons = [
        "https://example.com/described.png",
        icon(
            src = "data:image/svg+xml;base64,PHN2Zy8+",
            mime_type = "image/svg+xml",
            sizes = ["any", "48x48"],
            theme = "dark"
        )
    ]
)]
pub(crate) fn described() -> &'static str {
    "ok"
}

#[test]
fn arguments_section_moves_into_argument_descriptions() {
    let tool = published(&server(), "quote");
    assert_eq!(tool["description"], "Price a quantity of one catalog item.");
    let properties = &tool["inputSchema"]["properties"];
    assert_eq!(
        properties["sku"]["description"],
        "Catalog code such as \"ABC-0001\"."
    );
    assert_eq!(properties["quantity"]["description"], "How many to price.");
}

#[test]
fn description_attribute_overrides_the_doc_comment() {
    let tool = published(&server(), "described");
    assert_eq!(tool["description"], "Overrides the doc comment.");
}

#[test]
fn icons_are_published_as_written() {
    let tool = published(&server(), "described");
    assert_eq!(
        tool["icons"],
        json!([
            {"src": "https://example.com/described.png"},
            {"src": "data:image/svg+xml;base64,PHN2Zy8+", "mimeType": "image/svg+xml",
             "sizes": ["any", "48x48"], "theme": "dark"}
        ])
    );
    let plain = published(&server(), "catalog.delete_item");
    assert!(plain.get("icons").is_none(), "{plain}");
}

#[test]
fn whole_input_fields_are_described_by_their_doc_comments() {
    let schema = input_schema("place_order");
    assert_eq!(
        schema["properties"]["customer"]["description"],
        "Who orders."
    );
    assert_eq!(
        schema["properties"]["items"]["items"]["properties"]["qty"]["description"],
        "How many."
    );
    assert_eq!(schema["required"], json!(["customer", "email", "items"]));
}

#[test]
fn annotations_title_name_and_meta_are_published() {
    let tool = published(&server(), "catalog.delete_item");
    assert_eq!(tool["name"], "catalog.delete_item");
    assert_eq!(tool["title"], "Delete a catalog item");
    assert_eq!(
        tool["annotations"],
        json!({
            "title": "Delete a catalog item",
            "readOnlyHint": false,
            "destructiveHint": true,
            "idempotentHint": true,
            "openWorldHint": false
        })
    );
    assert_eq!(tool["_meta"], json!({"team": "catalog", "version": 2}));
}

#[test]
fn flags_alone_set_only_their_hints() {
    let tool = published(&server(), "search");
    assert_eq!(
        tool["annotations"],
        json!({"readOnlyHint": true, "idempotentHint": true})
    );
    assert!(tool.get("title").is_none());
    assert!(tool.get("_meta").is_none());
}

#[test]
fn tools_without_hints_have_no_annotations() {
    let tool = published(&server(), "hello");
    assert!(tool.get("annotations").is_none(), "{tool}");
    assert_eq!(tool["description"], "Say hello.");
}

#[tokio::test]
async fn a_renamed_tool_is_called_by_its_new_name() {
    let server = server();
    let result = call(&server, "catalog.delete_item", json!({"sku": "ABC-0001"})).await;
    assert_eq!(ok_text(&result), "deleted ABC-0001");
    assert!(server.call("delete_item", None).await.is_err());
}
