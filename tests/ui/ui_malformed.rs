use mcp_tool_runtime::mcp_tool;

/// Show the cart.
#[mcp_tool(ui = "https://shop.example.com/cart")]
fn show_cart() -> String {
    "cart".into()
}

/// Show the orders.
#[mcp_tool(ui = "ui://")]
fn show_orders() -> String {
    "orders".into()
}

/// Remove a line.
#[mcp_tool(ui = "ui://shop/cart", ui_visibility = "app")]
fn remove_line(line: u32) -> String {
    format!("removed {line}")
}

/// Refresh the cart.
#[mcp_tool(ui = "ui://shop/cart", ui_visibility = ["agent"])]
fn refresh() -> String {
    "refreshed".into()
}

/// Empty the cart.
#[mcp_tool(ui_visibility = [])]
fn empty() -> String {
    "emptied".into()
}

fn main() {}
