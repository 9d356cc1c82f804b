use mcp_tool_runtime::mcp_tool;

/// Add two numbers.
#[mcp_tool]
fn add((a, b): (i32, i32)) -> String {
    (a + b).to_string()
}

fn main() {}
