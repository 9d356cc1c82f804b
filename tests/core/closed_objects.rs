//! Nothing the model sends is dropped silently: unknown keys are rejected at every depth,
//! with a suggestion and the valid keys, and published as `additionalProperties: false`;
//! open maps stay open.

use std::collections::{BTreeMap, HashMap};

use mcp_tool_runtime::{McpServer, SchemaProfile, mcp_tool};
use mcp_tool_test_support::results::{call, ok_text, violation_at, violation_messages};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use validator::Validate;

use crate::fixtures::{published, server_of};

/// Which orders to list.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub(crate) struct Filter {
    /// Include archived orders.
    #[serde(default)]
    include_archived: bool,
    /// Only orders of this customer.
    customer: Option<String>,
}

/// Find orders.
#[mcp_tool]
pub(crate) fn find_orders(query: String, filter: Filter, lines: Vec<Filter>) -> String {
    format!(
        "{query} {} {:?} {}",
        filter.include_archived,
        filter.customer,
        lines.len()
    )
}

/// Free-form attributes beside a name.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct Tagged {
    name: String,
    #[serde(flatten)]
    rest: BTreeMap<String, String>,
}

/// An object that opts out of the check.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = true))]
pub(crate) struct Loose {
    name: String,
}

/// Store open objects.
#[mcp_tool]
pub(crate) fn store_open(labels: HashMap<String, u32>, tagged: Tagged, loose: Loose) -> String {
    format!(
        "{} {} {:?} {}",
        labels.len(),
        tagged.name,
        tagged.rest,
        loose.name
    )
}

/// A report request with a nested part.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
pub(crate) struct Report {
    title: String,
    filter: Filter,
}

/// Make a report.
#[mcp_tool]
pub(crate) fn make_report(#[arg(input)] report: Report) -> String {
    format!("{} {}", report.title, report.filter.include_archived)
}

fn server() -> McpServer<()> {
    server_of([find_orders_tool(), store_open_tool(), make_report_tool()])
}

#[tokio::test]
async fn a_misspelt_nested_key_is_rejected_with_a_suggestion() {
    let arguments = json!({"query": "mugs", "filter": {"include_archvied": true}, "lines": []});
    let result = call(&server(), "find_orders", arguments).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Unknown argument 'filter.include_archvied'. Did you mean 'include_archived'? Valid arguments here: include_archived, customer."
        ]
    );
    let unknown = violation_at(&result, "filter.include_archvied");
    assert_eq!(unknown["problem"], "unknown_argument");
    assert_eq!(unknown["suggestion"], "include_archived");
    // The valid keys are in the sentence above, not in the envelope (issue 27).
    assert!(unknown.get("allowed").is_none(), "{unknown}");
}

#[tokio::test]
async fn unknown_keys_in_array_items_and_whole_inputs_are_rejected() {
    let server = server();
    let arguments = json!({"query": "mugs", "filter": {}, "lines": [{}, {"custmer": "Ada"}]});
    let result = call(&server, "find_orders", arguments).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Unknown argument 'lines[1].custmer'. Did you mean 'customer'? Valid arguments here: include_archived, customer."
        ]
    );
    let arguments = json!({"title": "Q3", "filter": {"archived": true}});
    let result = call(&server, "make_report", arguments).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Unknown argument 'filter.archived'. Did you mean 'include_archived'? Valid arguments here: include_archived, customer."
        ]
    );
}

#[tokio::test]
async fn an_unknown_nested_key_is_reported_beside_other_problems() {
    let arguments =
        json!({"query": 7, "filter": {"include_archived": true, "zebra": 1}, "lines": []});
    let result = call(&server(), "find_orders", arguments).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'query' expected a string, but received 7.",
            "Unknown argument 'filter.zebra'. Valid arguments here: include_archived, customer.",
        ]
    );
}

#[tokio::test]
async fn valid_nested_objects_still_pass() {
    let arguments = json!({
        "query": "mugs",
        "filter": {"include_archived": true, "customer": "Ada"},
        "lines": [{"customer": null}]
    });
    let result = call(&server(), "find_orders", arguments).await;
    assert_eq!(ok_text(&result), r#"mugs true Some("Ada") 1"#);
}

#[tokio::test]
async fn maps_flattened_catch_alls_and_opted_out_objects_stay_open() {
    let arguments = json!({
        "labels": {"any": 1, "key": 2},
        "tagged": {"name": "mug", "color": "red"},
        "loose": {"name": "cup", "extra": [1, 2]}
    });
    let result = call(&server(), "store_open", arguments).await;
    assert_eq!(ok_text(&result), r#"2 mug {"color": "red"} cup"#);
}

/// The canonical schema (the `full` profile, schemars's `$defs` as they are) closes nested
/// objects and leaves open ones open; the default profile publishes no boolean
/// `additionalProperties` (google-genai's MCP path fails on them, issue 27) and keeps the
/// value schemas of maps.
#[test]
fn nested_objects_are_closed_in_the_canonical_schema_and_open_ones_open() {
    let server = McpServer::builder(())
        .tools([find_orders_tool(), store_open_tool(), make_report_tool()])
        .schema_profile(SchemaProfile::Full)
        .build()
        .expect("the server builds");
    let find = &published(&server, "find_orders")["inputSchema"];
    assert_eq!(find["additionalProperties"], false);
    assert_eq!(find["properties"]["filter"]["$ref"], "#/$defs/Filter");
    assert_eq!(
        find["properties"]["lines"]["items"]["$ref"],
        "#/$defs/Filter"
    );
    assert_eq!(find["$defs"]["Filter"]["additionalProperties"], false);
    let open = &published(&server, "store_open")["inputSchema"];
    let labels = &open["properties"]["labels"];
    assert_eq!(labels["additionalProperties"]["type"], "integer");
    assert_eq!(
        open["$defs"]["Tagged"]["additionalProperties"]["type"],
        "string"
    );
    assert_eq!(open["$defs"]["Loose"]["additionalProperties"], true);
    let report = &published(&server, "make_report")["inputSchema"];
    assert_eq!(report["properties"]["filter"]["$ref"], "#/$defs/Filter");
    assert_eq!(report["$defs"]["Filter"]["additionalProperties"], false);
    let portable = server_of([find_orders_tool(), store_open_tool(), make_report_tool()]);
    let find = published(&portable, "find_orders")["inputSchema"].to_string();
    assert!(!find.contains("additionalProperties"), "{find}");
    let open = &published(&portable, "store_open")["inputSchema"]["properties"];
    assert_eq!(open["labels"]["additionalProperties"]["type"], "integer");
    assert_eq!(open["tagged"]["additionalProperties"]["type"], "string");
    assert!(
        open["loose"].get("additionalProperties").is_none(),
        "{open}"
    );
}
