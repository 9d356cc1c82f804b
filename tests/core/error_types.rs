//! A user's own error type maps its values to codes with `#[derive(ToolError)]`, and both a
//! returned `Result<T, ShopError>` and `?` into `Result<T, ToolError>` keep that mapping.

use std::fmt;

use mcp_tool_runtime::{McpServer, ToolError, mcp_tool};
use mcp_tool_test_support::results::{call, envelope, text};
use serde_json::json;

/// The shop's errors, as a user writes them (a thiserror enum would do the same).
#[derive(Debug, ToolError)]
pub(crate) enum ShopError {
    #[tool_error(code = "not_found", hint = "Use search_items to find valid ids.")]
    NotFound(u64),
    #[tool_error(code = "out_of_stock", retryable = true, retry_after_secs = 30)]
    OutOfStock {
        sku: String,
    },
    Db(std::io::Error),
}

impl fmt::Display for ShopError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotFound(id) => write!(f, "No product with id {id}."),
            Self::OutOfStock { sku } => write!(f, "'{sku}' is out of stock."),
            Self::Db(error) => write!(f, "database failure: {error}"),
        }
    }
}

impl std::error::Error for ShopError {}

fn in_stock(sku: &str) -> Result<(), ShopError> {
    Err(ShopError::OutOfStock {
        sku: sku.to_string(),
    })
}

/// Look up a product.
#[mcp_tool]
pub(crate) fn product(id: u64) -> Result<String, ShopError> {
    Err(ShopError::NotFound(id))
}

/// Reserve an item.
#[mcp_tool]
pub(crate) fn reserve_item(sku: String) -> Result<String, ToolError> {
    in_stock(&sku)?;
    Ok(sku)
}

/// The sales report.
#[mcp_tool]
pub(crate) fn sales_report() -> Result<String, ShopError> {
    Err(ShopError::Db(std::io::Error::other("disk /var/db failed")))
}

/// Read the price list.
#[mcp_tool]
pub(crate) fn price_list() -> Result<String, ToolError> {
    Ok(std::fs::read_to_string("/nonexistent/mcp-tool/prices.csv")?)
}

fn server() -> McpServer<()> {
    McpServer::builder(())
        .tools([
            product_tool(),
            reserve_item_tool(),
            sales_report_tool(),
            price_list_tool(),
        ])
        .build()
        .expect("server")
}

#[tokio::test]
async fn a_returned_error_type_maps_to_its_code_and_shows_its_message() {
    let result = call(&server(), "product", json!({"id": 99})).await;
    let envelope = envelope(&result);
    assert_eq!(envelope["code"], "not_found");
    assert_eq!(envelope["error"], "No product with id 99.");
    assert_eq!(envelope["hint"], "Use search_items to find valid ids.");
    assert_eq!(
        text(&result),
        "No product with id 99.\nHint: Use search_items to find valid ids."
    );
}

#[tokio::test]
async fn question_mark_into_tool_error_keeps_the_mapping() {
    let result = call(&server(), "reserve_item", json!({"sku": "ABC-0001"})).await;
    let envelope = envelope(&result);
    assert_eq!(envelope["code"], "out_of_stock");
    assert_eq!(envelope["class"], "input");
    assert_eq!(envelope["retryable"], true);
    assert_eq!(envelope["retryAfter"], 30);
    assert_eq!(envelope["error"], "'ABC-0001' is out of stock.");
}

#[tokio::test]
async fn a_variant_without_a_code_stays_masked() {
    let result = call(&server(), "sales_report", json!({})).await;
    let envelope = envelope(&result);
    assert_eq!(envelope["code"], "internal_error");
    assert!(!text(&result).contains("/var/db"), "{}", text(&result));
}

#[tokio::test]
async fn foreign_errors_through_question_mark_are_still_masked() {
    let result = call(&server(), "price_list", json!({})).await;
    assert_eq!(envelope(&result)["code"], "internal_error");
    assert!(!text(&result).contains("prices.csv"), "{}", text(&result));
}

/// Load the settings file.
#[mcp_tool]
pub(crate) fn load_settings() -> anyhow::Result<String> {
    use anyhow::Context;
    let text = std::fs::read_to_string("/nonexistent/mcp-tool/settings.toml")
        .context("reading the settings of tenant acme-secret")?;
    Ok(text)
}

/// Check the stock of an item.
#[mcp_tool]
pub(crate) fn check_stock(sku: String) -> Result<String, anyhow::Error> {
    if sku == "ABC-0001" {
        return Ok("12 in stock".to_string());
    }
    anyhow::bail!("stock service at 10.0.0.7 refused {sku}")
}

/// Renew the session token.
#[mcp_tool]
pub(crate) async fn renew_token() -> Result<String, Box<dyn std::error::Error + Send + Sync>> {
    Err("token expired for admin@corp.example".into())
}

fn masked_server() -> McpServer<()> {
    McpServer::builder(())
        .tools([load_settings_tool(), check_stock_tool(), renew_token_tool()])
        .build()
        .expect("server")
}

#[tokio::test]
async fn anyhow_results_are_masked_and_their_values_returned() {
    let server = masked_server();
    for (tool, arguments, secret) in [
        ("load_settings", json!({}), "acme-secret"),
        ("check_stock", json!({"sku": "ZZZ-9"}), "10.0.0.7"),
        ("renew_token", json!({}), "admin@corp"),
    ] {
        let result = call(&server, tool, arguments).await;
        assert_eq!(envelope(&result)["code"], "internal_error", "{tool}");
        assert!(!text(&result).contains(secret), "{tool}: {}", text(&result));
    }
    let found = call(&server, "check_stock", json!({"sku": "ABC-0001"})).await;
    assert_eq!(found.is_error, Some(false));
    assert_eq!(text(&found), "12 in stock");
}
