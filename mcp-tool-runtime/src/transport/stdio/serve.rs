//! `McpServer::serve_stdio` and `serve_lines`: a session over a [`LineTransport`], and the
//! release of memory that large lines leave free.

use std::sync::Arc;
use std::time::Duration;

use rmcp::ServiceExt;

use super::super::release::release_after_reads;
use super::options::StdioOptions;
use super::signals::stop_on_signal;
use super::transport::LineTransport;
use crate::large::RELEASE_AFTER_LINE_BYTES;
use crate::server::{McpServer, ServeError};
use crate::stderr::StderrLog;

impl<S: Send + Sync + 'static> McpServer<S> {
    /// Serves MCP over this process's stdin and stdout until the client disconnects, with
    /// the default [`StdioOptions`].
    ///
    /// A stdio server has one client, so a `current_thread` runtime is usually enough. It
    /// also keeps peak memory flat: a multi-threaded runtime spreads calls over one glibc
    /// malloc arena per worker, and each arena keeps its own high-water mark.
    pub async fn serve_stdio(self) -> Result<(), ServeError> {
        self.serve_stdio_with(StdioOptions::default()).await
    }

    /// Serves MCP over stdin and stdout with `options`. Malformed messages are answered
    /// with JSON-RPC errors and the session goes on (see [`LineTransport`]). On SIGTERM or
    /// SIGINT, input stops being read, the calls already read are answered (within
    /// [`StdioOptions::grace_period`]) and it returns `Ok`.
    pub async fn serve_stdio_with(self, options: StdioOptions) -> Result<(), ServeError> {
        let transport = LineTransport::stdio(&options);
        let stop = stop_on_signal(transport.end_input.clone());
        let served = self
            .serve_lines_until(transport, stop, options.grace_period)
            .await;
        // The runtime's own failure lines are queued (see `StderrLog`); a masked error told
        // the client its cause was logged, so let them out before the process may end.
        let _ = tokio::task::spawn_blocking(|| StderrLog::flush_for(LOG_FLUSH_LIMIT)).await;
        served
    }

    /// Serves MCP over any line transport, such as a [`LineTransport`] on a socket or a pipe.
    /// Memory freed after large lines is given back to the system within seconds.
    pub async fn serve_lines<R>(self, mut transport: LineTransport<R>) -> Result<(), ServeError>
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
    {
        transport.limits = self.registry().input_limits();
        let read = Arc::downgrade(&transport.input_bytes);
        tokio::spawn(release_after_reads(read, RELEASE_AFTER_LINE_BYTES));
        let running = self
            .serve(transport)
            .await
            .map_err(|error| ServeError::Initialize(Box::new(error)))?;
        running.waiting().await.map_err(ServeError::Session)?;
        Ok(())
    }
}

/// How long the end of a stdio session waits for queued log lines to reach stderr.
const LOG_FLUSH_LIMIT: Duration = Duration::from_secs(1);
