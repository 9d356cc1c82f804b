//! Streamable HTTP: rmcp's server, behind a guard that enforces the transport rules.
//!
//! The guard's rules are documented on [`HttpOptions`], where users read them.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderValue, Method, Request, Response, StatusCode, header};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use rmcp::model::{ErrorCode, JsonRpcMessage, RequestId};
use rmcp::transport::streamable_http_server::SessionManager;
use rmcp::transport::streamable_http_server::session::local::{LocalSessionManager, SessionConfig};
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::{Value, json};
use subtle::ConstantTimeEq;

mod authority;
mod in_flight;
mod listen;
mod release;
mod sessions;
mod text;

use super::jsonrpc::{self, Inbound};
use super::oversized::{self, Screen};
use crate::error::ToolError;
use crate::input::InputLimits;
use crate::server::{McpServer, SUPPORTED_PROTOCOL_VERSIONS};
use crate::tool::run_heavy;
use authority::{host_allowed, origin_allowed};
use in_flight::{Claim, InFlight};
use release::BodyBytes;
use sessions::SessionCap;

/// The default body limit: 256 KiB.
pub(crate) const DEFAULT_MAX_BODY_BYTES: usize = 256 * 1024;
/// The default cap on concurrent connections: far above what one client opens, and far
/// below the usual limit of 1,024 open files, so that the cap, not the system, says no.
pub(crate) const DEFAULT_MAX_CONNECTIONS: usize = 512;
/// The default time for a request's header to arrive, counted from when the connection
/// is ready for one (opened, or done with the previous answer): it also ends idle connections.
pub(crate) const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(30);
/// The default time for a request's whole body to arrive once its header is in.
pub(crate) const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);
/// The default time in-flight requests get to finish after a shutdown signal.
pub(crate) const DEFAULT_GRACE_PERIOD: Duration = Duration::from_secs(10);
/// The default cap on live sessions. Each costs about 57 KiB (rmcp's tasks and channels,
/// measured in BENCHMARKS.md), so the cap bounds what sessions can take to some 560 MiB:
/// room for far more clients than one process serves, and a bound a small machine survives.
pub(crate) const DEFAULT_MAX_SESSIONS: usize = 10_000;
/// The default time a session may go without a message before it is closed: rmcp's own.
pub(crate) const DEFAULT_SESSION_IDLE_TIMEOUT: Duration = SessionConfig::DEFAULT_KEEP_ALIVE;
/// How long a client refused past the session cap is told to wait: places free up as
/// clients close sessions or leave them idle, which takes seconds to minutes.
const SESSION_RETRY_AFTER_SECS: u64 = 30;
/// The code of 503 answers, from the range JSON-RPC leaves to servers.
const OVERLOADED_CODE: ErrorCode = ErrorCode(-32000);
/// The default endpoint path.
pub(crate) const DEFAULT_PATH: &str = "/mcp";
/// The header that names a session.
const SESSION_HEADER: &str = "mcp-session-id";
/// How much of an oversized upload past the limit is read and discarded before its 413.
/// Closing a socket with unread data makes the kernel send a reset, and a client still
/// sending its body then sees ECONNRESET or EPIPE instead of the answer. Past this bound
/// the client is left to that: reading gigabytes is worse than a lost 413.
const DRAIN_BYTES: u64 = 4 * 1024 * 1024;

/// A POST body past this size is screened on the sync tools' threads, not on the executor.
const LARGE_BODY_BYTES: usize = 64 * 1024;
/// The most of a plain-text rejection from rmcp that is kept as its detail.
const REJECTION_DETAIL_BYTES: usize = 4096;
/// The code of 401 and 403 rejections, from the range JSON-RPC leaves to servers.
pub(crate) const UNAUTHORIZED_CODE: ErrorCode = ErrorCode(-32001);

const DEFAULT_HOSTS: &[&str] = &["localhost", "127.0.0.1", "::1"];
const DEFAULT_ORIGINS: &[&str] = &[
    "http://localhost:*",
    "https://localhost:*",
    "http://127.0.0.1:*",
    "https://127.0.0.1:*",
    "http://[::1]:*",
    "https://[::1]:*",
];

