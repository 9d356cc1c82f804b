//! A named `#[mcp_tools]` block that no server registers is reported at its name, not lost.

#![deny(dead_code)]

use mcp_tool_runtime::{McpServer, mcp_tool, mcp_tools};

#[derive(Default)]
struct Shop;

#[mcp_tools]
impl Shop {
    /// Count the items.
    #[mcp_tool]
    fn count(&self) -> String {
        "3".into()
    }
}

#[mcp_tools(name = admin_tools)]
impl Shop {
    /// Empty the shop.
    #[mcp_tool]
    fn clear(&self) -> &'static str {
        "cleared"
    }
}

fn main() {
    // `.tools(Shop::admin_tools())` is forgotten.
    let _ = McpServer::builder(Shop).tool_set().build();
}
