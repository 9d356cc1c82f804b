//! Enums and defaults: allowed values with a suggestion, and `#[arg(default)]`.

use mcp_tool_runtime::mcp_tool;
use mcp_tool_test_support::results::{call, ok_text, violation_at, violation_messages};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::fixtures::{input_schema, server};

/// Result order by price.
#[derive(Debug, Clone, Copy, Default, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Sort {
    #[default]
    Asc,
    Desc,
}

/// Search the catalog.
///
/// # Arguments
/// * `query` - Words to look for.
/// * `sort` - Order of the results by price.
/// * `limit` - How many results at most.
/// * `exact` - Match whole words only.
/// * `page` - Which page of results.
/// * `then_by` - A second sort order.
#[mcp_tool(read_only, idempotent)]
pub(crate) fn search(
    query: String,
    #[arg(default)] sort: Sort,
    #[validate(range(min = 1, max = 50))]
    #[arg(default = 10)]
    limit: u32,
    #[arg(default)] exact: bool,
    page: Option<u32>,
    then_by: Option<Sort>,
) -> String {
    format!("{query} sort={sort:?} limit={limit} exact={exact} page={page:?} then_by={then_by:?}")
}

#[tokio::test]
async fn enum_violation_lists_allowed_values_and_suggests_the_closest() {
    let result = call(
        &server(),
        "search",
        json!({"query": "mug", "sort": "ascending"}),
    )
    .await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'sort' must be one of 'asc', 'desc', but received 'ascending'. Did you mean 'asc'?"
        ]
    );
    let violation = violation_at(&result, "sort");
    assert_eq!(violation["problem"], "not_allowed");
    assert_eq!(violation["allowed"], json!(["asc", "desc"]));
    assert_eq!(violation["suggestion"], "asc");
    assert_eq!(violation["received"], "ascending");
}

#[tokio::test]
async fn optional_enum_violation_lists_allowed_values_too() {
    let result = call(
        &server(),
        "search",
        json!({"query": "mug", "then_by": "DESC"}),
    )
    .await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'then_by' must be one of 'asc', 'desc', but received 'DESC'. Did you mean 'desc'?"
        ]
    );
}

#[tokio::test]
async fn enum_without_a_close_value_gives_no_suggestion() {
    let result = call(
        &server(),
        "search",
        json!({"query": "mug", "sort": "random"}),
    )
    .await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'sort' must be one of 'asc', 'desc', but received 'random'."]
    );
    assert!(violation_at(&result, "sort").get("suggestion").is_none());
}

#[tokio::test]
async fn defaults_are_applied_when_arguments_are_left_out() {
    let result = call(&server(), "search", json!({"query": "mug"})).await;
    assert_eq!(
        ok_text(&result),
        "mug sort=Asc limit=10 exact=false page=None then_by=None"
    );
}

#[tokio::test]
async fn given_values_override_defaults() {
    let result = call(
        &server(),
        "search",
        json!({"query": "mug", "sort": "desc", "limit": 3, "exact": true, "page": 2, "then_by": "asc"}),
    )
    .await;
    assert_eq!(
        ok_text(&result),
        "mug sort=Desc limit=3 exact=true page=Some(2) then_by=Some(Asc)"
    );
}

#[tokio::test]
async fn explicit_null_for_an_optional_argument_means_absent() {
    let result = call(&server(), "search", json!({"query": "mug", "page": null})).await;
    assert_eq!(
        ok_text(&result),
        "mug sort=Asc limit=10 exact=false page=None then_by=None"
    );
}

#[tokio::test]
async fn defaulted_arguments_are_still_validated() {
    let result = call(&server(), "search", json!({"query": "mug", "limit": 500})).await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'limit' must be between 1 and 50, but received 500."]
    );
}

#[test]
fn defaults_appear_in_the_schema_and_not_in_required() {
    let schema = input_schema("search");
    assert_eq!(schema["properties"]["limit"]["default"], 10);
    assert_eq!(schema["properties"]["exact"]["default"], false);
    assert_eq!(schema["properties"]["sort"]["default"], "asc");
    assert_eq!(schema["required"], json!(["query"]));
}

/// How results are ordered.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Order {
    /// Oldest first.
    Oldest,
    /// Newest first.
    Newest,
}

/// A customer's order history.
///
/// # Arguments
/// * `order` - How to sort.
#[mcp_tool]
pub(crate) fn history(order: Order) -> String {
    format!("{order:?}")
}

#[test]
fn documented_enums_are_published_as_enum_with_their_values_described() {
    use mcp_tool_runtime::{McpServer, SchemaProfile};
    for profile in [
        SchemaProfile::Portable,
        SchemaProfile::Strict,
        SchemaProfile::Gemini,
    ] {
        let server = McpServer::builder(())
            .tool(history_tool())
            .schema_profile(profile)
            .build()
            .expect("server");
        let published = crate::fixtures::published(&server, "history");
        assert_eq!(
            published["inputSchema"]["properties"]["order"],
            json!({
                "type": "string",
                "enum": ["oldest", "newest"],
                "description": "How to sort. oldest: Oldest first. newest: Newest first."
            }),
            "{profile}"
        );
    }
}

/// Finds products.
///
/// # Arguments
/// * `tags` - Only products with all of these tags.
/// * `labels` - Labels by language.
#[mcp_tool]
pub(crate) fn tagged(
    #[arg(default)] tags: Vec<String>,
    #[arg(default)] labels: std::collections::BTreeMap<String, String>,
    #[arg(default = 3)] limit: u8,
) -> String {
    format!("tags={tags:?} labels={labels:?} limit={limit}")
}

/// An empty default (`[]`, `{}`) says nothing that leaving the argument out does not: the
/// portable profile leaves it out, `full` keeps schemars' output, and the argument still
/// defaults.
#[tokio::test]
async fn empty_defaults_are_left_out_of_the_portable_schema() {
    use mcp_tool_runtime::{McpServer, SchemaProfile};
    let build = |profile| {
        McpServer::builder(())
            .tool(tagged_tool())
            .schema_profile(profile)
            .build()
            .expect("server")
    };
    let portable = build(SchemaProfile::Portable);
    let properties = &crate::fixtures::published(&portable, "tagged")["inputSchema"]["properties"];
    assert_eq!(properties["tags"].get("default"), None, "{properties}");
    assert_eq!(properties["labels"].get("default"), None, "{properties}");
    assert_eq!(properties["limit"]["default"], 3, "{properties}");
    let full = crate::fixtures::published(&build(SchemaProfile::Full), "tagged");
    assert_eq!(
        full["inputSchema"]["properties"]["tags"]["default"],
        json!([])
    );
    assert_eq!(
        full["inputSchema"]["properties"]["labels"]["default"],
        json!({})
    );
    let result = call(&portable, "tagged", json!({})).await;
    assert_eq!(ok_text(&result), "tags=[] labels={} limit=3");
}
