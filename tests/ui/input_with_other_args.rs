use mcp_tool_runtime::mcp_tool;
use mcp_tool_runtime::validator::Validate;

/// The filter of an order search.
#[derive(serde::Deserialize, schemars::JsonSchema, Validate)]
#[validate(crate = "mcp_tool_runtime::validator")]
struct OrderQuery {
    customer_id: u64,
}

/// List a customer's orders.
#[mcp_tool(read_only)]
fn list_orders(#[arg(input)] query: OrderQuery, #[arg(default = 20)] limit: u32) -> String {
    format!("{limit} orders of {}", query.customer_id)
}

fn main() {}