/// The rules of the HTTP transport. Start from [`HttpOptions::default`] (localhost only, no
/// token, sessions on) or [`HttpOptions::from_env`].
///
/// [`McpServer::serve_http`] serves at `http://ADDR/mcp`. Before a request reaches rmcp's
/// `StreamableHttpService`, the guard checks, in this order:
///
/// | rule | answer |
/// | --- | --- |
/// | the path is the endpoint (default `/mcp`) | 404 |
/// | exactly one `Host`, `name[:port]` with a numeric port, the same as an absolute-form target's, in the allowlist (default: localhost only) | 403 (DNS rebinding defence) |
/// | `Origin`, when present, is one header, well formed, in the allowlist (default: localhost origins) | 403 |
/// | a bearer token is configured and exactly one `Authorization: Bearer <token>` (one space) matches (compared in constant time) | 401 with `WWW-Authenticate: Bearer realm="…"` |
/// | stateless mode: the method is POST | 405 with `Allow: POST` |
/// | `MCP-Protocol-Version`, when present, is supported | 400 listing the supported versions |
/// | the body is at most the limit (default 256 KiB) | 413, then closed |
/// | within a session, the request's id is not that of one still being answered | 400, -32600 with that id |
///
/// At most [`HttpOptions::max_connections`] connections are served at once (default 512);
/// one more gets 503 with `Retry-After` (code -32000). At most [`HttpOptions::max_sessions`]
/// sessions live at once (default 10,000): an `initialize` past that gets 503 with
/// `Retry-After` and the same code, while the open sessions are served as before. A session
/// without a message for [`HttpOptions::session_idle_timeout`] (default 5 minutes) is closed,
/// and its id answers 404 from then on. A request's header must arrive within
/// [`HttpOptions::header_timeout`] (the connection is closed otherwise; this also ends idle
/// connections) and its body within [`HttpOptions::body_timeout`] (408, then closed). On
/// SIGTERM or SIGINT the server shuts down gracefully (see [`HttpOptions::grace_period`]). Before
/// a 413, up to 4 MiB past the limit of the upload is read and discarded (within the body
/// timeout), so that the client, still sending, reads the answer instead of a reset. A failed `accept` (out of file
/// descriptors, say) never stops the listener: it waits, from 10 ms up to 1 s, and goes on.
///
/// Every rejection has a JSON-RPC error body (`id: null`) whose message says what was wrong
/// and what is accepted, and whose `data` holds the HTTP status and the accepted values. That
/// includes the ones rmcp's service makes (a `DELETE` or a POST for an unknown session is 404,
/// a wrong `Content-Type` 415, a wrong `Accept` 406).
/// Rejections of the request's form (404, 405, 400, 413) use code -32600; those of the caller
/// (401, 403) use -32001. A POST body that is not JSON, or not a JSON-RPC request, is answered
/// by the same checks as on stdio (the `jsonrpc` module).
///
/// The allowlists and the token also come from the environment ([`HttpOptions::from_env`]):
/// `MCP_ALLOWED_HOSTS` and `MCP_ALLOWED_ORIGINS` (comma-separated, `*` for any), and
/// `MCP_AUTH_TOKEN`.
///
/// ```
/// use mcp_tool_runtime::HttpOptions;
/// let options = HttpOptions::default()
///     .stateless(true)
///     .max_body_bytes(64 * 1024)
///     .allowed_hosts(["localhost", "mcp.example.com"])
///     .bearer_token("s3cret");
/// assert!(options.is_stateless());
/// ```
#[derive(Clone)]
pub struct HttpOptions {
    path: String,
    stateless: bool,
    max_body_bytes: usize,
    max_connections: usize,
    max_sessions: usize,
    session_idle_timeout: Duration,
    header_timeout: Duration,
    body_timeout: Duration,
    grace_period: Duration,
    allowed_hosts: Vec<String>,
    allowed_origins: Vec<String>,
    token: Option<String>,
    realm: String,
}

impl std::fmt::Debug for HttpOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpOptions")
            .field("path", &self.path)
            .field("stateless", &self.stateless)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("max_connections", &self.max_connections)
            .field("max_sessions", &self.max_sessions)
            .field("session_idle_timeout", &self.session_idle_timeout)
            .field("header_timeout", &self.header_timeout)
            .field("body_timeout", &self.body_timeout)
            .field("grace_period", &self.grace_period)
            .field("allowed_hosts", &self.allowed_hosts)
            .field("allowed_origins", &self.allowed_origins)
            .field("token", &self.token.as_ref().map(|_| "<set>"))
            .field("realm", &self.realm)
            .finish()
    }
}

