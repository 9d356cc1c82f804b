use mcp_tool_runtime::mcp_tool;

/// Add an item to the cart.
///
/// # Arguments
/// * `sku` - Catalog code such as "ABC-0001".
/// * `quantiy` - How many to add.
#[mcp_tool]
fn add_item(sku: String, quantity: u32) -> String {
    format!("added {quantity} x {sku}")
}

fn main() {}
