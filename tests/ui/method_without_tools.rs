use mcp_tool_runtime::mcp_tool;

struct Cart {
    items: std::sync::Mutex<Vec<String>>,
}

impl Cart {
    /// Add an item to the cart.
    #[mcp_tool]
    async fn add(&self, sku: String) -> String {
        self.items.lock().unwrap().push(sku.clone());
        format!("added {sku}")
    }
}

fn main() {}
