use mcp_tool_runtime::mcp_tool;

/// Wait a little.
#[mcp_tool(timeout = "5 parsecs")]
fn wait() -> String {
    "waited".into()
}

/// Never wait.
#[mcp_tool(timeout = "0s")]
fn never() -> String {
    "never".into()
}

/// Today's special.
#[mcp_tool(cache_ttl = "soon")]
fn special() -> String {
    "tea".into()
}

/// Tomorrow's special.
#[mcp_tool(cache_ttl = 60)]
fn tomorrow() -> String {
    "coffee".into()
}

fn main() {}
