use mcp_tool_runtime::mcp_tool;

#[mcp_tool(read_only)]
fn list_orders(customer_id: u64) -> String {
    format!("orders of {customer_id}")
}

fn main() {}
