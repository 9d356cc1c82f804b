use mcp_tool_runtime::mcp_tool;

/// Look up a product by its catalog code.
#[mcp_tool(schema_profile = "strcit")]
fn get_product(sku: String) -> String {
    format!("product {sku}")
}

fn main() {}
