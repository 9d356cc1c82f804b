use mcp_tool_runtime::mcp_tool;

/// Echo a value back.
#[mcp_tool]
fn echo<T: serde::Serialize>(value: T) -> String {
    serde_json::to_string(&value).unwrap()
}

fn main() {}
