//! The guard: the transport's rules on a request's header and body, in front of any MCP
//! service. [`HttpGuardLayer`] puts it in front of ours or of a plain rmcp
//! `StreamableHttpService`.

use std::convert::Infallible;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::{Buf, BufMut, Bytes, BytesMut};
use http::request::Parts;
use http::{HeaderValue, Method, Request, StatusCode, header};
use http_body::Body;
use http_body_util::{BodyExt, Full, Limited};
use rmcp::model::ErrorCode;
use serde_json::json;
use tower_layer::Layer;
use tower_service::Service;

use super::super::jsonrpc;
use super::auth::authenticate;
use super::authority::origin_allowed;
use super::headers::{Head, HeadFlags};
use super::reply::{HttpResponse, forbidden, reject, reject_request};
use super::{HttpOptions, text};
use crate::render::echoed_datum;
use crate::server::SUPPORTED_PROTOCOL_VERSIONS;
use crate::tool::BoxFuture;

/// How much of an oversized upload past the limit is read and discarded before its 413.
/// Closing a socket with unread data makes the kernel send a reset, and a client still
/// sending its body then sees ECONNRESET or EPIPE instead of the answer. Past this bound
/// the client is left to that: reading gigabytes is worse than a lost 413.
const DRAIN_BYTES: u64 = 4 * 1024 * 1024;

/// An error of a request body, as tower's services box them.
type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The guard of [`HttpOptions`] as a tower [`Layer`]: Host, Origin, the bearer token, the
/// method, `MCP-Protocol-Version`, and the body's size and time limits, each rejection with
/// a JSON-RPC error body. The service inside gets the whole body, and, when a token
/// verifier is set, the caller's [`Principal`](crate::Principal) in the request's extensions.
///
/// [`McpServer::http_service`](crate::McpServer::http_service) already includes it; this is
/// for a service of your own, such as rmcp's `StreamableHttpService` around an rmcp handler.
/// Switch that service's own Host check off (`disable_allowed_hosts`): the guard's answers
/// say what is accepted, rmcp's are plain text.
///
/// ```
/// use mcp_tool_runtime::{HttpOptions, http::HttpGuardLayer};
/// use tower_layer::Layer;
/// # use std::convert::Infallible;
/// # #[derive(Clone)] struct MyService;
/// # impl tower_service::Service<http::Request<http_body_util::Full<bytes::Bytes>>> for MyService {
/// #     type Response = mcp_tool_runtime::http::HttpResponse; type Error = Infallible;
/// #     type Future = std::future::Ready<Result<Self::Response, Infallible>>;
/// #     fn poll_ready(&mut self, _: &mut std::task::Context<'_>) -> std::task::Poll<Result<(), Infallible>> { std::task::Poll::Ready(Ok(())) }
/// #     fn call(&mut self, _: http::Request<http_body_util::Full<bytes::Bytes>>) -> Self::Future { unimplemented!() }
/// # }
/// let guarded = HttpGuardLayer::new(HttpOptions::default().bearer_token("s3cret")).layer(MyService);
/// ```
#[derive(Clone, Debug)]
pub struct HttpGuardLayer {
    options: Arc<HttpOptions>,
}

impl HttpGuardLayer {
    /// The guard enforcing `options` (its path and listener settings are not the guard's:
    /// the router in front chooses the path).
    pub fn new(options: HttpOptions) -> Self {
        Self {
            options: Arc::new(options),
        }
    }
}

impl<T> Layer<T> for HttpGuardLayer {
    type Service = HttpGuard<T>;

    fn layer(&self, inner: T) -> HttpGuard<T> {
        HttpGuard {
            options: Arc::clone(&self.options),
            inner,
        }
    }
}

/// A service `T` behind the guard; see [`HttpGuardLayer`].
#[derive(Clone, Debug)]
pub struct HttpGuard<T> {
    options: Arc<HttpOptions>,
    inner: T,
}

impl<T, B> Service<Request<B>> for HttpGuard<T>
where
    T: Service<Request<Full<Bytes>>, Response = HttpResponse, Error = Infallible>
        + Clone
        + Send
        + 'static,
    T::Future: Send,
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    type Response = HttpResponse;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<HttpResponse, Infallible>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        // The ready service is the one that serves: a fresh clone stays for the next call.
        let ready = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, ready);
        let options = Arc::clone(&self.options);
        Box::pin(async move {
            let (mut parts, body) = request.into_parts();
            match admit(&options, &mut parts, body).await {
                Ok((body, _)) => {
                    inner
                        .call(Request::from_parts(parts, Full::new(body)))
                        .await
                }
                Err(rejection) => Ok(rejection),
            }
        })
    }
}

