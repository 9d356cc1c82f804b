//! A limit on the calls running at once: for the server, or per tool.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::Semaphore;

use super::{Middleware, Next, ToolRequest};
use crate::dispatch::CallOutcome;
use crate::error::ToolError;
use crate::render;

/// Middleware: at most `limit` calls run at once. A call past the limit is not queued: it is
/// answered at once with a retryable `at_capacity` error, so that the model can wait or do
/// something else. A call holds its place until it ends, by any outcome, or until the client
/// cancels it.
///
/// By default the limit is for the whole server; [`ConcurrencyLimit::per_tool`] gives each
/// tool a limit of its own, and [`ConcurrencyLimit::only`] limits some tools and lets the
/// others through.
///
/// ```
/// use mcp_tool_runtime::{McpServer, mcp_tool, middleware::ConcurrencyLimit};
///
/// /// Export the catalogue (slow).
/// #[mcp_tool]
/// async fn export() -> String { "exported".into() }
///
/// let server = McpServer::builder(())
///     .tool(export_tool())
///     .middleware(ConcurrencyLimit::new(2).per_tool().only(["export"]))
///     .build()?;
/// # Ok::<(), mcp_tool_runtime::registry::RegistryError>(())
/// ```
pub struct ConcurrencyLimit {
    limit: usize,
    per_tool: bool,
    only: Option<Vec<String>>,
    whole: Arc<Semaphore>,
    by_tool: Mutex<HashMap<String, Arc<Semaphore>>>,
}

impl fmt::Debug for ConcurrencyLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConcurrencyLimit")
            .field("limit", &self.limit)
            .field("per_tool", &self.per_tool)
            .field("only", &self.only)
            .finish()
    }
}

impl ConcurrencyLimit {
    /// At most `limit` calls (at least 1) at once, for the whole server.
    pub fn new(limit: usize) -> Self {
        let limit = limit.clamp(1, Semaphore::MAX_PERMITS);
        Self {
            limit,
            per_tool: false,
            only: None,
            whole: Arc::new(Semaphore::new(limit)),
            by_tool: Mutex::default(),
        }
    }

    /// Each tool gets the limit for its own calls.
    pub fn per_tool(mut self) -> Self {
        self.per_tool = true;
        self
    }

    /// Only calls to these tools are limited (and counted).
    pub fn only<I, N>(mut self, tools: I) -> Self
    where
        I: IntoIterator<Item = N>,
        N: Into<String>,
    {
        self.only = Some(tools.into_iter().map(Into::into).collect());
        self
    }

    /// The semaphore that counts calls of `tool`.
    fn semaphore(&self, tool: &str) -> Arc<Semaphore> {
        if !self.per_tool {
            return Arc::clone(&self.whole);
        }
        let mut by_tool = self.by_tool.lock().unwrap_or_else(PoisonError::into_inner);
        match by_tool.get(tool) {
            Some(semaphore) => Arc::clone(semaphore),
            None => Arc::clone(
                by_tool
                    .entry(tool.to_string())
                    .or_insert_with(|| Arc::new(Semaphore::new(self.limit))),
            ),
        }
    }
}

impl Middleware for ConcurrencyLimit {
    async fn handle(
        &self,
        request: ToolRequest<'_>,
        next: Next<'_>,
    ) -> Result<CallOutcome, ToolError> {
        let name = request.tool().name();
        if !super::covers(self.only.as_deref(), name) {
            return Ok(next.run(request).await);
        }
        // Held until the call ends; dropped with it when the client cancels.
        let Ok(_permit) = self.semaphore(name).try_acquire_owned() else {
            let limited = (self.per_tool || self.only.as_ref().is_some_and(|only| only.len() == 1))
                .then_some(name);
            let message = render::at_capacity(limited, self.limit);
            return Err(ToolError::at_capacity(message));
        };
        Ok(next.run(request).await)
    }
}
