//! Opaque access tokens checked by token introspection (RFC 7662), and the resource
//! metadata as `serve_http` publishes it: a server of the test's own on `serve_http_until`,
//! an introspection endpoint (axum) on another port, requests over real sockets.

use std::collections::HashMap;
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing;
use mcp_tool_runtime::http::{IntrospectionVerifier, ProtectedResource};
use mcp_tool_runtime::{HttpOptions, McpServer, ToolContext, ToolDef, ToolInfo, mcp_tool};
use mcp_tool_test_support::http::{POST_HEADERS, Reply, call_body, request};
use serde_json::{Value, json};

/// Who is calling.
#[mcp_tool(read_only, scopes = ["notes:read"])]
async fn whoami(ctx: ToolContext) -> String {
    ctx.principal()
        .map_or("nobody", |caller| caller.subject())
        .to_string()
}

/// A tool built at run time, with a scope of its own.
fn purge_tool() -> ToolDef<()> {
    let info = ToolInfo::from_schema("purge", "Delete every note.", json!({"type": "object"}))
        .expect("a schema")
        .scopes(["notes:admin"])
        .build();
    ToolDef::from_info(info, |_arguments, _ctx| async { "purged".to_string() })
}

/// What the introspection endpoint knows: each token's answer, and how often it was asked.
struct Endpoint {
    answers: Mutex<HashMap<String, Value>>,
    asked: AtomicUsize,
}

/// `notes-server:s3cret`, as HTTP Basic credentials.
const SERVER_CREDENTIALS: &str = "Basic bm90ZXMtc2VydmVyOnMzY3JldA==";

async fn introspect(
    State(endpoint): State<Arc<Endpoint>>,
    headers: HeaderMap,
    body: String,
) -> Response {
    endpoint.asked.fetch_add(1, Ordering::SeqCst);
    let authorized = headers
        .get(header::AUTHORIZATION)
        .is_some_and(|value| value == SERVER_CREDENTIALS);
    if !authorized {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    let token = body
        .split('&')
        .find_map(|pair| pair.strip_prefix("token="))
        .unwrap_or_default()
        .to_string();
    let answer = endpoint
        .answers
        .lock()
        .expect("answers")
        .get(&token)
        .cloned()
        .unwrap_or(json!({"active": false}));
    (
        [(header::CONTENT_TYPE, "application/json")],
        answer.to_string(),
    )
        .into_response()
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970")
        .as_secs()
}

fn bind() -> (TcpListener, String) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.set_nonblocking(true).expect("nonblocking");
    let addr = listener.local_addr().expect("address").to_string();
    (listener, addr)
}

/// The endpoint and a server whose verifier asks it, each on its own port; `credentials`
/// are the server's (`None`: it presents none).
fn start(credentials: Option<(&str, &str)>) -> (Arc<Endpoint>, String) {
    let endpoint = Arc::new(Endpoint {
        answers: Mutex::default(),
        asked: AtomicUsize::new(0),
    });
    let (endpoint_listener, endpoint_addr) = bind();
    let (server_listener, server_addr) = bind();
    let resource = format!("http://{server_addr}/mcp");
    let mut verifier =
        IntrospectionVerifier::new(format!("http://{endpoint_addr}/introspect"), &resource)
            .issuer("http://as.example");
    if let Some((id, secret)) = credentials {
        verifier = verifier.client_credentials(id, secret);
    }
    let options = HttpOptions::default()
        .token_verifier(verifier)
        .protected_resource(
            ProtectedResource::new(&resource).authorization_server("http://as.example"),
        );
    let app = Router::new()
        .route("/introspect", routing::post(introspect))
        .with_state(Arc::clone(&endpoint));
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async move {
            let endpoint = tokio::net::TcpListener::from_std(endpoint_listener).expect("tokio");
            tokio::spawn(async move { axum::serve(endpoint, app).await });
            let listener = tokio::net::TcpListener::from_std(server_listener).expect("tokio");
            let server = McpServer::builder(())
                .tool(whoami_tool())
                .tool(purge_tool())
                .build()
                .expect("a server");
            let _ = server
                .serve_http_until(listener, options, std::future::pending())
                .await;
        });
    });
    (endpoint, server_addr)
}

impl Endpoint {
    fn answer(&self, token: &str, answer: Value) {
        self.answers
            .lock()
            .expect("answers")
            .insert(token.to_string(), answer);
    }

    fn asked(&self) -> usize {
        self.asked.load(Ordering::SeqCst)
    }
}

fn post(addr: &str, extra: &[(&str, &str)], body: &[u8]) -> Reply {
    let mut headers = POST_HEADERS.to_vec();
    headers.extend_from_slice(extra);
    request(addr, "POST", "/mcp", &headers, body)
}

/// A `whoami` call under revision 2026-07-28 (no session) with `token`.
fn whoami_with(addr: &str, token: &str) -> Reply {
    call_with(addr, token, "whoami")
}

