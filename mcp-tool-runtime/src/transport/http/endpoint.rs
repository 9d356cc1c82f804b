//! The MCP endpoint behind the guard: each POST body screened as a JSON-RPC message, the
//! session rules (the cap, duplicate ids in flight, unknown sessions), then rmcp's
//! `StreamableHttpService`, whose plain-text rejections get JSON-RPC bodies.

use std::convert::Infallible;
use std::sync::{Arc, Weak};
use std::task::{Context, Poll};

use bytes::Bytes;
use http::request::Parts;
use http::{HeaderValue, Method, Request, StatusCode, header};
use http_body::Body;
use http_body_util::{BodyExt, Full};
use rmcp::model::{ErrorCode, RequestId};
use rmcp::transport::streamable_http_server::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::json;
use tower_layer::Layer;
use tower_service::Service;

use super::super::jsonrpc;
use super::super::release::InputBytes;
use super::auth::insufficient_scope;
use super::guard::{HttpGuard, HttpGuardLayer};
use super::headers::HeadFlags;
use super::in_flight::{Claim, InFlight};
use super::release::release_memory;
use super::reply::{HttpResponse, OVERLOADED_CODE, json_reply, reject};
use super::resource::{Challenge, ResourceMetadata};
use super::screen::{Screened, internal_failure, is_plain_rejection, screen, with_json_rpc_body};
use super::sessions::{CountedSessions, SessionCap, SessionOwners};
use super::{HttpOptions, SESSION_HEADER, text};
use crate::input::InputLimits;
use crate::large::LARGE_BODY_BYTES;
use crate::server::McpServer;
use crate::tool::{BoxFuture, Principal, run_heavy};

/// How long a client refused past the session cap is told to wait: places free up as
/// clients close sessions or leave them idle, which takes seconds to minutes.
const SESSION_RETRY_AFTER_SECS: u64 = 30;

/// The MCP endpoint of a server as a tower `Service`: the guard of [`HttpOptions`] in front
/// of rmcp's Streamable HTTP service. Mount it in a router of your own, beside your routes;
/// [`McpServer::serve_http`] serves the same service on a listener of its own.
///
/// ```no_run
/// use axum::Router;
/// use axum::routing::get;
/// use mcp_tool_runtime::{HttpOptions, McpServer, mcp_tool};
///
/// /// Add two numbers.
/// #[mcp_tool]
/// fn add(a: i64, b: i64) -> String { (a + b).to_string() }
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let server = McpServer::builder(()).tool(add_tool()).build()?;
/// let app = Router::new()
///     .route("/health", get(|| async { "ok" }))
///     .nest_service("/mcp", server.http_service(HttpOptions::default()));
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
/// axum::serve(listener, app).await?;
/// # Ok(()) }
/// ```
pub struct HttpService<S: Send + Sync + 'static> {
    guarded: HttpGuard<Endpoint<S>>,
    metadata: Option<ResourceMetadata>,
}

impl<S: Send + Sync + 'static> Clone for HttpService<S> {
    fn clone(&self) -> Self {
        Self {
            guarded: self.guarded.clone(),
            metadata: self.metadata.clone(),
        }
    }
}

impl<S: Send + Sync + 'static> std::fmt::Debug for HttpService<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpService").finish_non_exhaustive()
    }
}

impl<S: Send + Sync + 'static> McpServer<S> {
    /// The Streamable HTTP endpoint as a tower `Service`, guarded by `options` (the path
    /// and the listener's settings are the router's and the listener's business). Freed
    /// memory is given back to the system as with [`McpServer::serve_http`] when this is
    /// called within a tokio runtime.
    pub fn http_service(self, options: HttpOptions) -> HttpService<S> {
        let metadata = options.resource.as_ref().map(|resource| {
            let server = self.clone();
            ResourceMetadata::new(Arc::clone(resource), Arc::new(move || tool_scopes(&server)))
        });
        let endpoint = Endpoint::new(self, &options);
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(release_while_alive(Arc::downgrade(&endpoint.state)));
        }
        HttpService {
            guarded: HttpGuardLayer::new(options).layer(endpoint),
            metadata,
        }
    }
}

