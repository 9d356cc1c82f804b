//! The end of a session on SIGTERM or SIGINT: input stops being read, and what was read
//! gets a grace period to be answered.

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::super::shutdown;
use super::transport::LineTransport;
use crate::server::{McpServer, ServeError};

/// Resolves on the first shutdown signal, having ended the input through `end_input`.
pub(super) async fn stop_on_signal(end_input: CancellationToken) {
    shutdown::signal().await;
    end_input.cancel();
}

impl<S: Send + Sync + 'static> McpServer<S> {
    /// Serves `transport` until its session ends; once `stop` resolves (having ended the
    /// transport's input), the session gets `grace` to answer what it read, then is dropped.
    pub(super) async fn serve_lines_until<R>(
        self,
        transport: LineTransport<R>,
        stop: impl Future<Output = ()>,
        grace: Duration,
    ) -> Result<(), ServeError>
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
    {
        let session = self.serve_lines(transport);
        tokio::pin!(session);
        tokio::select! {
            served = session.as_mut() => return served,
            () = stop => {}
        }
        match tokio::time::timeout(grace, session).await {
            Ok(served) => served,
            Err(_) => {
                tracing::warn!(
                    ?grace,
                    "calls still running after the grace period are dropped"
                );
                Ok(())
            }
        }
    }
}
