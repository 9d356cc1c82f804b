use mcp_tool_runtime::mcp_tool;

/// Reserve stock for an order.
#[mcp_tool]
fn reserve(sku: String) -> Result<String, String> {
    Err(format!("{sku} is out of stock"))
}

/// Cancel an order.
#[mcp_tool]
fn cancel(order: u64) -> Result<String, &'static str> {
    if order == 0 {
        return Err("no such order");
    }
    Ok("cancelled".to_string())
}

fn main() {}
