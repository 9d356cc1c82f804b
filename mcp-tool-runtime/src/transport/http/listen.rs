//! The listener: accepts connections, within a cap, and serves each with hyper.

use std::convert::Infallible;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use http::{StatusCode, header};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use rmcp::model::ErrorCode;
use serde_json::json;
use tokio::net::{TcpListener, TcpStream, ToSocketAddrs};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::{Guard, HttpOptions, HttpResponse, reject, text};
use crate::server::{McpServer, ServeError};

/// The code of a 503 past the connection cap, from the range JSON-RPC leaves to servers.
const OVERLOADED_CODE: ErrorCode = ErrorCode(-32000);
/// The first wait after a failed accept, doubled while failures go on, up to the last.
const FIRST_ACCEPT_BACKOFF: Duration = Duration::from_millis(10);
const LAST_ACCEPT_BACKOFF: Duration = Duration::from_secs(1);
/// How long a refused connection may take to send its request and read the 503.
const REFUSAL_TIME: Duration = Duration::from_secs(2);

impl<S: Send + Sync + 'static> McpServer<S> {
    /// Serves Streamable HTTP at `http://addr/mcp` with [`HttpOptions::from_env`]. Only
    /// binding can fail: once listening, it serves until the task is dropped.
    pub async fn serve_http(self, addr: impl ToSocketAddrs) -> Result<(), ServeError> {
        let listener = TcpListener::bind(addr).await.map_err(ServeError::Io)?;
        self.serve_http_on(listener, HttpOptions::from_env()).await
    }

    /// Serves Streamable HTTP on a bound `listener` with `options`, until the task is
    /// dropped: a failed accept is waited out, never returned.
    pub async fn serve_http_on(
        self,
        listener: TcpListener,
        options: HttpOptions,
    ) -> Result<(), ServeError> {
        let cap = options.max_connections;
        let permits = Arc::new(Semaphore::new(cap));
        let guard = Arc::new(Guard::new(self, options));
        let mut backoff = FIRST_ACCEPT_BACKOFF;
        loop {
            let (stream, peer) = match listener.accept().await {
                Ok(accepted) => accepted,
                Err(error) => {
                    wait_after(&error, &mut backoff).await;
                    continue;
                }
            };
            backoff = FIRST_ACCEPT_BACKOFF;
            match Arc::clone(&permits).try_acquire_owned() {
                Ok(permit) => {
                    tokio::spawn(serve_connection(Arc::clone(&guard), stream, peer, permit));
                }
                Err(_) => {
                    tokio::spawn(refuse_connection(stream, peer, cap));
                }
            }
        }
    }
}

/// Waits after a failed accept. Most failures are the system's (no file descriptor left,
/// no memory) and pass as connections close, so the listener waits and tries again rather
/// than ending the server; the wait doubles so that a lasting failure does not spin.
async fn wait_after(error: &io::Error, backoff: &mut Duration) {
    tracing::warn!(%error, retry_in_ms = backoff.as_millis() as u64, "cannot accept a connection");
    tokio::time::sleep(*backoff).await;
    *backoff = (*backoff * 2).min(LAST_ACCEPT_BACKOFF);
}

/// Serves one accepted connection until the client or hyper ends it; `_permit` holds its
/// place under the cap until then.
async fn serve_connection<S: Send + Sync + 'static>(
    guard: Arc<Guard<S>>,
    stream: TcpStream,
    peer: SocketAddr,
    _permit: OwnedSemaphorePermit,
) {
    // A stateful answer goes out as several small writes (headers, then each event of the
    // stream). With Nagle's algorithm on, each write after the first waits for the client's
    // ACK, which clients delay by up to 40 ms: 44 ms per call where 1 ms is the work.
    if let Err(error) = stream.set_nodelay(true) {
        tracing::debug!(%peer, %error, "cannot set TCP_NODELAY");
    }
    let header_timeout = guard.options.header_timeout;
    let service = service_fn(move |request| {
        let guard = Arc::clone(&guard);
        async move { Ok::<_, Infallible>(guard.handle(request).await) }
    });
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    if let Err(error) = builder
        .serve_connection(TokioIo::new(stream), service)
        .await
    {
        tracing::debug!(%peer, %error, "HTTP connection ended with an error");
    }
}

/// Answers the first request of a connection past the cap with 503 and closes it. Reading
/// the request first (rather than closing at once) is what lets the client see the answer
/// instead of a reset; the whole exchange is bounded in time.
async fn refuse_connection(stream: TcpStream, peer: SocketAddr, cap: usize) {
    tracing::warn!(%peer, cap, "refused a connection over the cap");
    let service =
        service_fn(move |_request| async move { Ok::<_, Infallible>(too_many_connections(cap)) });
    let exchange = http1::Builder::new()
        .keep_alive(false)
        .serve_connection(TokioIo::new(stream), service);
    let _ = tokio::time::timeout(REFUSAL_TIME, exchange).await;
}

fn too_many_connections(cap: usize) -> HttpResponse {
    reject(
        StatusCode::SERVICE_UNAVAILABLE,
        OVERLOADED_CODE,
        text::http_too_many_connections(cap),
        json!({"maxConnections": cap}),
        &[(header::RETRY_AFTER, "1".to_string())],
    )
}
