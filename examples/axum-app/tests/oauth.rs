//! The axum app as an OAuth 2.1 resource server, over real sockets: an authorization
//! server's metadata and keys served by the test (a small axum app on its own port), tokens
//! signed here with fixture keys, and every refusal the MCP authorization spec asks for.
//! The issuer also speaks `https://`, with a certificate made by the test.

use std::net::TcpListener;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use mcp_tool_test_support::http::{HttpServer, Reply, call_body, initialize_body, request};
use mcp_tool_test_support::jwt::SigningKey;
use serde_json::{Value, json};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::rustls::crypto::ring;
use tokio_rustls::rustls::pki_types::PrivateKeyDer;

const APP: &str = env!("CARGO_BIN_EXE_mcp-tool-example-axum");

/// The fixture keys of the test's issuer (tests/keys).
mod fixture {
    use jsonwebtoken::Algorithm;
    use mcp_tool_test_support::jwt::SigningKey;

    pub fn rsa_a() -> SigningKey {
        SigningKey::load("rsa-a", Algorithm::RS256, include_bytes!("keys/rsa-a.pem"))
    }

    pub fn rsa_b() -> SigningKey {
        SigningKey::load("rsa-b", Algorithm::RS256, include_bytes!("keys/rsa-b.pem"))
    }

    pub fn ec() -> SigningKey {
        SigningKey::load("ec", Algorithm::ES256, include_bytes!("keys/ec.pem"))
    }

    pub fn ed() -> SigningKey {
        SigningKey::load("ed", Algorithm::EdDSA, include_bytes!("keys/ed.pem"))
    }
}

/// What the test's authorization server serves, changed by the tests as they go.
struct IssuerState {
    url: String,
    keys: Mutex<Vec<Jwk>>,
    key_fetches: AtomicUsize,
    down: AtomicBool,
}

/// An authorization server's metadata (RFC 8414) and key set on 127.0.0.1, served from a
/// thread of its own for as long as the test runs.
struct Issuer {
    state: Arc<IssuerState>,
}

impl Issuer {
    fn start(keys: &[&SigningKey]) -> Self {
        Self::serve(keys, None)
    }

    /// The issuer at an `https://` URL, with a certificate for 127.0.0.1 made now; and that
    /// certificate (PEM), which no system's trust store holds.
    fn start_https(keys: &[&SigningKey]) -> (Self, String) {
        let made = rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_string()])
            .expect("a self-signed certificate");
        let key = PrivateKeyDer::Pkcs8(made.signing_key.serialize_der().into());
        let config = ServerConfig::builder_with_provider(Arc::new(ring::default_provider()))
            .with_safe_default_protocol_versions()
            .expect("TLS versions")
            .with_no_client_auth()
            .with_single_cert(vec![made.cert.der().clone()], key)
            .expect("the certificate and its key");
        let issuer = Self::serve(keys, Some(TlsAcceptor::from(Arc::new(config))));
        (issuer, made.cert.pem())
    }

    fn serve(keys: &[&SigningKey], tls: Option<TlsAcceptor>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the issuer");
        listener.set_nonblocking(true).expect("nonblocking");
        let scheme = if tls.is_some() { "https" } else { "http" };
        let url = format!("{scheme}://{}", listener.local_addr().expect("its address"));
        let state = Arc::new(IssuerState {
            url,
            keys: Mutex::new(keys.iter().map(|key| key.public.clone()).collect()),
            key_fetches: AtomicUsize::new(0),
            down: AtomicBool::new(false),
        });
        let app = Router::new()
            .route("/.well-known/oauth-authorization-server", get(metadata))
            .route("/jwks", get(key_set))
            .with_state(Arc::clone(&state));
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime");
            runtime.block_on(async move {
                let tcp = tokio::net::TcpListener::from_std(listener).expect("tokio");
                let _ = match tls {
                    None => axum::serve(tcp, app).await,
                    Some(acceptor) => axum::serve(TlsListener { tcp, acceptor }, app).await,
                };
            });
        });
        Self { state }
    }

    fn url(&self) -> &str {
        &self.state.url
    }

    fn publish(&self, keys: &[&SigningKey]) {
        *self.state.keys.lock().expect("keys") =
            keys.iter().map(|key| key.public.clone()).collect();
    }

    fn key_fetches(&self) -> usize {
        self.state.key_fetches.load(Ordering::SeqCst)
    }

    fn set_down(&self, down: bool) {
        self.state.down.store(down, Ordering::SeqCst);
    }
}

