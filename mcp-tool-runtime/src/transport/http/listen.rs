//! The listener: accepts connections, within a cap, and serves each with hyper, until a
//! shutdown signal; then it lets the requests in flight finish.

use std::convert::Infallible;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use http::{Request, Response, StatusCode, header};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use serde_json::json;
use tokio::net::{TcpListener, TcpStream, ToSocketAddrs};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::super::shutdown;
use super::endpoint::Answered;
use super::reply::{HttpResponse, OVERLOADED_CODE, reject};
use super::watchdog::{Watch, Watchdog, WatchedBody};
use super::{HttpOptions, HttpService, ResourceMetadata, text};
use crate::server::{McpServer, ServeError};

/// The first wait after a failed accept, doubled while failures go on, up to the last.
const FIRST_ACCEPT_BACKOFF: Duration = Duration::from_millis(10);
const LAST_ACCEPT_BACKOFF: Duration = Duration::from_secs(1);
/// How long a refused connection may take to send its request and read the 503.
const REFUSAL_TIME: Duration = Duration::from_secs(2);

impl<S: Send + Sync + 'static> McpServer<S> {
    /// Serves Streamable HTTP at `http://addr/mcp` with [`HttpOptions::from_env`]. Only
    /// binding can fail: once listening, it serves until SIGTERM or SIGINT, then shuts down
    /// gracefully (see [`HttpOptions::grace_period`]) and returns `Ok`.
    pub async fn serve_http(self, addr: impl ToSocketAddrs) -> Result<(), ServeError> {
        let listener = TcpListener::bind(addr).await.map_err(ServeError::Io)?;
        self.serve_http_on(listener, HttpOptions::from_env()).await
    }

    /// Serves Streamable HTTP on a bound `listener` with `options` until SIGTERM or SIGINT:
    /// a failed accept is waited out, never returned.
    pub async fn serve_http_on(
        self,
        listener: TcpListener,
        options: HttpOptions,
    ) -> Result<(), ServeError> {
        self.serve_http_until(listener, options, shutdown::signal())
            .await
    }

    /// Serves Streamable HTTP on `listener` until `shutdown` resolves, then stops accepting,
    /// lets requests in flight finish within [`HttpOptions::grace_period`] (closing each
    /// connection once its answer is done) and returns `Ok`.
    pub async fn serve_http_until(
        self,
        listener: TcpListener,
        options: HttpOptions,
        shutdown: impl Future<Output = ()>,
    ) -> Result<(), ServeError> {
        let (cap, grace) = (options.max_connections, options.grace_period);
        let options_path = options.path.clone();
        let permits = Arc::new(Semaphore::new(cap));
        let watchdog = Watchdog::new(options.header_timeout);
        let service = self.http_service(options);
        let site = Arc::new(Site {
            path: options_path,
            watchdog: Arc::clone(&watchdog),
            max_connections: cap,
            metadata: service.resource_metadata(),
            service,
        });
        tokio::spawn(Arc::clone(&watchdog).run());
        // Also when the caller drops this future: its connections close as they would here.
        let stopping = StopOnDrop(watchdog);
        tokio::select! {
            () = accept_loop(&listener, &site, &permits) => {}
            () = shutdown => {}
        }
        drop(listener);
        drop(stopping);
        drain_connections(&permits, cap, grace).await;
        Ok(())
    }
}

/// What the listener serves: the endpoint at its path.
struct Site<S: Send + Sync + 'static> {
    path: String,
    /// Closes connections that wait too long for a request head.
    watchdog: Arc<Watchdog>,
    max_connections: usize,
    /// The protected-resource metadata, served at its well-known paths.
    metadata: Option<ResourceMetadata>,
    service: HttpService<S>,
}

impl<S: Send + Sync + 'static> Site<S> {
    /// The answer to `request`, whose body tells `watch` when it is sent.
    async fn handle(&self, request: Request<Incoming>, watch: Arc<Watch>) -> Response<WatchedBody> {
        // Here, at the future's first poll (hyper polls it as soon as it calls the service),
        // not in the service closure: any call there kept the compiler from building the
        // future in place, and hyper then copied its 3 KB three times per request.
        watch.busy();
        let path = request.uri().path();
        let Answered { response, claim } = if path == self.path {
            self.service.serve(request).await
        } else if let Some(metadata) = self.metadata.as_ref().filter(|m| m.serves(path)) {
            metadata.answer(request.method()).into()
        } else {
            reject(
                StatusCode::NOT_FOUND,
                rmcp::model::ErrorCode::INVALID_REQUEST,
                text::http_not_found(path, &self.path),
                json!({"endpoint": self.path}),
                &[],
            )
            .into()
        };
        response.map(|body| WatchedBody::new(body, watch, claim))
    }
}

