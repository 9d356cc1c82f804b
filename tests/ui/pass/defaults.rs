//! Defaults: `#[arg(default = value)]` converts the value with `From`, `#[arg(default)]` uses
//! `Default`; both make the argument optional and show the default in the schema.

use mcp_tool_runtime::{McpServer, mcp_tool};
use serde_json::json;

/// Search the catalog.
///
/// # Arguments
/// * `query` - Words to look for in product names.
/// * `limit` - How many results to return at most.
/// * `tags` - Only products with all of these tags.
#[mcp_tool(read_only, idempotent, title = "Catalog search")]
fn search(
    query: String,
    #[arg(default = 10)] limit: Option<u8>,
    #[arg(default)] tags: Vec<String>,
    #[arg(default = true, example = false)] in_stock: bool,
) -> String {
    format!("{query} {limit:?} {tags:?} {in_stock}")
}

fn main() {
    let tool = search_tool::<()>();
    let schema = tool.info().input_schema();
    assert_eq!(schema["required"], json!(["query"]));
    assert_eq!(schema["properties"]["limit"]["default"], json!(10));
    assert_eq!(schema["properties"]["tags"]["default"], json!([]));
    assert_eq!(schema["properties"]["in_stock"]["default"], json!(true));
    assert_eq!(
        schema["properties"]["query"]["description"],
        json!("Words to look for in product names.")
    );
    let _server = McpServer::builder(()).tool(tool).build().unwrap();
}
