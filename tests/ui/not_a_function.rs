use mcp_tool_runtime::mcp_tool;

/// Search the catalog.
#[mcp_tool]
struct Search {
    query: String,
}

fn main() {}