impl<T> HttpGuard<T> {
    /// The guard's rules on a request (see [`admit`]), for a caller that then serves it with
    /// [`Self::inner`] itself: the listener does, so that a request's future is not boxed
    /// twice.
    pub(super) async fn admit<B>(
        &self,
        parts: &mut Parts,
        body: B,
    ) -> Result<(Bytes, HeadFlags), HttpResponse>
    where
        B: Body<Data = Bytes>,
        B::Error: Into<BoxError>,
    {
        admit(&self.options, parts, body).await
    }

    /// The service behind the guard.
    pub(super) fn inner(&self) -> &T {
        &self.inner
    }
}

/// The request's whole body, with what the endpoint needs of its headers, or the answer
/// that stops it here; `parts` gains the caller's [`Principal`](crate::Principal). The rules
/// go in their documented order; the first one broken answers. The head is borrowed, here
/// and behind (`EndpointState::admit`): moved into each layer's future and out again, it
/// cost P8's call about 300 instructions more (callgrind, `callgrind_http.sh`).
async fn admit<B>(
    options: &HttpOptions,
    parts: &mut Parts,
    body: B,
) -> Result<(Bytes, HeadFlags), HttpResponse>
where
    B: Body<Data = Bytes>,
    B::Error: Into<BoxError>,
{
    let head = Head::read(&parts.headers);
    let flags = head.flags();
    // The version is checked before the body, but answered after it is read: a request that
    // names its revision in `_meta` gets the answer of that revision, with its id.
    let unsupported = unsupported_version(head.version);
    check_host(options, parts, head.host)
        .and_then(|()| check_origin(options, head.origin))
        .map_err(|rejection| unread_body(logged(rejection, parts)))?;
    if let Some(verifier) = &options.verifier {
        let principal = authenticate(verifier.as_ref(), parts, &options.challenge)
            .await
            .map_err(|rejection| unread_body(logged(rejection, parts)))?;
        parts.extensions.insert(principal);
    }
    check_method(options, parts).map_err(|rejection| unread_body(logged(rejection, parts)))?;
    let bytes = read_body(options, head.content_length, body).await;
    if let Some(version) = unsupported {
        let rejection = version_rejection(version, bytes.as_ref().ok());
        return Err(logged(rejection, parts));
    }
    Ok((bytes?, flags))
}

/// A refusal answered before the request's body was read ends its connection, and says so.
/// hyper closes a connection whose body is left unread unless all of it had already arrived;
/// without the header, a client that reuses the connection (the MCP Python SDK does, to
/// follow a 401 with the protected-resource metadata) sends its next request into the
/// closing socket, which under load fails with "Server disconnected without sending a
/// response". Reading the body first would let a caller without a token make us take up to
/// `max_body_bytes`.
#[cold]
fn unread_body(mut rejection: HttpResponse) -> HttpResponse {
    rejection.headers_mut().insert(
        header::CONNECTION,
        header::HeaderValue::from_static("close"),
    );
    rejection
}

#[cold]
fn logged(rejection: HttpResponse, parts: &Parts) -> HttpResponse {
    tracing::info!(
        method = %parts.method,
        status = rejection.status().as_u16(),
        "rejected an HTTP request"
    );
    rejection
}

fn check_host(
    options: &HttpOptions,
    parts: &Parts,
    header: Result<Option<&str>, usize>,
) -> Result<(), HttpResponse> {
    let allowed = options.allowed_hosts.entries();
    let Some(host) = request_host(parts, header, allowed)? else {
        let data = json!({"allowedHosts": allowed});
        return Err(forbidden(text::HTTP_HOST_MISSING.to_string(), data));
    };
    if options.allowed_hosts.allow(host) {
        return Ok(());
    }
    let data = json!({"host": echoed_datum(host), "allowedHosts": allowed});
    Err(forbidden(text::http_host_forbidden(host, allowed), data))
}