/// Every scope a tool of `server` requires now, for the metadata's `scopes_supported`.
fn tool_scopes<S: Send + Sync + 'static>(server: &McpServer<S>) -> Vec<String> {
    let registry = server.registry();
    let mut scopes: Vec<String> = registry
        .entries()
        .flat_map(|(tool, _)| tool.info().scopes().map(str::to_string))
        .collect();
    scopes.sort();
    scopes.dedup();
    scopes
}

/// Gives freed memory back for as long as the endpoint lives.
async fn release_while_alive<S: Send + Sync + 'static>(state: Weak<EndpointState<S>>) {
    let Some(alive) = state.upgrade() else {
        return;
    };
    let state = Arc::downgrade(&alive);
    drop(alive);
    release_memory(move || {
        state.upgrade().map(|state| {
            (
                state.session_cap.given(),
                Arc::clone(&state.sessions),
                state.body_bytes.read(),
            )
        })
    })
    .await;
}

impl<S: Send + Sync + 'static> HttpService<S> {
    /// The protected-resource metadata (RFC 9728) as a tower service, when the options set
    /// a [`ProtectedResource`](crate::http::ProtectedResource): mount it at the app's root,
    /// at each of [`ProtectedResource::metadata_paths`](crate::http::ProtectedResource::metadata_paths)
    /// (see [`ResourceMetadata`]). [`McpServer::serve_http`] serves it itself.
    pub fn resource_metadata(&self) -> Option<ResourceMetadata> {
        self.metadata.clone()
    }

    /// Serves one request, its future held by the caller: the listener's path. Through
    /// [`Service::call`] a request costs two boxed futures, the inner one as large as rmcp's
    /// whole request future, allocated and freed on every call.
    pub(super) async fn serve<B>(&self, request: Request<B>) -> Answered
    where
        B: Body<Data = Bytes>,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let (mut parts, body) = request.into_parts();
        match self.guarded.admit(&mut parts, body).await {
            Ok((body, flags)) => self.guarded.inner().state.handle(parts, body, flags).await,
            Err(rejection) => rejection.into(),
        }
    }
}

impl<S, B> Service<Request<B>> for HttpService<S>
where
    S: Send + Sync + 'static,
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Response = HttpResponse;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<HttpResponse, Infallible>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Service::<Request<B>>::poll_ready(&mut self.guarded, cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        self.guarded.call(request)
    }
}

/// The endpoint behind the guard. Cheap to clone.
pub(super) struct Endpoint<S: Send + Sync + 'static> {
    state: Arc<EndpointState<S>>,
}

impl<S: Send + Sync + 'static> Clone for Endpoint<S> {
    fn clone(&self) -> Self {
        Self {
            state: Arc::clone(&self.state),
        }
    }
}

struct EndpointState<S: Send + Sync + 'static> {
    service: StreamableHttpService<McpServer<S>, CountedSessions>,
    /// rmcp's sessions, shared with `service`, to tell a DELETE of an unknown one.
    sessions: Arc<LocalSessionManager>,
    /// The request ids being answered on each session, to refuse a duplicate.
    in_flight: InFlight,
    /// The places under [`HttpOptions::max_sessions`].
    session_cap: Arc<SessionCap>,
    /// The body bytes read, to know when to give freed memory back (see `release`).
    body_bytes: InputBytes,
    /// The server's limits on a message's arrays and objects, checked on each body.
    limits: InputLimits,
    stateless: bool,
    /// The server, for the scopes of the tool a call names.
    server: McpServer<S>,
    /// What the scope challenge names besides the scope.
    challenge: Challenge,
    /// Who opened each session, when the caller is authenticated.
    owners: SessionOwners,
    max_sessions: usize,
}

impl<S: Send + Sync + 'static> Endpoint<S> {
    fn new(server: McpServer<S>, options: &HttpOptions) -> Self {
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
        let session_cap = Arc::new(SessionCap::new(options.max_sessions));
        let counted = CountedSessions {
            local: Arc::clone(&sessions),
            cap: Arc::clone(&session_cap),
        };
        let factory = server.clone();
        let service = StreamableHttpService::new(
            move || Ok(factory.new_session()),
            Arc::new(counted),
            config,
        );
        Self {
            state: Arc::new(EndpointState {
                service,
                sessions,
                in_flight: InFlight::default(),
                session_cap,
                body_bytes: InputBytes::default(),
                limits,
                stateless: options.stateless,
                server,
                challenge: options.challenge.clone(),
                owners: SessionOwners::default(),
                max_sessions: options.max_sessions,
            }),
        }
    }
}

