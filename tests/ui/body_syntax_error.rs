use mcp_tool_runtime::mcp_tool;

/// Count the orders of a customer.
///
/// # Arguments
/// * `customer` - The customer's id.
#[mcp_tool]
fn count_orders(customer: u64) -> String {
    let total = ;
    format!("{customer}: {total}")
}

fn main() {
    let _ = count_orders_tool::<()>();
}
