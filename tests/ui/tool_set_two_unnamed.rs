//! Two `#[mcp_tools]` blocks without a name both implement `ToolSet`: the others need a name.

use mcp_tool_runtime::{mcp_tool, mcp_tools};

struct Shop;

#[mcp_tools]
impl Shop {
    /// Count the items.
    #[mcp_tool]
    fn count(&self) -> String {
        "3".into()
    }
}

#[mcp_tools]
impl Shop {
    /// Empty the shop.
    #[mcp_tool]
    fn clear(&self) -> &'static str {
        "cleared"
    }
}

fn main() {}
