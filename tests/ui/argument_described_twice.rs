use mcp_tool_runtime::mcp_tool;

/// Cancel an order.
///
/// # Arguments
/// * `order_id` - The order to cancel.
#[mcp_tool(destructive)]
fn cancel_order(#[arg(description = "Which order.")] order_id: u64) -> String {
    format!("cancelled {order_id}")
}

fn main() {}