impl<S: Send + Sync + 'static> Service<Request<Full<Bytes>>> for Endpoint<S> {
    type Response = HttpResponse;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<HttpResponse, Infallible>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Full<Bytes>>) -> Self::Future {
        let state = Arc::clone(&self.state);
        let (parts, mut body) = request.into_parts();
        let flags = HeadFlags::of(&parts.headers);
        Box::pin(async move {
            // The guard's `Full` holds the body in one frame (none when empty): taken as it
            // is, without a collector's buffer list.
            let bytes = match body.frame().await {
                Some(Ok(frame)) => frame.into_data().unwrap_or_default(),
                Some(Err(never)) => match never {},
                None => Bytes::new(),
            };
            Ok(state.handle(parts, bytes, flags).await.into_response())
        })
    }
}

/// An answer, and the claim of its request's id (see [`InFlight`]), which must be held
/// until the answer's body is sent or dropped.
pub(super) struct Answered {
    pub(super) response: HttpResponse,
    pub(super) claim: Option<Claim>,
}

impl Answered {
    /// The answer, its body holding the claim.
    fn into_response(self) -> HttpResponse {
        match self.claim {
            Some(claim) => release_when_sent(self.response, claim),
            None => self.response,
        }
    }
}

impl From<HttpResponse> for Answered {
    fn from(response: HttpResponse) -> Self {
        Self {
            response,
            claim: None,
        }
    }
}