impl Default for HttpOptions {
    fn default() -> Self {
        Self {
            path: DEFAULT_PATH.into(),
            stateless: false,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_sessions: DEFAULT_MAX_SESSIONS,
            session_idle_timeout: DEFAULT_SESSION_IDLE_TIMEOUT,
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            body_timeout: DEFAULT_BODY_TIMEOUT,
            grace_period: DEFAULT_GRACE_PERIOD,
            allowed_hosts: DEFAULT_HOSTS.iter().map(|host| host.to_string()).collect(),
            allowed_origins: DEFAULT_ORIGINS.iter().map(|o| o.to_string()).collect(),
            token: None,
            realm: "mcp".into(),
        }
    }
}

fn env_list(name: &str) -> Option<Vec<String>> {
    let value = std::env::var(name).ok()?;
    Some(
        value
            .split(',')
            .map(str::trim)
            .filter(|entry| !entry.is_empty())
            .map(str::to_string)
            .collect(),
    )
}

impl HttpOptions {
    /// The defaults, with `MCP_ALLOWED_HOSTS`, `MCP_ALLOWED_ORIGINS` and `MCP_AUTH_TOKEN`
    /// applied when they are set.
    pub fn from_env() -> Self {
        let mut options = Self::default();
        if let Some(hosts) = env_list("MCP_ALLOWED_HOSTS") {
            options.allowed_hosts = hosts;
        }
        if let Some(origins) = env_list("MCP_ALLOWED_ORIGINS") {
            options.allowed_origins = origins;
        }
        if let Ok(token) = std::env::var("MCP_AUTH_TOKEN")
            && !token.is_empty()
        {
            options.token = Some(token);
        }
        options
    }

    /// The endpoint path (default `/mcp`).
    pub fn path(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    /// Stateless mode: no sessions; every POST is served on its own, and GET and DELETE
    /// get 405.
    pub fn stateless(mut self, stateless: bool) -> Self {
        self.stateless = stateless;
        self
    }

    /// Whether stateless mode is on.
    pub fn is_stateless(&self) -> bool {
        self.stateless
    }

    /// The largest request body accepted (default 256 KiB).
    pub fn max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = bytes;
        self
    }

    /// The most connections served at once (default 512). A connection past the cap gets
    /// one 503 answer with `Retry-After` and is closed; raise the cap together with the
    /// process's open-file limit (`ulimit -n`).
    pub fn max_connections(mut self, connections: usize) -> Self {
        self.max_connections = connections.max(1);
        self
    }

    /// The most sessions alive at once (default 10,000; at least 1). Past it, an
    /// `initialize` that would open one more gets 503 with `Retry-After` and a JSON-RPC error
    /// with its id; the open sessions are served as before, and a place frees up when one is
    /// closed (`DELETE`) or expires (see [`HttpOptions::session_idle_timeout`]). Each session
    /// costs about 57 KiB. Stateless mode has no sessions.
    pub fn max_sessions(mut self, sessions: usize) -> Self {
        self.max_sessions = sessions.max(1);
        self
    }

    /// How long a session may go without a message before it is closed (default 5 minutes):
    /// its memory is released and its id answers 404, so a client that left does not hold a
    /// place under [`HttpOptions::max_sessions`]. rmcp counts from the session's last message
    /// in either direction, so set it above your longest tool call: a call that runs longer
    /// with nothing else said on its session is ended with it.
    pub fn session_idle_timeout(mut self, limit: Duration) -> Self {
        self.session_idle_timeout = limit;
        self
    }

    /// How long a connection may take to send a request's header (default 30 s), counted
    /// from when it is ready for one: just opened, or done with the previous answer. A
    /// connection that sends nothing, or its header too slowly, is closed; so is one left
    /// idle between requests for as long. Answers being streamed are not affected.
    pub fn header_timeout(mut self, limit: Duration) -> Self {
        self.header_timeout = limit;
        self
    }

    /// How long a request's body may take to arrive once its header is in (default 30 s).
    /// A slower one is answered 408 and its connection closed.
    pub fn body_timeout(mut self, limit: Duration) -> Self {
        self.body_timeout = limit;
        self
    }

    /// How long requests in flight get to finish after SIGTERM or SIGINT (default 10 s):
    /// the server stops accepting at once, answers them, closes each connection as its
    /// answer is done, and returns; whatever is still running after this is dropped.
    pub fn grace_period(mut self, limit: Duration) -> Self {
        self.grace_period = limit;
        self
    }

    /// The `Host` values accepted: names (`localhost`), `name:port`, or `*` for any.
    pub fn allowed_hosts(mut self, hosts: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.allowed_hosts = hosts.into_iter().map(Into::into).collect();
        self
    }

