//! The options of the HTTP transport: what the guard enforces and how the listener behaves.

use std::sync::Arc;
use std::time::Duration;

use rmcp::transport::streamable_http_server::session::local::SessionConfig;

use super::auth::{StaticToken, TokenVerifier};
use super::authority::AllowedHosts;
use super::resource::{Challenge, ProtectedResource};

/// The default body limit: 256 KiB.
pub(super) const DEFAULT_MAX_BODY_BYTES: usize = 256 * 1024;
/// The default cap on concurrent connections: far above what one client opens, and far
/// below the usual limit of 1,024 open files, so that the cap, not the system, says no.
pub(super) const DEFAULT_MAX_CONNECTIONS: usize = 512;
/// The default time for a request's header to arrive, counted from when the connection
/// is ready for one (opened, or done with the previous answer): it also ends idle connections.
pub(super) const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(30);
/// The default time for a request's whole body to arrive once its header is in.
pub(super) const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);
/// The default time in-flight requests get to finish after a shutdown signal.
pub(super) const DEFAULT_GRACE_PERIOD: Duration = Duration::from_secs(10);
/// The default cap on live sessions. Each costs about 57 KiB (rmcp's tasks and channels,
/// measured in BENCHMARKS.md), so the cap bounds what sessions can take to some 560 MiB:
/// room for far more clients than one process serves, and a bound a small machine survives.
pub(super) const DEFAULT_MAX_SESSIONS: usize = 10_000;
/// The default time a session may go without a message before it is closed: rmcp's own.
pub(super) const DEFAULT_SESSION_IDLE_TIMEOUT: Duration = SessionConfig::DEFAULT_KEEP_ALIVE;
/// The default endpoint path.
pub(super) const DEFAULT_PATH: &str = "/mcp";

