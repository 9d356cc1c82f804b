use mcp_tool_runtime::{mcp_tool, mcp_tools};

struct Shop;

trait Greeter {
    fn greet(&self, name: String) -> String;
}

#[mcp_tools]
impl Greeter for Shop {
    /// Greet a customer.
    #[mcp_tool]
    fn greet(&self, name: String) -> String {
        format!("Welcome, {name}!")
    }
}

fn main() {}