    /// The `Origin` values accepted: `scheme://host[:port]` (`:*` for any port), a bare host
    /// for any scheme and port, or `*`. Requests without `Origin` (non-browser clients)
    /// always pass this check.
    pub fn allowed_origins(mut self, origins: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.allowed_origins = origins.into_iter().map(Into::into).collect();
        self
    }

    /// Requires `Authorization: Bearer <token>` on every request.
    pub fn bearer_token(mut self, token: impl Into<String>) -> Self {
        self.token = Some(token.into());
        self
    }

    /// The realm named in `WWW-Authenticate` (default `mcp`).
    pub fn realm(mut self, realm: impl Into<String>) -> Self {
        self.realm = realm.into();
        self
    }
}

type HttpResponse = Response<BoxBody<Bytes, Infallible>>;

fn full(bytes: impl Into<Bytes>) -> BoxBody<Bytes, Infallible> {
    Full::new(bytes.into()).boxed()
}

/// A rejection: `status`, a JSON-RPC error body, and any extra headers.
fn reject(
    status: StatusCode,
    code: ErrorCode,
    message: String,
    mut data: Value,
    headers: &[(header::HeaderName, String)],
) -> HttpResponse {
    if let Some(object) = data.as_object_mut() {
        object.insert("httpStatus".into(), json!(status.as_u16()));
    }
    let body = jsonrpc::error_response(None, code, message, Some(data));
    let mut response = Response::new(full(body.to_string()));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    for (name, value) in headers {
        if let Ok(value) = HeaderValue::from_str(value) {
            response.headers_mut().insert(name.clone(), value);
        }
    }
    response
}

fn json_reply(status: StatusCode, body: &Value) -> HttpResponse {
    let mut response = Response::new(full(body.to_string()));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// A 403 with a JSON-RPC error body.
fn forbidden(message: String, data: Value) -> Box<HttpResponse> {
    Box::new(reject(
        StatusCode::FORBIDDEN,
        UNAUTHORIZED_CODE,
        message,
        data,
        &[],
    ))
}

/// The one value of header `name` (`None` when absent), or how many there are when there
/// are several: a check that reads the first of two lets the second through to whoever
/// reads the last.
fn single_header(
    request: &Request<Incoming>,
    name: header::HeaderName,
) -> Result<Option<&str>, usize> {
    let mut values = request.headers().get_all(name).iter();
    let first = values.next();
    match values.count() {
        0 => Ok(first.map(|value| value.to_str().unwrap_or("<not text>"))),
        more => Err(more + 1),
    }
}

/// The token of the one `Authorization: Bearer <token>` header: one space, then a token
/// with no whitespace. `Err` is the sentence and the RFC 6750 `error` of the challenge.
fn bearer(request: &Request<Incoming>) -> Result<&str, (&'static str, Option<&'static str>)> {
    let value = match single_header(request, header::AUTHORIZATION) {
        Ok(Some(value)) => value,
        Ok(None) => return Err((text::HTTP_TOKEN_MISSING, None)),
        Err(_) => return Err((text::HTTP_TOKEN_DUPLICATE, Some("invalid_request"))),
    };
    let (scheme, rest) = value.split_at(value.find(char::is_whitespace).unwrap_or(value.len()));
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err((text::HTTP_TOKEN_MISSING, None));
    }
    let token = rest.strip_prefix(' ').unwrap_or_default();
    if token.is_empty() || token.contains(char::is_whitespace) {
        return Err((text::HTTP_TOKEN_MALFORMED, Some("invalid_request")));
    }
    Ok(token)
}

/// The rules in front of rmcp's service.
struct Guard<S: Send + Sync + 'static> {
    options: HttpOptions,
    service: StreamableHttpService<McpServer<S>, LocalSessionManager>,
    /// rmcp's sessions, shared with `service`, to tell a DELETE of an unknown one.
    sessions: Arc<LocalSessionManager>,
    /// The request ids being answered on each session, to refuse a duplicate.
    in_flight: InFlight,
    /// The places under [`HttpOptions::max_sessions`].
    session_cap: SessionCap,
    /// The body bytes read, to know when to give freed memory back (see `release`).
    body_bytes: BodyBytes,
    /// The server's limits on a message's arrays and objects, checked on each body.
    limits: InputLimits,
}

