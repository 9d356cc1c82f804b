//! Fixtures of several sections: the tools more than one section calls, the state type with
//! method tools, and the servers. `server()` registers every section's tools in one order;
//! tool lists and unknown-tool messages depend on that order.

use std::sync::LazyLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use mcp_tool_runtime::{Json, McpServer, ToolDef, ToolError, mcp_tool, mcp_tools};
use mcp_tool_test_support::results::tool_json;
use regex::Regex;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{
    codes, constraints, descriptions, enums_and_defaults, masking, return_types, schemas,
    whole_input,
};

pub(crate) static SKU: LazyLock<Regex> =
    LazyLock::new(|| Regex::new("^[A-Z]{3}-[0-9]{4}$").expect("a valid pattern"));

/// A priced quantity.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Quote {
    sku: String,
    total_cents: u64,
}

/// Price a quantity of one catalog item.
///
/// # Arguments
/// * `sku` - Catalog code such as "ABC-0001".
/// * `quantity` - How many to price.
#[mcp_tool(read_only)]
pub(crate) fn quote(
    #[validate(length(equal = 8))] sku: String,
    #[validate(range(min = 1, max = 100))] quantity: u32,
) -> Result<Json<Quote>, ToolError> {
    Ok(Json(Quote {
        sku,
        total_cents: 250 * u64::from(quantity),
    }))
}

/// A postal address.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct Address {
    street: String,
    zip: u32,
}

/// Takes one argument of each JSON type.
#[mcp_tool]
pub(crate) fn every_type(
    quantity: i64,
    name: String,
    price: f64,
    gift: bool,
    tags: Vec<String>,
    address: Address,
) -> String {
    format!(
        "{quantity} {name} {price} {gift} {} {} {}",
        tags.len(),
        address.street,
        address.zip
    )
}

/// Say hello.
#[mcp_tool]
pub(crate) fn hello() -> &'static str {
    "hello"
}

/// Add two numbers after a short wait.
#[mcp_tool]
pub(crate) async fn slow_add(a: i64, b: i64) -> String {
    tokio::time::sleep(Duration::from_millis(20)).await;
    (a + b).to_string()
}

/// Call a rate-limited service.
#[mcp_tool]
pub(crate) fn throttled() -> Result<Json<Quote>, ToolError> {
    Err(ToolError::rate_limited("Too many reservations.")
        .with_retry_after(Duration::from_millis(1500)))
}

/// A shared counter.
#[derive(Default)]
pub(crate) struct Counter {
    pub(crate) value: AtomicU64,
}

#[mcp_tools]
impl Counter {
    /// Read the counter.
    #[mcp_tool(read_only)]
    fn get(&self) -> String {
        self.value.load(Ordering::SeqCst).to_string()
    }

    /// Add to the counter.
    ///
    /// # Arguments
    /// * `by` - How much to add.
    #[mcp_tool]
    async fn add(&self, #[validate(range(min = 1, max = 10))] by: u64) -> Json<Total> {
        tokio::task::yield_now().await;
        let total = self.value.fetch_add(by, Ordering::SeqCst) + by;
        Json(Total { total })
    }

    /// Double a number without touching the counter.
    #[mcp_tool]
    fn double(n: i64) -> String {
        (n * 2).to_string()
    }

    /// Fail with an I/O error from a method.
    #[mcp_tool]
    async fn broken(&self) -> Result<String, std::io::Error> {
        Err(std::io::Error::other(
            "method secret: disk /dev/sda1 failed",
        ))
    }
}

/// The counter's total.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Total {
    total: u64,
}

pub(crate) fn server() -> McpServer<()> {
    McpServer::builder(())
        .tool(quote_tool())
        .tool(every_type_tool())
        .tool(constraints::register_tool())
        .tool(enums_and_defaults::search_tool())
        .tool(hello_tool())
        .tool(return_types::noop_tool())
        .tool(return_types::pixel_tool())
        .tool(return_types::raw_result_tool())
        .tool(schemas::list_items_tool())
        .tool(masking::read_secret_tool())
        .tool(masking::load_with_question_mark_tool())
        .tool(masking::explode_tool())
        .tool(masking::explode_later_tool())
        .tool(slow_add_tool())
        .tool(codes::get_user_tool())
        .tool(codes::reserve_tool())
        .tool(throttled_tool())
        .tool(descriptions::delete_item_tool())
        .tool(descriptions::described_tool())
        .tool(schemas::count_nodes_tool())
        .tool(whole_input::place_order_tool())
        .tool(whole_input::rename_tool())
        .tool(whole_input::nested_argument::check_lines_tool())
        .tool(whole_input::count_days_tool())
        .tool(whole_input::store_labels_tool())
        .build()
        .expect("unique tool names")
}

pub(crate) fn counter_server() -> McpServer<Counter> {
    McpServer::builder(Counter::default())
        .tool_set()
        .tool(hello_tool())
        .build()
        .expect("unique tool names")
}

/// A server of `tools` alone, for a section whose tools stay out of `server()`'s lists.
pub(crate) fn server_of(tools: impl IntoIterator<Item = ToolDef<()>>) -> McpServer<()> {
    tools
        .into_iter()
        .fold(McpServer::builder(()), |builder, tool| builder.tool(tool))
        .build()
        .expect("unique tool names")
}

pub(crate) fn published(server: &McpServer<impl Send + Sync + 'static>, name: &str) -> Value {
    tool_json(
        server
            .registry()
            .published(name)
            .unwrap_or_else(|| panic!("tool '{name}' is published")),
    )
}

pub(crate) fn input_schema(name: &str) -> Value {
    published(&server(), name)["inputSchema"].clone()
}

pub(crate) fn is_correlation_id(id: &Value) -> bool {
    id.as_str()
        .is_some_and(|id| id.len() == 32 && id.chars().all(|c| c.is_ascii_hexdigit()))
}
