use mcp_tool_runtime::{mcp_tool, mcp_tools};

struct Shop {
    name: String,
}

#[mcp_tools]
impl Shop {
    /// The shop's name.
    #[mcp_tool]
    fn shop_name(&self) -> &str {
        &self.name
    }
}

fn main() {}
