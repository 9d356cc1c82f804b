//! What a bearer token costs a call: a static token against a JWT access token
//! (`JwtVerifier`), the BENCHMARKS.md table "Access tokens".
//!
//! ```text
//! cargo run --release -p mcp-tool-bench --bin auth_cost -- [--calls 20000] [--rounds 5]
//! ```
//!
//! Two measures, each the median of interleaved rounds (the calls in batches of
//! `calls / 80`, 20 a round):
//! - the verifier alone (`TokenVerifier::verify`): a static token, a JWT seen before (the
//!   cache), and a JWT never seen (one signature check) for RS256, ES256 and EdDSA;
//! - a whole `tools/call` through the HTTP service (guard, screen, rmcp, the tool; no
//!   socket), with no token, a static token and a JWT seen before.
//!
//! `--only none|static|jwt --count N` runs only that service's call N times, for callgrind:
//! `valgrind --tool=callgrind target/release/auth_cost --only jwt --count 1200` (and 200;
//! the difference over 1,000 is a call's instructions).
//!
//! The issuer is a `Fetcher` in memory, which counts its requests: the run checks that none
//! is made on the call path once the keys are held.

use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use jsonwebtoken::Algorithm;
use jsonwebtoken::jwk::JwkSet;
use mcp_tool_bench::http_load::median;
use mcp_tool_runtime::http::{
    BoxFuture, FetchError, Fetcher, HttpService, JwtVerifier, StaticToken, TokenVerifier,
};
use mcp_tool_runtime::{HttpOptions, McpServer, mcp_tool};
use mcp_tool_test_support::jwt::SigningKey;
use serde_json::{Value, json};
use tower_service::Service;

const ISSUER: &str = "http://issuer.bench";
const AUDIENCE: &str = "http://127.0.0.1:8080/mcp";

/// Echo a word.
#[mcp_tool(read_only)]
async fn echo(word: String) -> String {
    word
}

/// The issuer's documents, served from memory; every request counted.
struct MemoryIssuer {
    keys: Value,
    requests: Arc<AtomicUsize>,
}

impl Fetcher for MemoryIssuer {
    fn get_json<'a>(&'a self, url: &'a str) -> BoxFuture<'a, Result<Value, FetchError>> {
        self.requests.fetch_add(1, Ordering::SeqCst);
        let answer = if url.ends_with("/jwks") {
            Ok(self.keys.clone())
        } else if url.contains("/.well-known/oauth-authorization-server") {
            Ok(json!({"issuer": ISSUER, "jwks_uri": format!("{ISSUER}/jwks")}))
        } else {
            Err(FetchError::BadAnswer(url.to_string()))
        };
        Box::pin(std::future::ready(answer))
    }

    fn post_form<'a>(
        &'a self,
        url: &'a str,
        _form: &'a [(&'a str, &'a str)],
        _authorization: Option<&'a str>,
    ) -> BoxFuture<'a, Result<Value, FetchError>> {
        Box::pin(std::future::ready(Err(FetchError::BadAnswer(url.into()))))
    }
}

fn sign(key: &SigningKey, n: usize) -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let claims = json!({
        "iss": ISSUER, "aud": AUDIENCE, "sub": "alice", "client_id": "bench",
        "scope": "notes:read notes:write", "iat": now, "exp": now + 3600, "jti": n,
    });
    key.sign(&claims)
}

fn option(name: &str) -> Option<usize> {
    std::env::args()
        .skip_while(|arg| arg != name)
        .nth(1)
        .and_then(|n| n.parse().ok())
}

/// Nanoseconds per run of `call`, over `calls` runs.
fn per_call(calls: usize, mut call: impl FnMut(usize)) -> f64 {
    let start = Instant::now();
    for n in 0..calls {
        call(n);
    }
    start.elapsed().as_nanos() as f64 / calls as f64
}

fn verify(runtime: &tokio::runtime::Runtime, verifier: &dyn TokenVerifier, token: &str) {
    let principal = runtime.block_on(verifier.verify(token));
    assert!(principal.is_ok(), "refused: {principal:?}");
    black_box(principal).ok();
}

fn call_request(token: Option<&str>) -> http::Request<Full<Bytes>> {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"word":"hi"}}}"#;
    let mut request = http::Request::post("/mcp")
        .header("host", "127.0.0.1:8080")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-11-25");
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    request
        .body(Full::new(Bytes::from(body)))
        .expect("a request")
}

fn service(options: HttpOptions) -> HttpService<()> {
    McpServer::builder(())
        .tool(echo_tool())
        .build()
        .expect("a server")
        .http_service(options.stateless(true))
}

fn serve(runtime: &tokio::runtime::Runtime, service: &mut HttpService<()>, token: Option<&str>) {
    let response = runtime.block_on(async {
        let response = service.call(call_request(token)).await.expect("infallible");
        let status = response.status();
        let body = response
            .into_body()
            .collect()
            .await
            .expect("a body")
            .to_bytes();
        (status, body)
    });
    assert_eq!(response.0, 200, "{:?}", response.1);
    black_box(response);
}

