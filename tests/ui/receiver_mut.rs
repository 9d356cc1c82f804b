use mcp_tool_runtime::{mcp_tool, mcp_tools};

struct Counter {
    value: u64,
}

#[mcp_tools]
impl Counter {
    /// Increment the counter and return its new value.
    #[mcp_tool]
    fn increment(&mut self, by: u64) -> String {
        self.value += by;
        self.value.to_string()
    }
}

fn main() {}