impl<S: Send + Sync + 'static> Guard<S> {
    fn new(server: McpServer<S>, options: HttpOptions) -> Self {
        // The guard is the one place that checks Host and Origin, so that every rejection
        // has the same JSON-RPC body; rmcp's own plain-text checks are switched off.
        let config = StreamableHttpServerConfig::default()
            .disable_allowed_hosts()
            .disable_allowed_origins()
            .with_legacy_session_mode(!options.stateless)
            .with_json_response(options.stateless)
            .with_max_request_body_bytes(options.max_body_bytes);
        let limits = server.registry().input_limits();
        let mut sessions = LocalSessionManager::default();
        sessions.session_config.keep_alive = Some(options.session_idle_timeout);
        let sessions = Arc::new(sessions);
        let service = StreamableHttpService::new(
            move || Ok(server.new_session()),
            Arc::clone(&sessions),
            config,
        );
        Self {
            session_cap: SessionCap::new(options.max_sessions),
            body_bytes: BodyBytes::default(),
            options,
            service,
            sessions,
            in_flight: InFlight::default(),
            limits,
        }
    }

    /// Every rule but the body size, in their documented order; the first one broken
    /// answers (`Err` is the rejection).
    fn check(&self, request: &Request<Incoming>) -> Result<(), Box<HttpResponse>> {
        self.check_path(request)?;
        self.check_host(request)?;
        self.check_origin(request)?;
        self.check_token(request)?;
        self.check_method(request)?;
        self.check_version(request)
    }

    fn check_path(&self, request: &Request<Incoming>) -> Result<(), Box<HttpResponse>> {
        let options = &self.options;
        let path = request.uri().path();
        if path == options.path {
            return Ok(());
        }
        Err(Box::new(reject(
            StatusCode::NOT_FOUND,
            ErrorCode::INVALID_REQUEST,
            text::http_not_found(path, &options.path),
            json!({"endpoint": options.path}),
            &[],
        )))
    }

    fn check_host(&self, request: &Request<Incoming>) -> Result<(), Box<HttpResponse>> {
        let allowed = &self.options.allowed_hosts;
        let Some(host) = Self::request_host(request, allowed)? else {
            let data = json!({"allowedHosts": allowed});
            return Err(forbidden(text::HTTP_HOST_MISSING.to_string(), data));
        };
        if host_allowed(host, allowed) {
            return Ok(());
        }
        let data = json!({"host": host, "allowedHosts": allowed});
        Err(forbidden(text::http_host_forbidden(host, allowed), data))
    }

    /// The host a request is for: its one `Host` header, which an absolute-form target
    /// (`POST http://host/mcp`) must agree with. Two hosts that differ are two answers to
    /// "which server is this for", and a proxy may act on the other one.
    fn request_host<'r>(
        request: &'r Request<Incoming>,
        allowed: &[String],
    ) -> Result<Option<&'r str>, Box<HttpResponse>> {
        let header = single_header(request, header::HOST).map_err(|count| {
            let data = json!({"allowedHosts": allowed});
            forbidden(text::http_duplicate_header("Host", count), data)
        })?;
        let target = request
            .uri()
            .authority()
            .map(|authority| authority.as_str());
        match (header, target) {
            (Some(host), Some(target)) if !host.eq_ignore_ascii_case(target) => {
                let data = json!({"host": host, "target": target, "allowedHosts": allowed});
                Err(forbidden(text::http_host_mismatch(target, host), data))
            }
            (host, target) => Ok(host.or(target)),
        }
    }

    fn check_origin(&self, request: &Request<Incoming>) -> Result<(), Box<HttpResponse>> {
        let allowed = &self.options.allowed_origins;
        let origin = single_header(request, header::ORIGIN).map_err(|count| {
            let data = json!({"allowedOrigins": allowed});
            forbidden(text::http_duplicate_header("Origin", count), data)
        })?;
        match origin {
            Some(origin) if !origin_allowed(origin, allowed) => {
                let data = json!({"origin": origin, "allowedOrigins": allowed});
                Err(forbidden(
                    text::http_origin_forbidden(origin, allowed),
                    data,
                ))
            }
            _ => Ok(()),
        }
    }

    fn check_token(&self, request: &Request<Incoming>) -> Result<(), Box<HttpResponse>> {
        let Some(token) = &self.options.token else {
            return Ok(());
        };
        let (message, error) = match bearer(request) {
            Ok(presented) if bool::from(presented.as_bytes().ct_eq(token.as_bytes())) => {
                return Ok(());
            }
            Ok(_) => (text::HTTP_TOKEN_INVALID, Some("invalid_token")),
            Err(failure) => failure,
        };
        let mut challenge = format!("Bearer realm=\"{}\"", self.options.realm);
        if let Some(error) = error {
            challenge.push_str(&format!(", error=\"{error}\""));
        }
        Err(Box::new(reject(
            StatusCode::UNAUTHORIZED,
            UNAUTHORIZED_CODE,
            message.to_string(),
            json!({"scheme": "Bearer"}),
            &[(header::WWW_AUTHENTICATE, challenge)],
        )))
    }

    fn check_method(&self, request: &Request<Incoming>) -> Result<(), Box<HttpResponse>> {
        let stateless = self.options.stateless;
        let method = request.method();
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
        Err(Box::new(reject(
            StatusCode::METHOD_NOT_ALLOWED,
            ErrorCode::INVALID_REQUEST,
            message,
            json!({"allowedMethods": allowed_methods}),
            &[(header::ALLOW, allowed_methods.to_string())],
        )))
    }

    fn check_version(&self, request: &Request<Incoming>) -> Result<(), Box<HttpResponse>> {
        let Some(version) = request.headers().get("mcp-protocol-version") else {
            return Ok(());
        };
        let version = version.to_str().unwrap_or("<not text>");
        if SUPPORTED_PROTOCOL_VERSIONS.contains(&version) {
            return Ok(());
        }
        Err(Box::new(reject(
            StatusCode::BAD_REQUEST,
            ErrorCode::INVALID_REQUEST,
            text::http_unsupported_version(version, SUPPORTED_PROTOCOL_VERSIONS),
            json!({"version": version, "supported": SUPPORTED_PROTOCOL_VERSIONS}),
            &[],
        )))
    }

    /// The answer to a body that did not arrive in time. The connection is closed after it:
    /// what is left of the body would otherwise be read as the next request.
    fn body_too_slow(&self) -> HttpResponse {
        let limit = self.options.body_timeout;
        tracing::info!(?limit, "a request body did not arrive in time");
        reject(
            StatusCode::REQUEST_TIMEOUT,
            ErrorCode::INVALID_REQUEST,
            text::http_body_timeout(limit),
            json!({"bodyTimeoutMs": limit.as_millis() as u64}),
            &[(header::CONNECTION, "close".to_string())],
        )
    }

    fn too_large(&self, length: Option<u64>) -> HttpResponse {
        let limit = self.options.max_body_bytes;
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

    async fn handle(&self, request: Request<Incoming>) -> HttpResponse {
        let (request, screened) = match self.admit(request).await {
            Ok(admitted) => admitted,
            Err(rejection) => return *rejection,
        };
        let claim = match self.claim(&request, screened.id.as_ref()) {
            Ok(claim) => claim,
            Err(rejection) => return *rejection,
        };
        // Held until rmcp has stored the session it opens.
        let _opening = if self.opens_session(&request, &screened) {
            match self.session_cap.reserve(&self.sessions).await {
                Some(opening) => Some(opening),
                None => return self.too_many_sessions(screened.id.as_ref()),
            }
        } else {
            None
        };
        let response = with_json_rpc_body(self.service.handle(request).await).await;
        match claim {
            Some(claim) => release_when_sent(response, claim),
            None => response,
        }
    }

    /// Whether rmcp would open a session for `request`: an `initialize` outside any.
    fn opens_session(&self, request: &Request<Full<Bytes>>, screened: &Screened) -> bool {
        screened.initialize
            && !self.options.stateless
            && !request.headers().contains_key(SESSION_HEADER)
    }

    /// The answer to an `initialize` past the session cap, with its id.
    fn too_many_sessions(&self, id: Option<&RequestId>) -> HttpResponse {
        let cap = self.options.max_sessions;
        tracing::warn!(cap, "refused a session over the cap");
        let id = id.map(|id| json!(id));
        let answer = jsonrpc::error_response(
            id.as_ref(),
            OVERLOADED_CODE,
            text::http_too_many_sessions(cap),
            Some(json!({"maxSessions": cap, "httpStatus": 503})),
        );
        let mut response = json_reply(StatusCode::SERVICE_UNAVAILABLE, &answer);
        response.headers_mut().insert(
            header::RETRY_AFTER,
            HeaderValue::from(SESSION_RETRY_AFTER_SECS),
        );
        response
    }

    /// Claims the id of a request made within a session, until its answer is sent; `Err`
    /// answers a request whose id is already in flight there.
    fn claim(
        &self,
        request: &Request<Full<Bytes>>,
        id: Option<&RequestId>,
    ) -> Result<Option<Claim>, Box<HttpResponse>> {
        let session = request.headers().get(SESSION_HEADER);
        let (Some(session), Some(id)) = (session.and_then(|s| s.to_str().ok()), id) else {
            return Ok(None);
        };
        match self.in_flight.claim(session, id) {
            Some(claim) => Ok(Some(claim)),
            None => {
                tracing::info!(%id, "refused a request whose id is in flight on its session");
                let id = json!(id);
                let answer = jsonrpc::error_response(
                    Some(&id),
                    ErrorCode::INVALID_REQUEST,
                    text::http_duplicate_request_id(&id.to_string()),
                    Some(json!({"id": id})),
                );
                Err(Box::new(json_reply(StatusCode::BAD_REQUEST, &answer)))
            }
        }
    }

    /// The request as rmcp gets it, with what its JSON-RPC message is, or the answer that
    /// stops it here.
    async fn admit(
        &self,
        request: Request<Incoming>,
    ) -> Result<(Request<Full<Bytes>>, Screened), Box<HttpResponse>> {
        if let Err(rejection) = self.check(&request) {
            tracing::info!(
                method = %request.method(),
                status = rejection.status().as_u16(),
                "rejected an HTTP request"
            );
            return Err(rejection);
        }
        self.check_session(&request).await?;
        let (parts, body) = request.into_parts();
        let bytes = self.read_body(&parts, body).await?;
        let (bytes, screened) = if parts.method == Method::POST && bytes.len() > LARGE_BODY_BYTES {
            // Reading a large body into JSON takes a while; off the executor, it delays no
            // other request.
            let limits = self.limits;
            run_heavy(move || screen(bytes, &limits))
                .await
                .map_err(|error| Box::new(internal_failure(&error)))??
        } else if parts.method == Method::POST {
            screen(bytes, &self.limits)?
        } else {
            (bytes, Screened::default())
        };
        Ok((Request::from_parts(parts, Full::new(bytes)), screened))
    }

    /// A DELETE of a session that does not exist is a 404: rmcp answers 202 to any id.
    async fn check_session(&self, request: &Request<Incoming>) -> Result<(), Box<HttpResponse>> {
        if request.method() != Method::DELETE {
            return Ok(());
        }
        let Some(id) = request.headers().get(SESSION_HEADER) else {
            return Ok(());
        };
        let id = id.to_str().unwrap_or("<not text>");
        // An error of the session store leaves the answer to rmcp.
        let known = self.sessions.has_session(&Arc::from(id)).await;
        if known.unwrap_or(true) {
            return Ok(());
        }
        Err(Box::new(reject(
            StatusCode::NOT_FOUND,
            ErrorCode::INVALID_REQUEST,
            text::HTTP_SESSION_NOT_FOUND.to_string(),
            json!({"sessionId": id}),
            &[],
        )))
    }

    /// The whole body, within the size limit.
    async fn read_body(
        &self,
        parts: &http::request::Parts,
        mut body: Incoming,
    ) -> Result<Bytes, Box<HttpResponse>> {
        let limit = self.options.max_body_bytes;
        let declared = parts
            .headers
            .get(header::CONTENT_LENGTH)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.parse::<u64>().ok());
        if let Some(length) = declared.filter(|length| *length > limit as u64) {
            if length - limit as u64 <= DRAIN_BYTES {
                self.drain(&mut body).await;
            }
            return Err(Box::new(self.too_large(declared)));
        }
        let collect = Limited::new(&mut body, limit).collect();
        let Ok(collected) = tokio::time::timeout(self.options.body_timeout, collect).await else {
            return Err(Box::new(self.body_too_slow()));
        };
        match collected {
            Ok(collected) => {
                let bytes = collected.to_bytes();
                self.body_bytes.add(bytes.len());
                Ok(bytes)
            }
            Err(error) if error.is::<http_body_util::LengthLimitError>() => {
                self.drain(&mut body).await;
                Err(Box::new(self.too_large(None)))
            }
            Err(error) => {
                tracing::info!(%error, "the client broke off the request body");
                Err(Box::new(reject(
                    StatusCode::BAD_REQUEST,
                    ErrorCode::INVALID_REQUEST,
                    jsonrpc::parse_error(&error.to_string()),
                    json!({}),
                    &[],
                )))
            }
        }
    }

    /// Reads and discards the rest of an oversized `body`, up to [`DRAIN_BYTES`] and within
    /// the body timeout, so that the 413 reaches a client that is still sending.
    async fn drain(&self, body: &mut Incoming) {
        let discard = async {
            let mut read = 0u64;
            while read <= DRAIN_BYTES {
                let Some(Ok(frame)) = body.frame().await else {
                    return;
                };
                read += frame.data_ref().map_or(0, |data| data.len() as u64);
            }
        };
        let _ = tokio::time::timeout(self.options.body_timeout, discard).await;
    }
}

