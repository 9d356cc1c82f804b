use mcp_tool_runtime::mcp_tool;

/// Download a file's raw bytes.
#[mcp_tool]
fn download(path: String) -> Vec<u8> {
    path.into_bytes()
}

fn main() {}
