//! A middleware whose future holds a `MutexGuard` across an `.await`: it could not move
//! between threads, and the error points at the guard.

use std::sync::{Mutex, PoisonError};

use mcp_tool_runtime::ToolError;
use mcp_tool_runtime::middleware::{CallOutcome, Middleware, Next, ToolRequest};

struct Counter(Mutex<u64>);

impl Middleware for Counter {
    async fn handle(&self, request: ToolRequest<'_>, next: Next<'_>) -> Result<CallOutcome, ToolError> {
        let mut count = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let outcome = next.run(request).await;
        *count += 1;
        Ok(outcome)
    }
}

fn main() {}