/// A call of `tool` under revision 2026-07-28 (no session) with `token`.
fn call_with(addr: &str, token: &str, tool: &str) -> Reply {
    let auth = format!("Bearer {token}");
    let mut call: Value = serde_json::from_str(&call_body(1, tool, json!({}))).expect("json");
    call["params"]["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
    });
    post(
        addr,
        &[
            ("Authorization", auth.as_str()),
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", tool),
        ],
        call.to_string().as_bytes(),
    )
}

fn active(resource: &str) -> Value {
    json!({
        "active": true,
        "sub": "alice",
        "client_id": "notes-client",
        "scope": "notes:read",
        "aud": resource,
        "iss": "http://as.example",
        "exp": now() + 300,
    })
}

fn assert_refused(reply: &Reply, addr: &str, case: &str) {
    assert_eq!(reply.status, 401, "{case}: {reply:?}");
    assert_eq!(
        reply.header("www-authenticate"),
        Some(
            format!(
                r#"Bearer realm="mcp", error="invalid_token", resource_metadata="http://{addr}/.well-known/oauth-protected-resource/mcp""#
            )
            .as_str()
        ),
        "{case}"
    );
}

#[test]
fn opaque_tokens_are_accepted_on_the_endpoints_word_and_refused_otherwise() {
    let (endpoint, addr) = start(Some(("notes-server", "s3cret")));
    let resource = format!("http://{addr}/mcp");
    endpoint.answer("good", active(&resource));
    let reply = whoami_with(&addr, "good");
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(
        reply.messages()[0]["result"]["content"][0]["text"],
        "alice",
        "{reply:?}"
    );
    // Seen before: taken from the cache, the endpoint is not asked again.
    let asked = endpoint.asked();
    assert_eq!(whoami_with(&addr, "good").status, 200);
    assert_eq!(endpoint.asked(), asked);
    let refused = [
        ("inactive", json!({"active": false})),
        ("another audience", json!({"aud": "http://127.0.0.1:1/mcp"})),
        ("no audience", json!({"aud": null})),
        ("expired", json!({"exp": now() - 5})),
        ("another issuer", json!({"iss": "http://evil.example"})),
    ];
    for (case, change) in refused {
        let mut answer = active(&resource);
        for (name, value) in change.as_object().expect("an object") {
            let fields = answer.as_object_mut().expect("an object");
            if value.is_null() {
                fields.remove(name);
            } else {
                fields.insert(name.clone(), value.clone());
            }
        }
        let token = case.replace(' ', "-");
        endpoint.answer(&token, answer);
        assert_refused(&whoami_with(&addr, &token), &addr, case);
    }
    assert_refused(&whoami_with(&addr, "never-issued"), &addr, "unknown");
    // A tool built at run time with a scope the token lacks: the scope challenge.
    let purge = call_with(&addr, "good", "purge");
    assert_eq!(purge.status, 403, "{purge:?}");
    assert!(
        purge.header("www-authenticate").is_some_and(
            |value| value.contains(r#"error="insufficient_scope", scope="notes:admin""#)
        ),
        "{purge:?}"
    );
    let mut admin = active(&resource);
    admin["scope"] = json!("notes:read notes:admin");
    endpoint.answer("admin", admin);
    let purged = call_with(&addr, "admin", "purge");
    assert_eq!(
        purged.messages()[0]["result"]["content"][0]["text"],
        "purged",
        "{purged:?}"
    );
    // A token without the tool's scope gets the scope challenge.
    let mut reader_of_nothing = active(&resource);
    reader_of_nothing["scope"] = json!("profile");
    endpoint.answer("unscoped", reader_of_nothing);
    let challenged = whoami_with(&addr, "unscoped");
    assert_eq!(challenged.status, 403, "{challenged:?}");
    assert!(
        challenged.header("www-authenticate").is_some_and(
            |value| value.contains(r#"error="insufficient_scope", scope="notes:read""#)
        ),
        "{challenged:?}"
    );
}

#[test]
fn a_server_without_the_endpoints_credentials_accepts_nothing() {
    let (endpoint, addr) = start(None);
    endpoint.answer("good", active(&format!("http://{addr}/mcp")));
    assert_refused(&whoami_with(&addr, "good"), &addr, "no credentials");
    assert_eq!(endpoint.asked(), 1);
}

#[test]
fn serve_http_publishes_the_metadata_at_both_well_known_paths() {
    let (_endpoint, addr) = start(Some(("notes-server", "s3cret")));
    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let reply = request(&addr, "GET", path, &[], b"");
        assert_eq!(reply.status, 200, "{path}: {reply:?}");
        assert_eq!(
            reply.json(),
            json!({
                "resource": format!("http://{addr}/mcp"),
                "authorization_servers": ["http://as.example"],
                "scopes_supported": ["notes:admin", "notes:read"],
                "bearer_methods_supported": ["header"],
            })
        );
    }
    let reply = request(
        &addr,
        "POST",
        "/.well-known/oauth-protected-resource",
        &[],
        b"",
    );
    assert_eq!(reply.status, 405, "{reply:?}");
    let reply = request(&addr, "GET", "/.well-known/other", &[], b"");
    assert_eq!(reply.status, 404, "{reply:?}");
}
