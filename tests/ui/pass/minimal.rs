use mcp_tool_runtime::mcp_tool;

/// Add two numbers.
#[mcp_tool]
fn add(a: i64, b: i64) -> String {
    (a + b).to_string()
}

fn main() {
    let _ = add_tool::<()>();
}
