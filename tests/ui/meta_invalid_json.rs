use mcp_tool_runtime::mcp_tool;

/// Check out the cart.
#[mcp_tool(meta = r#"{"team": "cart", "tier": }"#)]
fn checkout() -> String {
    "ok".to_string()
}

/// Empty the cart.
#[mcp_tool(meta = r#"["cart"]"#)]
fn empty_cart() -> String {
    "ok".to_string()
}

fn main() {}
