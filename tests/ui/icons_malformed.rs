use mcp_tool_runtime::mcp_tool;

/// Show the cart.
#[mcp_tool(icons = "https://example.com/cart.png")]
fn show_cart() -> String {
    "ok".to_string()
}

/// Check out the cart.
#[mcp_tool(icons = [
    "cart.png",
    icon(src = "https://example.com/cart.svg", mime_type = "svg", sizes = ["48", "any"], theme = "night"),
    icon(mime = "image/png"),
    icon(mime_type = "image/png"),
    42,
])]
fn checkout() -> String {
    "ok".to_string()
}

fn main() {}
