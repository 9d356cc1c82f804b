use mcp_tool_runtime::mcp_tool;

/// Add an item to the shopping cart.
#[mcp_tool(name = "add item!")]
fn add_item(sku: String, quantity: u32) -> String {
    format!("added {quantity} x {sku}")
}

fn main() {}