/// The answer when a large body could not be screened (no thread could be started for it).
fn internal_failure(error: &ToolError) -> HttpResponse {
    tracing::error!(error = ?error.internal_detail(), "could not screen a request body");
    reject(
        StatusCode::INTERNAL_SERVER_ERROR,
        ErrorCode::INTERNAL_ERROR,
        text::BODY_NOT_SCREENED.to_string(),
        json!({}),
        &[],
    )
}

/// What the guard needs to know of the message a POST carries.
#[derive(Default)]
struct Screened {
    /// The id of a request.
    id: Option<RequestId>,
    /// Whether it is `initialize`.
    initialize: bool,
}

/// A POST body checked like a stdio line (the `jsonrpc` module): the body for rmcp, or the
/// answer. Malformed messages are 400; a well-formed request for an unknown method or with
/// wrong params is answered like any other request (200).
fn screen(bytes: Bytes, limits: &InputLimits) -> Result<(Bytes, Screened), Box<HttpResponse>> {
    let (bytes, inbound) = match oversized::screen(&bytes, limits) {
        Screen::Pass => {
            let inbound = jsonrpc::classify(&bytes);
            (bytes, inbound)
        }
        Screen::Replace(stand_in) => {
            let inbound = jsonrpc::classify(&stand_in);
            (Bytes::from(stand_in), inbound)
        }
        Screen::Answer(inbound) => (bytes, inbound),
    };
    match inbound {
        Inbound::Deliver(message) => {
            let initialize = jsonrpc::is_initialize(&message);
            let id = match *message {
                JsonRpcMessage::Request(request) => Some(request.id),
                _ => None,
            };
            let bytes = jsonrpc::rewrite_body(&bytes).map_or(bytes, Bytes::from);
            Ok((bytes, Screened { id, initialize }))
        }
        Inbound::Reply(answer) => {
            let code = answer["error"]["code"].as_i64().unwrap_or_default();
            let malformed = code == i64::from(ErrorCode::PARSE_ERROR.0)
                || code == i64::from(ErrorCode::INVALID_REQUEST.0);
            let status = if malformed {
                StatusCode::BAD_REQUEST
            } else {
                StatusCode::OK
            };
            Err(Box::new(json_reply(status, &answer)))
        }
        Inbound::Ignore(why) => {
            tracing::debug!(%why, "ignored a malformed notification");
            let mut response = Response::new(full(Bytes::new()));
            *response.status_mut() = StatusCode::ACCEPTED;
            Err(Box::new(response))
        }
    }
}

