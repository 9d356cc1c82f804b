use mcp_tool_runtime::mcp_tool;

/// List recent orders.
#[mcp_tool]
fn list_orders(#[arg(defualt = 20)] limit: Option<u32>) -> String {
    format!("last {} orders", limit.unwrap_or(20))
}

fn main() {}