impl<S: Send + Sync + 'static> EndpointState<S> {
    /// Serves a request the guard admitted, `flags` read from its headers.
    async fn handle(&self, mut parts: Parts, body: Bytes, flags: HeadFlags) -> Answered {
        let session = flags.session.as_ref();
        let in_session = session.is_some();
        let (body, screened) = match self
            .admit(&mut parts, body, flags.version_is_stateless)
            .await
        {
            Ok(admitted) => admitted,
            Err(rejection) => return rejection.into(),
        };
        let request = Request::from_parts(parts, Full::new(body));
        let principal = request.extensions().get::<Principal>();
        let owner = principal.map(SessionOwners::key);
        if let Err(rejection) = self.check_caller(session, principal, owner.as_deref(), &screened) {
            return rejection.into();
        }
        let claim = match self.claim(session, screened.id.as_ref()) {
            Ok(claim) => claim,
            Err(rejection) => return rejection.into(),
        };
        // Held until rmcp has stored the session it opens.
        let opening = if screened.initialize && !self.stateless && !in_session {
            match self.session_cap.reserve(&self.sessions).await {
                Some(opening) => Some(opening),
                None => return self.too_many_sessions(screened.id.as_ref()).into(),
            }
        } else {
            None
        };
        let closes_session = request.method() == Method::DELETE;
        let mut response = self.service.handle(request).await;
        if let (Some(_), Some(owner)) = (&opening, owner) {
            self.bind_owner(&response, owner).await;
        }
        // rmcp answers a closed session 202; the MCP Python SDK's client takes 200 or 204 and
        // warns on anything else.
        if closes_session && response.status() == StatusCode::ACCEPTED {
            *response.status_mut() = StatusCode::NO_CONTENT;
        }
        let response = if is_plain_rejection(&response) {
            with_json_rpc_body(response, &screened).await
        } else {
            response
        };
        Answered { response, claim }
    }

    /// The body as rmcp gets it, with what its JSON-RPC message is, or the answer that
    /// stops it here; `parts` gains what the server is handed beside the body.
    async fn admit(
        &self,
        parts: &mut Parts,
        bytes: Bytes,
        stateless: bool,
    ) -> Result<(Bytes, Screened), HttpResponse> {
        self.check_session(parts).await?;
        self.body_bytes.add(bytes.len());
        let (bytes, mut screened) =
            if parts.method == Method::POST && bytes.len() > LARGE_BODY_BYTES {
                // Reading a large body into JSON takes a while; off the executor, it delays no
                // other request.
                let limits = self.limits;
                run_heavy(move || screen(bytes, &limits, stateless))
                    .await
                    .map_err(|error| internal_failure(&error))??
            } else if parts.method == Method::POST {
                screen(bytes, &self.limits, stateless)?
            } else {
                (bytes, Screened::default())
            };
        if let Some(handoff) = screened.handoff.take() {
            parts.extensions.insert(handoff);
        }
        Ok((bytes, screened))
    }

    /// The caller's right to this request: the session is its own, and its token grants the
    /// scopes of the tool it calls (when a verifier named the caller).
    fn check_caller(
        &self,
        session: Option<&HeaderValue>,
        principal: Option<&Principal>,
        owner: Option<&str>,
        screened: &Screened,
    ) -> Result<(), HttpResponse> {
        let (Some(principal), Some(owner)) = (principal, owner) else {
            return Ok(());
        };
        if let Some(session) = session.and_then(|id| id.to_str().ok())
            && !self.owners.allows(session, owner)
        {
            tracing::warn!(
                subject = principal.subject(),
                "refused a session opened by another caller"
            );
            return Err(reject(
                StatusCode::FORBIDDEN,
                super::reply::UNAUTHORIZED_CODE,
                text::HTTP_SESSION_OF_ANOTHER.to_string(),
                json!({"sessionId": session}),
                &[],
            ));
        }
        let Some(tool) = screened.tool() else {
            return Ok(());
        };
        let registry = self.server.registry();
        let Some(def) = registry.get(tool) else {
            return Ok(());
        };
        // A tool the caller may not see is answered as unknown, by the server: a 403 here
        // would tell that it exists.
        if !self.server.visible(Some(principal), def.info()) {
            return Ok(());
        }
        let missing = def.info().missing_scopes(principal.scopes());
        if missing.is_empty() {
            return Ok(());
        }
        // The challenge names every scope the tool needs, so that the client asks for all
        // of them at once (the MCP spec's scope challenge).
        let needed: Vec<&str> = def.info().scopes().collect();
        let id = screened.id.as_ref().map(|id| json!(id));
        Err(insufficient_scope(
            &self.challenge,
            &needed.join(" "),
            id.as_ref(),
            text::http_tool_scope_missing(tool, &missing.join(" ")),
        ))
    }

    /// Binds the session `response` opened, if any, to `owner`.
    async fn bind_owner(&self, response: &HttpResponse, owner: Arc<str>) {
        let Some(session) = response
            .headers()
            .get(SESSION_HEADER)
            .and_then(|id| id.to_str().ok())
        else {
            return;
        };
        self.owners
            .bind(session, owner, &self.sessions, self.max_sessions)
            .await;
    }

    /// A DELETE of a session that does not exist is a 404: rmcp answers 202 to any id.
    async fn check_session(&self, parts: &Parts) -> Result<(), HttpResponse> {
        if parts.method != Method::DELETE {
            return Ok(());
        }
        let Some(id) = parts.headers.get(SESSION_HEADER) else {
            return Ok(());
        };
        let id = id.to_str().unwrap_or("<not text>");
        // An error of the session store leaves the answer to rmcp.
        let known = self.sessions.has_session(&Arc::from(id)).await;
        if known.unwrap_or(true) {
            return Ok(());
        }
        Err(reject(
            StatusCode::NOT_FOUND,
            ErrorCode::INVALID_REQUEST,
            text::HTTP_SESSION_NOT_FOUND.to_string(),
            json!({"sessionId": id}),
            &[],
        ))
    }

    /// The answer to an `initialize` past the session cap, with its id.
    #[cold]
    fn too_many_sessions(&self, id: Option<&RequestId>) -> HttpResponse {
        let cap = self.session_cap.cap();
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

    /// Claims the id of a request made within `session` (its first `Mcp-Session-Id`), until
    /// its answer is sent; `Err` answers a request whose id is already in flight there.
    fn claim(
        &self,
        session: Option<&HeaderValue>,
        id: Option<&RequestId>,
    ) -> Result<Option<Claim>, HttpResponse> {
        // A session id that is not text names no session rmcp knows: rmcp answers it.
        let (Some(session), Some(id)) = (session.filter(|s| s.to_str().is_ok()), id) else {
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
                Err(json_reply(StatusCode::BAD_REQUEST, &answer))
            }
        }
    }
}

/// `response` with `claim` held until its body is sent or dropped: a stateful answer is a
/// stream that ends once the request is answered, and a client that leaves drops it. (The
/// listener's own answers hold it in their `WatchedBody`, without this boxed layer.)
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
