use mcp_tool_runtime::mcp_tool;

/// The filter of an order search.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct OrderQuery {
    customer_id: u64,
    status: Option<String>,
}

/// List a customer's orders.
#[mcp_tool(read_only)]
fn list_orders(#[arg(input)] query: OrderQuery) -> String {
    format!("orders of {} ({:?})", query.customer_id, query.status)
}

fn main() {}
