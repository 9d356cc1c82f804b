//! A visibility rule written with the caller and the tool as two parameters, one of them of
//! the wrong type (the shape that used to give "type annotations needed" at the other one):
//! the error is at the closure and says the rule takes one argument.

use mcp_tool_runtime::{McpServer, mcp_tool};

/// Say hello.
#[mcp_tool]
fn hello() -> String {
    "hello".into()
}

fn main() {
    let _ = McpServer::builder(())
        .tool(hello_tool())
        .visibility(|principal, tool: &str| tool != "admin" || principal.is_some())
        .build();
}