/// The host a request is for: its one `Host` header, which an absolute-form target
/// (`POST http://host/mcp`) must agree with. Two hosts that differ are two answers to
/// "which server is this for", and a proxy may act on the other one.
fn request_host<'r>(
    parts: &'r Parts,
    header: Result<Option<&'r str>, usize>,
    allowed: &[String],
) -> Result<Option<&'r str>, HttpResponse> {
    let header = header.map_err(|count| {
        let data = json!({"allowedHosts": allowed});
        forbidden(text::http_duplicate_header("Host", count), data)
    })?;
    let target = parts.uri.authority().map(|authority| authority.as_str());
    match (header, target) {
        (Some(host), Some(target)) if !host.eq_ignore_ascii_case(target) => {
            let data = json!({"host": echoed_datum(host), "target": echoed_datum(target), "allowedHosts": allowed});
            Err(forbidden(text::http_host_mismatch(target, host), data))
        }
        (host, target) => Ok(host.or(target)),
    }
}

fn check_origin(
    options: &HttpOptions,
    origin: Result<Option<&str>, usize>,
) -> Result<(), HttpResponse> {
    let allowed = &options.allowed_origins;
    let origin = origin.map_err(|count| {
        let data = json!({"allowedOrigins": allowed});
        forbidden(text::http_duplicate_header("Origin", count), data)
    })?;
    match origin {
        Some(origin) if !origin_allowed(origin, allowed) => {
            let data = json!({"origin": echoed_datum(origin), "allowedOrigins": allowed});
            Err(forbidden(
                text::http_origin_forbidden(origin, allowed),
                data,
            ))
        }
        _ => Ok(()),
    }
}

fn check_method(options: &HttpOptions, parts: &Parts) -> Result<(), HttpResponse> {
    let stateless = options.stateless;
    let method = &parts.method;
    let manages_sessions = *method == Method::GET || *method == Method::DELETE;
    if *method == Method::POST || (!stateless && manages_sessions) {
        return Ok(());
    }
    let allowed_methods = if stateless {
        "POST"
    } else {
        "GET, POST, DELETE"
    };
    let message = if stateless && manages_sessions {
        text::http_method_not_allowed(method.as_str())
    } else {
        text::http_method_never_allowed(method.as_str())
    };
    Err(reject(
        StatusCode::METHOD_NOT_ALLOWED,
        ErrorCode::INVALID_REQUEST,
        message,
        json!({"allowedMethods": allowed_methods}),
        &[(header::ALLOW, allowed_methods.to_string())],
    ))
}

/// The `MCP-Protocol-Version` header, when it names a revision this server does not speak.
fn unsupported_version(version: Option<&str>) -> Option<&str> {
    version.filter(|version| !SUPPORTED_PROTOCOL_VERSIONS.contains(version))
}

/// The 400 for an unsupported `version`. A request that names a revision in its `_meta`
/// is answered as revision 2026-07-28 has it (as rmcp would): an
/// `UnsupportedProtocolVersionError` (-32022) with the request's id, the version it asked
/// for in `data.requested` and the supported ones in `data.supported`, which a client
/// reads to retry. Any other request, or one whose body did not arrive, keeps the -32600
/// of the revisions before.
#[cold]
fn version_rejection(version: &str, body: Option<&Bytes>) -> HttpResponse {
    let message = text::http_unsupported_version(version, SUPPORTED_PROTOCOL_VERSIONS);
    if let Some(body) = body.filter(|body| jsonrpc::named_revision(body).is_some()) {
        return reject_request(
            jsonrpc::leading_id(body).as_ref(),
            StatusCode::BAD_REQUEST,
            ErrorCode::UNSUPPORTED_PROTOCOL_VERSION,
            message,
            json!({"requested": echoed_datum(version), "supported": SUPPORTED_PROTOCOL_VERSIONS}),
            &[],
        );
    }
    reject(
        StatusCode::BAD_REQUEST,
        ErrorCode::INVALID_REQUEST,
        message,
        json!({"version": echoed_datum(version), "supported": SUPPORTED_PROTOCOL_VERSIONS}),
        &[],
    )
}

/// The whole body, within the size and time limits.
async fn read_body<B>(
    options: &HttpOptions,
    content_length: Option<&HeaderValue>,
    body: B,
) -> Result<Bytes, HttpResponse>
where
    B: Body<Data = Bytes>,
    B::Error: Into<BoxError>,
{
    let limit = options.max_body_bytes;
    let mut body = std::pin::pin!(body);
    let declared = content_length
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if let Some(length) = declared.filter(|length| *length > limit as u64) {
        if length - limit as u64 <= DRAIN_BYTES {
            drain(options, body.as_mut()).await;
        }
        return Err(too_large(options, declared));
    }
    // Most bodies arrive whole with their head, in one frame: that frame is the body, taken
    // without a collector's buffer list (P8i, with the endpoint's taking of it: 800–960
    // instructions a call fewer).
    let first = match std::future::poll_fn(|cx| Poll::Ready(body.as_mut().poll_frame(cx))).await {
        Poll::Ready(Some(Ok(frame))) => Some(frame.into_data().unwrap_or_default()),
        Poll::Ready(Some(Err(error))) => return Err(broken_body(error.into())),
        Poll::Ready(None) => return Ok(Bytes::new()),
        Poll::Pending => None,
    };
    let Some(first) = first else {
        return read_rest(options, body, Bytes::new()).await;
    };
    if first.len() > limit {
        drain(options, body.as_mut()).await;
        return Err(too_large(options, None));
    }
    if body.is_end_stream() {
        return Ok(first);
    }
    read_rest(options, body, first).await
}