/// Stops the watchdog, which asks every connection to close once its answer is done, when
/// dropped.
struct StopOnDrop(Arc<Watchdog>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// Accepts connections for as long as it is polled: each under the cap is served, the
/// others get a 503.
async fn accept_loop<S: Send + Sync + 'static>(
    listener: &TcpListener,
    site: &Arc<Site<S>>,
    permits: &Arc<Semaphore>,
) {
    let cap = site.max_connections;
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
        match Arc::clone(permits).try_acquire_owned() {
            Ok(permit) => {
                let watch = site.watchdog.watch();
                let connection = Accepted {
                    stream,
                    peer,
                    permit,
                    watch: Arc::clone(&watch),
                };
                let task = tokio::spawn(serve_connection(Arc::clone(site), connection));
                watch.served_by(task.abort_handle());
            }
            Err(_) => {
                tokio::spawn(refuse_connection(stream, peer, cap));
            }
        }
    }
}

/// Waits until every connection has closed (each gives back its permit), or `grace` ends.
async fn drain_connections(permits: &Semaphore, cap: usize, grace: Duration) {
    let all = u32::try_from(cap).unwrap_or(u32::MAX);
    let drained = tokio::time::timeout(grace, permits.acquire_many(all)).await;
    match drained {
        Ok(_) => tracing::info!("every connection closed; the HTTP server stopped"),
        Err(_) => tracing::warn!(
            open = cap.saturating_sub(permits.available_permits()),
            ?grace,
            "connections still open after the grace period are dropped"
        ),
    }
}

/// An accepted connection: `permit` holds its place under the cap until it closes;
/// `watch` times its request heads and says when the server stops.
struct Accepted {
    stream: TcpStream,
    peer: SocketAddr,
    permit: OwnedSemaphorePermit,
    watch: Arc<Watch>,
}

/// Waits after a failed accept. Most failures are the system's (no file descriptor left,
/// no memory) and pass as connections close, so the listener waits and tries again rather
/// than ending the server; the wait doubles so that a lasting failure does not spin.
async fn wait_after(error: &io::Error, backoff: &mut Duration) {
    tracing::warn!(%error, retry_in_ms = backoff.as_millis() as u64, "cannot accept a connection");
    tokio::time::sleep(*backoff).await;
    *backoff = (*backoff * 2).min(LAST_ACCEPT_BACKOFF);
}

/// Serves one accepted connection until the client or hyper ends it, or, once the server
/// is stopping, until the request in progress is answered.
async fn serve_connection<S: Send + Sync + 'static>(site: Arc<Site<S>>, accepted: Accepted) {
    let Accepted {
        stream,
        peer,
        permit: _permit,
        watch,
    } = accepted;
    // A stateful answer goes out as several small writes (headers, then each event of the
    // stream). With Nagle's algorithm on, each write after the first waits for the client's
    // ACK, which clients delay by up to 40 ms: 44 ms per call where 1 ms is the work.
    if let Err(error) = stream.set_nodelay(true) {
        tracing::debug!(%peer, %error, "cannot set TCP_NODELAY");
    }
    let served_watch = Arc::clone(&watch);
    let service = service_fn(move |request| {
        let site = Arc::clone(&site);
        let watch = Arc::clone(&served_watch);
        async move { Ok::<_, Infallible>(site.handle(request, watch).await) }
    });
    let connection = http1::Builder::new().serve_connection(TokioIo::new(stream), service);
    tokio::pin!(connection);
    // The watchdog stops this task (and so closes the connection) when it waits too long
    // for a request head.
    let mut closing = false;
    let served = std::future::poll_fn(|cx| {
        if !closing && watch.close_asked(cx) {
            // hyper finishes the request in progress, then closes; an idle connection
            // closes at once.
            closing = true;
            connection.as_mut().graceful_shutdown();
        }
        connection.as_mut().poll(cx)
    })
    .await;
    if let Err(error) = served {
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