fn main() {
    let calls = option("--calls").unwrap_or(20_000);
    let rounds = option("--rounds").unwrap_or(5);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let _entered = runtime.enter();
    let keys = [
        SigningKey::load(
            "rsa",
            Algorithm::RS256,
            include_bytes!("../../../examples/axum-app/tests/keys/rsa-a.pem"),
        ),
        SigningKey::load(
            "ec",
            Algorithm::ES256,
            include_bytes!("../../../examples/axum-app/tests/keys/ec.pem"),
        ),
        SigningKey::load(
            "ed",
            Algorithm::EdDSA,
            include_bytes!("../../../examples/axum-app/tests/keys/ed.pem"),
        ),
    ];
    let requests = Arc::new(AtomicUsize::new(0));
    let issuer = || MemoryIssuer {
        keys: serde_json::to_value(JwkSet {
            keys: keys.iter().map(|key| key.public.clone()).collect(),
        })
        .expect("a key set"),
        requests: Arc::clone(&requests),
    };
    let jwt = JwtVerifier::new(ISSUER, AUDIENCE).fetcher(issuer());
    runtime.block_on(jwt.refresh()).expect("the keys");
    let fetched = requests.load(Ordering::SeqCst);
    let fixed = StaticToken::new("s3cret-static-token-of-some-length");
    let seen = sign(&keys[0], 0);
    verify(&runtime, &jwt, &seen);
    if let Some(only) = std::env::args().skip_while(|arg| arg != "--only").nth(1) {
        let (mut service, token) = match only.as_str() {
            "none" => (service(HttpOptions::default()), None),
            "static" => (
                service(HttpOptions::default().bearer_token("s3cret-static-token-of-some-length")),
                Some("s3cret-static-token-of-some-length"),
            ),
            _ => (
                service(HttpOptions::default().token_verifier(jwt)),
                Some(seen.as_str()),
            ),
        };
        for _ in 0..option("--count").unwrap_or(1000) {
            serve(&runtime, &mut service, token);
        }
        return;
    }

    let mut table: Vec<(&str, Vec<f64>)> = Vec::new();
    let mut record = |name: &'static str, ns: f64| match table.iter_mut().find(|(n, _)| *n == name)
    {
        Some((_, values)) => values.push(ns),
        None => table.push((name, vec![ns])),
    };
    let fresh: Vec<Vec<String>> = keys
        .iter()
        .map(|key| {
            (0..(calls / 20).max(50) * rounds)
                .map(|n| sign(key, n + 1))
                .collect()
        })
        .collect();
    let mut no_auth = service(HttpOptions::default());
    let mut with_static =
        service(HttpOptions::default().bearer_token("s3cret-static-token-of-some-length"));
    let mut with_jwt = service(
        HttpOptions::default().token_verifier(JwtVerifier::new(ISSUER, AUDIENCE).fetcher(issuer())),
    );
    serve(&runtime, &mut with_jwt, Some(&seen));
    for round in 0..rounds {
        record(
            "verify: static token",
            per_call(calls, |_| {
                verify(&runtime, &fixed, "s3cret-static-token-of-some-length")
            }),
        );
        record(
            "verify: JWT seen before",
            per_call(calls, |_| verify(&runtime, &jwt, &seen)),
        );
        for (key, tokens) in keys.iter().zip(&fresh) {
            let per_round = tokens.len() / rounds;
            let slice = &tokens[round * per_round..(round + 1) * per_round];
            let name = match key.alg {
                Algorithm::RS256 => "verify: new JWT, RS256",
                Algorithm::ES256 => "verify: new JWT, ES256",
                _ => "verify: new JWT, EdDSA",
            };
            record(
                name,
                per_call(slice.len(), |n| verify(&runtime, &jwt, &slice[n])),
            );
        }
        let http_calls = calls / 4;
        record(
            "tools/call: no token",
            per_call(http_calls, |_| serve(&runtime, &mut no_auth, None)),
        );
        record(
            "tools/call: static token",
            per_call(http_calls, |_| {
                serve(
                    &runtime,
                    &mut with_static,
                    Some("s3cret-static-token-of-some-length"),
                )
            }),
        );
        record(
            "tools/call: JWT seen before",
            per_call(http_calls, |_| serve(&runtime, &mut with_jwt, Some(&seen))),
        );
    }
    assert_eq!(
        requests.load(Ordering::SeqCst),
        fetched + 2,
        "the issuer was asked on the call path"
    );
    println!("| measure | median µs/call ({rounds} rounds) |");
    println!("| --- | ---: |");
    for (name, values) in table {
        println!("| {name} | {:.2} |", median(values) / 1000.0);
    }
}
