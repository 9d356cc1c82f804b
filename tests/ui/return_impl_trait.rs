use mcp_tool_runtime::mcp_tool;

/// Greet someone by name.
#[mcp_tool]
fn greet(name: String) -> impl std::fmt::Display {
    format!("Hello, {name}!")
}

fn main() {}
