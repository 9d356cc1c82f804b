//! `#[validate(...)]` on arguments, including `regex(path = *RE)` with a `LazyLock<Regex>`
//! and a custom function; a call that breaks them fails with a tool error.

use std::sync::LazyLock;

use mcp_tool_runtime::validator::ValidationError;
use mcp_tool_runtime::{McpServer, mcp_tool};
use regex::Regex;
use serde_json::json;

static SKU: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[A-Z]{3}-\d{4}$").unwrap());

fn not_reserved(name: &str) -> Result<(), ValidationError> {
    if name == "admin" {
        return Err(ValidationError::new("reserved"));
    }
    Ok(())
}

/// Register a product.
#[mcp_tool(destructive = false, meta = r#"{"team": "catalog"}"#)]
fn register_product(
    #[validate(regex(path = *SKU, message = "use a code such as ABC-0001"))] sku: String,
    #[validate(length(min = 1, max = 80), custom(function = "not_reserved"))] name: String,
    #[validate(range(min = 1, max = 10_000))] price_cents: u32,
    #[validate(range(exclusive_min = 0.0, max = 100.0))] discount_percent: Option<f64>,
    #[validate(email)] contact: String,
    #[validate(url)] homepage: Option<String>,
    #[arg(description = "Free-form labels.")]
    #[validate(length(max = 5))]
    labels: Vec<String>,
) -> String {
    format!("{sku} {name} {price_cents} {discount_percent:?} {contact} {homepage:?} {labels:?}")
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let server = McpServer::builder(())
        .tool(register_product_tool())
        .build()
        .unwrap();
    let valid = json!({
        "sku": "ABC-0001",
        "name": "Desk lamp",
        "price_cents": 2500,
        "contact": "shop@example.com",
        "labels": ["home"],
    });
    let result = server.call("register_product", Some(valid)).await.unwrap();
    assert_ne!(result.is_error, Some(true));

    let invalid = json!({
        "sku": "lamp",
        "name": "admin",
        "price_cents": 0,
        "contact": "nobody",
        "labels": [],
    });
    let result = server
        .call("register_product", Some(invalid))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(true));
}