/// The rest of a body after its `first` bytes, within the size and time limits.
async fn read_rest<B>(
    options: &HttpOptions,
    mut body: std::pin::Pin<&mut B>,
    first: Bytes,
) -> Result<Bytes, HttpResponse>
where
    B: Body<Data = Bytes>,
    B::Error: Into<BoxError>,
{
    let rest = Limited::new(
        body.as_mut(),
        options.max_body_bytes.saturating_sub(first.len()),
    )
    .collect();
    let mut collect = std::pin::pin!(rest);
    // Only a body still on its way needs a timer.
    let collected = match std::future::poll_fn(|cx| Poll::Ready(collect.as_mut().poll(cx))).await {
        Poll::Ready(collected) => collected,
        Poll::Pending => match tokio::time::timeout(options.body_timeout, collect).await {
            Ok(collected) => collected,
            Err(_) => return Err(body_too_slow(options)),
        },
    };
    match collected {
        Ok(collected) => Ok(joined(first, collected.aggregate())),
        Err(error) if error.is::<http_body_util::LengthLimitError>() => {
            drain(options, body.as_mut()).await;
            Err(too_large(options, None))
        }
        Err(error) => Err(broken_body(error)),
    }
}

/// `first` followed by `rest`, in one copy (none when one of them is empty and the other
/// one piece).
fn joined(first: Bytes, mut rest: impl Buf) -> Bytes {
    if first.is_empty() {
        return rest.copy_to_bytes(rest.remaining());
    }
    if !rest.has_remaining() {
        return first;
    }
    let mut whole = BytesMut::with_capacity(first.len() + rest.remaining());
    whole.extend_from_slice(&first);
    whole.put(rest);
    whole.freeze()
}

/// The answer to a body the client broke off.
#[cold]
fn broken_body(error: BoxError) -> HttpResponse {
    tracing::info!(%error, "the client broke off the request body");
    reject(
        StatusCode::BAD_REQUEST,
        ErrorCode::INVALID_REQUEST,
        jsonrpc::parse_error(&error.to_string()),
        json!({}),
        &[],
    )
}

/// Reads and discards the rest of an oversized `body`, up to [`DRAIN_BYTES`] and within
/// the body timeout, so that the 413 reaches a client that is still sending.
async fn drain<B: Body<Data = Bytes>>(options: &HttpOptions, mut body: std::pin::Pin<&mut B>) {
    let discard = async {
        let mut read = 0u64;
        while read <= DRAIN_BYTES {
            let Some(Ok(frame)) = body.as_mut().frame().await else {
                return;
            };
            read += frame.data_ref().map_or(0, |data| data.len() as u64);
        }
    };
    let _ = tokio::time::timeout(options.body_timeout, discard).await;
}

/// The answer to a body that did not arrive in time. The connection is closed after it:
/// what is left of the body would otherwise be read as the next request.
#[cold]
fn body_too_slow(options: &HttpOptions) -> HttpResponse {
    let limit = options.body_timeout;
    tracing::info!(?limit, "a request body did not arrive in time");
    reject(
        StatusCode::REQUEST_TIMEOUT,
        ErrorCode::INVALID_REQUEST,
        text::http_body_timeout(limit),
        json!({"bodyTimeoutMs": limit.as_millis() as u64}),
        &[(header::CONNECTION, "close".to_string())],
    )
}

#[cold]
fn too_large(options: &HttpOptions, length: Option<u64>) -> HttpResponse {
    let limit = options.max_body_bytes;
    reject(
        StatusCode::PAYLOAD_TOO_LARGE,
        ErrorCode::INVALID_REQUEST,
        text::http_body_too_large(limit, length),
        json!({"maxBodyBytes": limit}),
        // What is left of the upload (past the drained part) must not be read as the
        // next request.
        &[(header::CONNECTION, "close".to_string())],
    )
}
