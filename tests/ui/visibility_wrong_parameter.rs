//! A visibility rule that takes the tool's name where the tool is passed: the error is at
//! the closure, with the signature the rule must have.

use mcp_tool_runtime::{McpServer, mcp_tool};

/// Say hello.
#[mcp_tool]
fn hello() -> String {
    "hello".into()
}

fn main() {
    let _ = McpServer::builder(())
        .tool(hello_tool())
        .visibility(|tool: &str| tool != "admin")
        .build();
}