/// The issuer's socket with TLS in front: connections whose handshake succeeds.
struct TlsListener {
    tcp: tokio::net::TcpListener,
    acceptor: TlsAcceptor,
}

impl axum::serve::Listener for TlsListener {
    type Io = tokio_rustls::server::TlsStream<tokio::net::TcpStream>;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            let (stream, addr) = axum::serve::Listener::accept(&mut self.tcp).await;
            // A client that does not trust the certificate ends its handshake; the next
            // connection is served.
            if let Ok(tls) = self.acceptor.accept(stream).await {
                return (tls, addr);
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        self.tcp.local_addr()
    }
}

async fn metadata(State(state): State<Arc<IssuerState>>) -> Response {
    if state.down.load(Ordering::SeqCst) {
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    }
    let url = &state.url;
    json_response(&json!({
        "issuer": url,
        "authorization_endpoint": format!("{url}/authorize"),
        "token_endpoint": format!("{url}/token"),
        "jwks_uri": format!("{url}/jwks"),
        "response_types_supported": ["code"],
    }))
}

fn json_response(body: &Value) -> Response {
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

async fn key_set(State(state): State<Arc<IssuerState>>) -> Response {
    if state.down.load(Ordering::SeqCst) {
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    }
    state.key_fetches.fetch_add(1, Ordering::SeqCst);
    let keys = state.keys.lock().expect("keys").clone();
    json_response(&serde_json::to_value(JwkSet { keys }).expect("a key set"))
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970")
        .as_secs()
}

/// The app as a resource server of `issuer`, with one API key beside it.
fn resource_server(issuer: &Issuer) -> HttpServer {
    resource_server_with(issuer, &[])
}

/// [`resource_server`] with the options `more`.
fn resource_server_with(issuer: &Issuer, more: &[&str]) -> HttpServer {
    let mut args = vec![
        "--oauth-issuer",
        issuer.url(),
        "--api-key",
        "k-carol=carol:notes",
    ];
    args.extend_from_slice(more);
    HttpServer::start(APP, &args, &[])
}

/// The claims of a good token for `app` from `issuer`: alice, both scopes, five minutes.
fn claims(issuer: &Issuer, app: &HttpServer) -> Value {
    json!({
        "iss": issuer.url(),
        "aud": app.url(),
        "sub": "alice",
        "client_id": "notes-client",
        "scope": "notes:read notes:write",
        "iat": now(),
        "exp": now() + 300,
        "jti": uuid(),
    })
}

/// A unique id, so that no two tokens are the same (the app keeps tokens it accepted).
fn uuid() -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    format!("t-{}-{}", now(), NEXT.fetch_add(1, Ordering::SeqCst))
}

fn with(mut claims: Value, name: &str, value: Value) -> Value {
    claims[name] = value;
    claims
}

fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

fn metadata_url(app: &HttpServer) -> String {
    format!(
        "http://{}/.well-known/oauth-protected-resource/mcp",
        app.addr
    )
}

/// `initialize` with `token`: the first request of every client.
fn ping(app: &HttpServer, token: &str) -> Reply {
    let auth = bearer(token);
    app.post(&[("Authorization", auth.as_str())], initialize_body())
}

fn assert_accepted(reply: &Reply) {
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(
        reply.messages()[0]["result"]["protocolVersion"],
        "2025-11-25",
        "{reply:?}"
    );
}

/// A 401 for a presented but refused token: `error="invalid_token"` and the metadata.
fn assert_invalid_token(reply: &Reply, app: &HttpServer, case: &str) {
    assert_eq!(reply.status, 401, "{case}: {reply:?}");
    assert_eq!(
        reply.header("www-authenticate"),
        Some(
            format!(
                r#"Bearer realm="mcp", error="invalid_token", resource_metadata="{}""#,
                metadata_url(app)
            )
            .as_str()
        ),
        "{case}"
    );
    assert_eq!(reply.json()["error"]["code"], -32001, "{case}");
}

