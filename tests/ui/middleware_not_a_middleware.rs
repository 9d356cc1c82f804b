//! An `async fn` registered as a middleware without `from_fn`: it implements no
//! `Middleware`, and the error says how to write one.

use mcp_tool_runtime::middleware::{CallOutcome, Next, ToolRequest};
use mcp_tool_runtime::{McpServer, ToolError, mcp_tool};

/// Say hello.
#[mcp_tool]
fn hello() -> String {
    "hello".into()
}

async fn pass(request: ToolRequest<'_>, next: Next<'_>) -> Result<CallOutcome, ToolError> {
    Ok(next.run(request).await)
}

fn main() {
    let _ = McpServer::builder(()).tool(hello_tool()).middleware(pass).build();
}