/// `response` with `claim` held until its body is sent or dropped: a stateful answer is a
/// stream that ends once the request is answered, and a client that leaves drops it.
fn release_when_sent(response: HttpResponse, claim: Claim) -> HttpResponse {
    response.map(|body| {
        body.map_frame(move |frame| {
            // The closure owns the claim, so it lives exactly as long as the body.
            let _held = &claim;
            frame
        })
        .boxed()
    })
}

/// rmcp's own rejections (an unknown session, a wrong `Content-Type` or `Accept`) have
/// plain-text bodies; they get a JSON-RPC error body like every other rejection, keeping
/// rmcp's status and headers.
async fn with_json_rpc_body(response: HttpResponse) -> HttpResponse {
    let content_type = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    let structured = content_type.starts_with("application/json")
        || content_type.starts_with("text/event-stream");
    if !response.status().is_client_error() || structured {
        return response;
    }
    let (parts, body) = response.into_parts();
    // rmcp's rejection texts are one short sentence; a longer body is not one of them.
    let detail = match Limited::new(body, REJECTION_DETAIL_BYTES).collect().await {
        Ok(collected) => String::from_utf8_lossy(&collected.to_bytes()).into_owned(),
        Err(_) => String::new(),
    };
    let message = text::http_transport_rejection(parts.status, &detail);
    let data = json!({"detail": detail});
    let mut rejection = reject(parts.status, ErrorCode::INVALID_REQUEST, message, data, &[]);
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            rejection.headers_mut().insert(name.clone(), value.clone());
        }
    }
    rejection
}
