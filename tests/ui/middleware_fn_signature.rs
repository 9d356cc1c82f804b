//! Functions of the wrong signature given to `from_fn`: one parameter missing, and a result
//! that is not a `Result`. Each is reported once, at the function, with what was expected.

use mcp_tool_runtime::middleware::{CallOutcome, Next, ToolRequest, from_fn};
use mcp_tool_runtime::{McpServer, ToolError, mcp_tool};

/// Say hello.
#[mcp_tool]
fn hello() -> String {
    "hello".into()
}

async fn no_next(request: ToolRequest<'_>) -> Result<CallOutcome, ToolError> {
    let _ = request;
    Err(ToolError::forbidden("No."))
}

async fn no_result(request: ToolRequest<'_>, next: Next<'_>) -> CallOutcome {
    next.run(request).await
}

fn main() {
    let _ = McpServer::builder(())
        .tool(hello_tool())
        .middleware(from_fn(no_next))
        .middleware(from_fn(no_result))
        .build();
}
