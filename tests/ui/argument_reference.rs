use mcp_tool_runtime::mcp_tool;

/// Greet someone by name.
#[mcp_tool]
fn greet(name: &str, titles: &[String]) -> String {
    format!("Hello, {} {name}!", titles.join(" "))
}

fn main() {}
