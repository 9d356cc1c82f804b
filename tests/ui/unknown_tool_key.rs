use mcp_tool_runtime::mcp_tool;

/// Look up a product by its catalog code.
#[mcp_tool(read_onyl)]
fn get_product(sku: String) -> String {
    format!("product {sku}")
}

fn main() {}
