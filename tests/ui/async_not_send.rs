use mcp_tool_runtime::mcp_tool;
use std::rc::Rc;

/// Counts. An `Rc` held across an `.await` makes the future not `Send`, which every tool's
/// future must be.
#[mcp_tool]
async fn count(n: u32) -> String {
    let shared = Rc::new(n);
    tokio::task::yield_now().await;
    shared.to_string()
}

fn main() {}