/// `text` of the first content block of a call's answer.
fn text_of(reply: &Reply) -> Value {
    reply.messages()[0]["result"]["content"][0]["text"].clone()
}

#[test]
fn the_metadata_is_published_at_both_well_known_paths_and_named_by_the_challenge() {
    let key = fixture::rsa_a();
    let issuer = Issuer::start(&[&key]);
    let app = resource_server(&issuer);
    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let reply = request(&app.addr, "GET", path, &[], b"");
        assert_eq!(reply.status, 200, "{path}: {reply:?}");
        assert_eq!(
            reply.json(),
            json!({
                "resource": app.url(),
                "authorization_servers": [issuer.url()],
                "scopes_supported": ["notes:read", "notes:write"],
                "bearer_methods_supported": ["header"],
                "resource_name": "Notes",
            }),
            "{path}"
        );
    }
    let reply = app.post(&[], br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
    assert_eq!(reply.status, 401, "{reply:?}");
    assert_eq!(
        reply.header("www-authenticate"),
        Some(
            format!(
                r#"Bearer realm="mcp", resource_metadata="{}""#,
                metadata_url(&app)
            )
            .as_str()
        )
    );
}

#[test]
fn tokens_call_the_tools_their_scopes_allow_and_get_a_scope_challenge_for_the_others() {
    let key = fixture::rsa_a();
    let issuer = Issuer::start(&[&key]);
    let app = resource_server(&issuer);
    let reader = key.sign(&with(claims(&issuer, &app), "scope", json!("notes:read")));
    let reader = bearer(&reader);
    let session = app.open_session(&[("Authorization", reader.as_str())]);
    let as_reader = [
        ("Authorization", reader.as_str()),
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    let whoami = app.post(&as_reader, call_body(2, "whoami", json!({})));
    assert_eq!(text_of(&whoami), "alice", "{whoami:?}");
    let denied = app.post(
        &as_reader,
        call_body(3, "add_note", json!({"text": "milk"})),
    );
    assert_eq!(denied.status, 403, "{denied:?}");
    assert_eq!(
        denied.header("www-authenticate"),
        Some(
            format!(
                r#"Bearer realm="mcp", error="insufficient_scope", scope="notes:write", resource_metadata="{}""#,
                metadata_url(&app)
            )
            .as_str()
        )
    );
    let body = denied.json();
    assert_eq!(body["id"], 3, "{body}");
    assert_eq!(
        body["error"]["message"],
        "Forbidden: calling tool 'add_note' needs the scope 'notes:write', which the bearer \
         token does not grant. Ask the authorization server for a token with that scope, then \
         call again."
    );
    // The same caller steps up with a token that has the scope, on the same session.
    let writer = bearer(&key.sign(&claims(&issuer, &app)));
    let as_writer = [
        ("Authorization", writer.as_str()),
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    let saved = app.post(
        &as_writer,
        call_body(4, "add_note", json!({"text": "milk"})),
    );
    assert_eq!(text_of(&saved), "note 1 saved", "{saved:?}");
    let listed = app.post(&as_reader, call_body(5, "list_notes", json!({})));
    assert_eq!(text_of(&listed), "1: milk", "{listed:?}");
    // API keys work beside the tokens.
    let carol = [("Authorization", "Bearer k-carol")];
    let carols = app.open_session(&carol);
    let as_carol = [
        carol[0],
        ("Mcp-Session-Id", carols.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    let caller = app.post(&as_carol, call_body(6, "whoami", json!({})));
    assert_eq!(text_of(&caller), "carol", "{caller:?}");
}

#[test]
fn every_token_not_issued_for_this_server_by_its_issuer_is_refused() {
    let (rsa, ec, ed, other) = (
        fixture::rsa_a(),
        fixture::ec(),
        fixture::ed(),
        fixture::rsa_b(),
    );
    let issuer = Issuer::start(&[&rsa, &ec, &ed]);
    let app = resource_server(&issuer);
    let good = claims(&issuer, &app);
    // Each refused token below differs from this accepted one in one thing.
    assert_accepted(&ping(&app, &rsa.sign(&good)));
    for key in [&rsa, &ec, &ed] {
        assert_accepted(&ping(&app, &key.sign(&claims(&issuer, &app))));
    }
    let mut no_exp = good.clone();
    no_exp.as_object_mut().map(|claims| claims.remove("exp"));
    // Signed by another key under the name of the issuer's.
    let forged = SigningKey {
        kid: "rsa-a",
        ..fixture::rsa_b()
    };
    let public_pem = include_bytes!("keys/rsa-a.pub.pem");
    let hmac_with_public_key = {
        let mut header = Header::new(Algorithm::HS256);
        header.kid = Some("rsa-a".into());
        encode(&header, &good, &EncodingKey::from_secret(public_pem)).expect("HS256")
    };
    let alg_none = format!(
        "{}.{}.",
        base64_url(br#"{"alg":"none","typ":"at+jwt","kid":"rsa-a"}"#),
        base64_url(good.to_string().as_bytes())
    );
    let cases = [
        (
            "expired",
            rsa.sign(&with(good.clone(), "exp", json!(now() - 120))),
        ),
        (
            "not yet valid",
            rsa.sign(&with(good.clone(), "nbf", json!(now() + 300))),
        ),
        (
            "wrong audience",
            rsa.sign(&with(good.clone(), "aud", json!("http://127.0.0.1:1/mcp"))),
        ),
        (
            "wrong issuer",
            rsa.sign(&with(good.clone(), "iss", json!("http://evil.example"))),
        ),
        ("no expiry", rsa.sign(&no_exp)),
        ("bad signature", forged.sign(&good)),
        ("alg none", alg_none),
        ("HMAC with the public key", hmac_with_public_key),
        ("a key the issuer never published", other.sign(&good)),
    ];
    for (case, token) in cases {
        assert_invalid_token(&ping(&app, &token), &app, case);
    }
}

/// base64url without padding, for a hand-made token.
fn base64_url(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

#[test]
fn an_unknown_key_id_fetches_the_keys_again_at_most_once_per_cooldown() {
    let (a, b) = (fixture::rsa_a(), fixture::rsa_b());
    let issuer = Issuer::start(&[&a]);
    let app = resource_server(&issuer);
    assert_accepted(&ping(&app, &a.sign(&claims(&issuer, &app))));
    let fetched = issuer.key_fetches();
    assert_eq!(fetched, 1, "the keys are fetched once at startup");
    // The issuer rotates to b: the first token signed with it makes the app fetch again.
    issuer.publish(&[&b]);
    assert_accepted(&ping(&app, &b.sign(&claims(&issuer, &app))));
    assert_eq!(issuer.key_fetches(), 2);
    // a was withdrawn: a new token signed with it is refused, and a flood of unknown key
    // ids costs the issuer nothing more within the cooldown.
    for _ in 0..3 {
        assert_invalid_token(
            &ping(&app, &a.sign(&claims(&issuer, &app))),
            &app,
            "withdrawn",
        );
    }
    assert_eq!(issuer.key_fetches(), 2);
    // Tokens signed with b, seen or not, cost no fetch.
    let token = b.sign(&claims(&issuer, &app));
    for _ in 0..3 {
        assert_accepted(&ping(&app, &token));
        assert_accepted(&ping(&app, &b.sign(&claims(&issuer, &app))));
    }
    assert_eq!(issuer.key_fetches(), 2);
}

#[test]
fn while_the_issuer_is_down_the_keys_held_still_check_new_tokens() {
    let key = fixture::rsa_a();
    let issuer = Issuer::start(&[&key]);
    let app = resource_server(&issuer);
    let seen = key.sign(&claims(&issuer, &app));
    assert_accepted(&ping(&app, &seen));
    issuer.set_down(true);
    assert_accepted(&ping(&app, &seen));
    assert_accepted(&ping(&app, &key.sign(&claims(&issuer, &app))));
    let unknown = fixture::rsa_b().sign(&claims(&issuer, &app));
    assert_invalid_token(&ping(&app, &unknown), &app, "unknown key, issuer down");
    assert_accepted(&ping(&app, &key.sign(&claims(&issuer, &app))));
    assert_eq!(issuer.key_fetches(), 1);
}

#[test]
fn a_token_in_the_query_string_is_refused_even_beside_a_good_header() {
    let key = fixture::rsa_a();
    let issuer = Issuer::start(&[&key]);
    let app = resource_server(&issuer);
    let token = key.sign(&claims(&issuer, &app));
    let auth = bearer(&token);
    let path = format!("/mcp?access_token={token}");
    let body = initialize_body();
    let body = body.as_bytes();
    let mut headers = mcp_tool_test_support::http::POST_HEADERS.to_vec();
    for extra in [None, Some(("Authorization", auth.as_str()))] {
        let mut headers = headers.clone();
        headers.extend(extra);
        let reply = request(&app.addr, "POST", &path, &headers, body);
        assert_eq!(reply.status, 400, "{reply:?}");
        assert_eq!(
            reply.header("www-authenticate"),
            Some(
                format!(
                    r#"Bearer realm="mcp", error="invalid_request", resource_metadata="{}""#,
                    metadata_url(&app)
                )
                .as_str()
            )
        );
        assert!(
            reply.json()["error"]["message"].as_str().is_some_and(|m| m
                .starts_with("Bad request: this server never accepts a token in the query string")),
            "{reply:?}"
        );
    }
    headers.push(("Authorization", auth.as_str()));
    assert_accepted(&request(&app.addr, "POST", "/mcp", &headers, body));
}

#[test]
fn a_session_is_refused_to_another_callers_token() {
    let key = fixture::rsa_a();
    let issuer = Issuer::start(&[&key]);
    let app = resource_server(&issuer);
    let alice = bearer(&key.sign(&claims(&issuer, &app)));
    let bob = bearer(&key.sign(&with(claims(&issuer, &app), "sub", json!("bob"))));
    let session = app.open_session(&[("Authorization", alice.as_str())]);
    let in_session = |auth: &str, id: u64| {
        app.post(
            &[
                ("Authorization", auth),
                ("Mcp-Session-Id", session.as_str()),
                ("MCP-Protocol-Version", "2025-11-25"),
            ],
            call_body(id, "whoami", json!({})),
        )
    };
    let stolen = in_session(&bob, 2);
    assert_eq!(stolen.status, 403, "{stolen:?}");
    assert_eq!(
        stolen.json()["error"]["message"],
        "Forbidden: this session was opened with another caller's token; a session belongs \
         to the caller that opened it. Use your own session: send 'initialize' without an \
         Mcp-Session-Id header."
    );
    let own = in_session(&alice, 3);
    assert_eq!(text_of(&own), "alice", "{own:?}");
    // An API key's holder is another caller too.
    let carol = in_session("Bearer k-carol", 4);
    assert_eq!(carol.status, 403, "{carol:?}");
}

#[test]
fn an_https_issuer_trusted_through_an_extra_root_certificate_checks_tokens() {
    let key = fixture::rsa_a();
    let (issuer, certificate) = Issuer::start_https(&[&key]);
    assert!(
        issuer.url().starts_with("https://127.0.0.1:"),
        "{}",
        issuer.url()
    );
    let root = std::env::temp_dir().join(format!("mcp-tool-oauth-root-{}.pem", uuid()));
    std::fs::write(&root, &certificate).expect("write the root certificate");
    let root_arg = root.to_str().expect("a UTF-8 temporary path");
    let app = resource_server_with(&issuer, &["--oauth-root-cert", root_arg]);
    assert_accepted(&ping(&app, &key.sign(&claims(&issuer, &app))));
    let unknown = fixture::rsa_b().sign(&claims(&issuer, &app));
    assert_invalid_token(&ping(&app, &unknown), &app, "unknown key, https issuer");
    // The keys came over TLS: at start, and once more for the unknown key id.
    assert_eq!(issuer.key_fetches(), 2);
    let _ = std::fs::remove_file(&root);
}

#[test]
fn an_https_issuer_whose_certificate_no_root_vouches_for_is_refused_as_unreachable() {
    let key = fixture::rsa_a();
    let (issuer, _certificate) = Issuer::start_https(&[&key]);
    let app = resource_server(&issuer);
    let good = key.sign(&claims(&issuer, &app));
    assert_invalid_token(&ping(&app, &good), &app, "issuer's certificate not trusted");
    assert_eq!(issuer.key_fetches(), 0);
}
