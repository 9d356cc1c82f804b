use mcp_tool_runtime::mcp_tool;

#[derive(serde::Deserialize, schemars::JsonSchema)]
enum Order {
    Newest,
    Oldest,
}

/// List the orders.
#[mcp_tool]
fn list_orders(#[arg(default = Order::Newest)] order: Order) -> String {
    match order {
        Order::Newest => "newest first".into(),
        Order::Oldest => "oldest first".into(),
    }
}

fn main() {}