pub(super) const DEFAULT_HOSTS: &[&str] = &["localhost", "127.0.0.1", "::1"];
pub(super) const DEFAULT_ORIGINS: &[&str] = &[
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
/// [`McpServer::serve_http`](crate::McpServer::serve_http) serves at `http://ADDR/mcp`. Before a request reaches rmcp's
/// `StreamableHttpService`, the guard checks, in this order (the same guard serves in
/// [`McpServer::http_service`](crate::McpServer::http_service), the endpoint as a tower
/// service for a router of your own, and as [`HttpGuardLayer`](crate::http::HttpGuardLayer)):
///
/// | rule | answer |
/// | --- | --- |
/// | the path is the endpoint (default `/mcp`; only `serve_http*`: in a router of your own, the router routes) | 404 |
/// | exactly one `Host`, `name[:port]` with a numeric port, the same as an absolute-form target's, in the allowlist (default: localhost only) | 403 (DNS rebinding defence) |
/// | `Origin`, when present, is one header, well formed, in the allowlist (default: localhost origins) | 403 |
/// | a token verifier is set ([`HttpOptions::bearer_token`], [`HttpOptions::token_verifier`]) and it accepts the token of exactly one `Authorization: Bearer <token>` (one space; a static token is compared in constant time) | 401 with `WWW-Authenticate: Bearer realm="…"`; 403 with `error="insufficient_scope"` for a token without a required scope |
/// | stateless mode: the method is POST | 405 with `Allow: POST` |
/// | `MCP-Protocol-Version`, when present, is supported | 400 listing the supported versions (answered once the body is read, see below) |
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
/// A request of revision 2026-07-28, one that names its revision in `_meta` (or whose
/// `MCP-Protocol-Version` is 2026-07-28), follows that revision's HTTP rules: its errors
/// carry its id once the body is read; an unsupported `MCP-Protocol-Version` is a 400 with
/// an `UnsupportedProtocolVersionError` (-32022, `data.requested` and `data.supported`); a
/// method the revision lacks (`initialize`, `ping`, `logging/setLevel`,
/// `resources/subscribe`, `resources/unsubscribe`, or any unknown one) is a 404 with -32601;
/// and rmcp answers a missing client capability (-32021), a header that contradicts the
/// body (-32020) and an incomplete `_meta` (-32602) with 400. A request of an earlier
/// revision gets its JSON-RPC errors with 200, as those revisions have it.
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
    pub(super) path: String,
    pub(super) stateless: bool,
    pub(super) max_body_bytes: usize,
    pub(super) max_connections: usize,
    pub(super) max_sessions: usize,
    pub(super) session_idle_timeout: Duration,
    pub(super) header_timeout: Duration,
    pub(super) body_timeout: Duration,
    pub(super) grace_period: Duration,
    pub(super) allowed_hosts: AllowedHosts,
    pub(super) allowed_origins: Vec<String>,
    pub(super) verifier: Option<Arc<dyn TokenVerifier>>,
    /// The realm and the metadata's URL, as every challenge names them.
    pub(super) challenge: Challenge,
    pub(super) resource: Option<Arc<ProtectedResource>>,
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
            .field("verifier", &self.verifier.as_ref().map(|_| "<set>"))
            .field("realm", &self.challenge.realm)
            .field("protected_resource", &self.resource)
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
            allowed_hosts: AllowedHosts::new(
                DEFAULT_HOSTS.iter().map(|host| host.to_string()).collect(),
            ),
            allowed_origins: DEFAULT_ORIGINS.iter().map(|o| o.to_string()).collect(),
            verifier: None,
            challenge: Challenge {
                realm: "mcp".into(),
                resource_metadata: None,
            },
            resource: None,
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
            options.allowed_hosts = AllowedHosts::new(hosts);
        }
        if let Some(origins) = env_list("MCP_ALLOWED_ORIGINS") {
            options.allowed_origins = origins;
        }
        if let Ok(token) = std::env::var("MCP_AUTH_TOKEN")
            && !token.is_empty()
        {
            options = options.bearer_token(token);
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
    /// idle between requests for as long. Answers being streamed are not affected. The
    /// connections are looked at every sixteenth of the limit (at least twice a second), so
    /// one is closed at most an eighth of the limit (and at most a second) after its time
    /// is up, never before.
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
        self.allowed_hosts = AllowedHosts::new(hosts.into_iter().map(Into::into).collect());
        self
    }

    /// The `Origin` values accepted: `scheme://host[:port]` (`:*` for any port), a bare host
    /// for any scheme and port, or `*`. Requests without `Origin` (non-browser clients)
    /// always pass this check.
    pub fn allowed_origins(mut self, origins: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.allowed_origins = origins.into_iter().map(Into::into).collect();
        self
    }

    /// Requires `Authorization: Bearer <token>` on every request, with this one token (see
    /// [`StaticToken`]). Shorthand for `.token_verifier(StaticToken::new(token))`.
    pub fn bearer_token(self, token: impl Into<String>) -> Self {
        self.token_verifier(StaticToken::new(token))
    }

    /// Requires `Authorization: Bearer <token>` on every request, and lets `verifier` decide
    /// whether the token is good and whose it is. The [`Principal`](crate::Principal) it
    /// returns reaches tools (`ToolContext::principal`), middleware and visibility rules.
    pub fn token_verifier(mut self, verifier: impl TokenVerifier) -> Self {
        self.verifier = Some(Arc::new(verifier));
        self
    }

    /// The realm named in `WWW-Authenticate` (default `mcp`).
    pub fn realm(mut self, realm: impl Into<String>) -> Self {
        self.challenge.realm = realm.into();
        self
    }

    /// Makes the server an OAuth 2.1 resource server (see [`ProtectedResource`]): its
    /// protected-resource metadata is served at the well-known paths (by
    /// [`McpServer::serve_http`](crate::McpServer::serve_http); see
    /// [`HttpService::resource_metadata`](crate::http::HttpService::resource_metadata) for an
    /// app of your own), and every 401 and 403 challenge names it
    /// (`WWW-Authenticate: Bearer resource_metadata="…"`). Pair it with a verifier that
    /// checks the tokens' audience, such as
    #[cfg_attr(feature = "oauth", doc = "[`JwtVerifier`](crate::http::JwtVerifier)")]
    // Linked only where it is built: without the feature the link would be broken.
    #[cfg_attr(not(feature = "oauth"), doc = "`JwtVerifier`")]
    /// (feature `oauth`).
    pub fn protected_resource(mut self, resource: ProtectedResource) -> Self {
        self.challenge.resource_metadata = Some(resource.metadata_url());
        self.resource = Some(Arc::new(resource));
        self
    }
}
