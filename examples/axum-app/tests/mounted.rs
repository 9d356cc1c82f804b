//! The MCP endpoint mounted in an axum router beside `/health`, over real sockets: the app's
//! own route answers, MCP works through the mount, and every rule of the guard still applies.

use mcp_tool_test_support::http::{HttpServer, POST_HEADERS, Reply, call_body, request};
use serde_json::{Value, json};

const APP: &str = env!("CARGO_BIN_EXE_mcp-tool-example-axum");
const ALICE: (&str, &str) = ("Authorization", "Bearer k-alice");

fn app() -> HttpServer {
    HttpServer::start(
        APP,
        &[
            "--api-key",
            "k-alice=alice:notes",
            "--api-key",
            "k-bob=bob:read",
        ],
        &[],
    )
}

/// Asserts a rejection: status, JSON-RPC code and exact message.
fn assert_rejection(reply: &Reply, status: u16, code: i64, message: &str) {
    assert_eq!(reply.status, status, "{reply:?}");
    let body = reply.json();
    assert_eq!(body["id"], Value::Null, "{body}");
    assert_eq!(body["error"]["code"], code, "{body}");
    assert_eq!(body["error"]["message"], message, "{body}");
}

#[test]
fn the_apps_own_route_answers_beside_the_endpoint() {
    let app = app();
    let reply = request(&app.addr, "GET", "/health", &[], b"");
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body, "ok");
}

#[test]
fn tools_are_called_through_the_mount_with_an_api_key() {
    let app = app();
    let session = app.open_session(&[ALICE]);
    let in_session = [
        ALICE,
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    let saved = app.post(
        &in_session,
        call_body(2, "add_note", json!({"text": "buy milk"})),
    );
    assert_eq!(
        saved.messages()[0]["result"]["content"][0]["text"],
        "note 1 saved",
        "{saved:?}"
    );
    let caller = app.post(&in_session, call_body(5, "whoami", json!({})));
    assert_eq!(
        caller.messages()[0]["result"]["content"][0]["text"],
        "alice"
    );
    let listed = app.post(&in_session, call_body(3, "list_notes", json!({})));
    assert_eq!(
        listed.messages()[0]["result"]["content"][0]["text"],
        "1: buy milk"
    );
    let bad = app.post(&in_session, call_body(4, "add_note", json!({"text": ""})));
    let result = &bad.messages()[0]["result"];
    assert_eq!(result["isError"], true, "{result}");
    assert_eq!(
        result["_meta"]["rs.mcp-tool/error"]["code"], "invalid_arguments",
        "{result}"
    );
}

#[test]
fn tokens_are_checked_by_the_verifier() {
    let app = app();
    let ping = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    assert_rejection(
        &app.post(&[], ping),
        401,
        -32001,
        "Unauthorized: this server requires a bearer token. Send the header 'Authorization: \
         Bearer <token>'.",
    );
    let unknown = app.post(&[("Authorization", "Bearer k-mallory")], ping);
    assert_rejection(
        &unknown,
        401,
        -32001,
        "Unauthorized: the bearer token is not valid (unknown, expired or revoked). Send the \
         header 'Authorization: Bearer <token>' with a valid token.",
    );
    assert_eq!(
        unknown.header("www-authenticate"),
        Some(r#"Bearer realm="mcp", error="invalid_token""#)
    );
    let unscoped = app.post(&[("Authorization", "Bearer k-bob")], ping);
    assert_rejection(
        &unscoped,
        403,
        -32001,
        "Forbidden: the bearer token does not grant the scope 'notes' this server requires. \
         Send a token with that scope.",
    );
    assert_eq!(
        unscoped.header("www-authenticate"),
        Some(r#"Bearer realm="mcp", error="insufficient_scope", scope="notes""#)
    );
}

#[test]
fn every_guard_rule_applies_under_the_mount() {
    let app = app();
    let ping = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let reply = app.post(&[ALICE, ("Host", "evil.example")], ping);
    assert_eq!(reply.status, 403, "{reply:?}");
    assert!(
        reply.json()["error"]["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("Forbidden: Host 'evil.example' is not allowed"))
    );
    let reply = app.post(&[ALICE, ("Origin", "https://evil.example")], ping);
    assert_eq!(reply.status, 403, "{reply:?}");
    assert!(
        reply.json()["error"]["message"].as_str().is_some_and(
            |m| m.starts_with("Forbidden: Origin 'https://evil.example' is not allowed")
        )
    );
    let mut headers = POST_HEADERS.to_vec();
    headers.push(ALICE);
    let reply = request(&app.addr, "PUT", "/mcp", &headers, ping);
    assert_rejection(
        &reply,
        405,
        -32600,
        "Method not allowed: PUT. Use POST with a JSON-RPC message (GET and DELETE manage \
         sessions).",
    );
    let reply = app.post(&[ALICE, ("MCP-Protocol-Version", "1999-01-01")], ping);
    assert_eq!(reply.status, 400, "{reply:?}");
    assert_eq!(reply.json()["error"]["data"]["version"], "1999-01-01");
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"pad":"{}"}}}}"#,
        "x".repeat(300 * 1024)
    );
    let reply = app.post(&[ALICE], big.as_bytes());
    assert_eq!(reply.status, 413, "{reply:?}");
    assert_eq!(reply.json()["error"]["data"]["maxBodyBytes"], 262144);
    let reply = app.post(&[ALICE], b"{oops");
    assert_eq!(reply.status, 400, "{reply:?}");
    assert_eq!(reply.json()["error"]["code"], -32700);
    let reply = app.post(
        &[ALICE, ("Mcp-Session-Id", "no-such-session")],
        br#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    );
    assert_eq!(reply.status, 404, "{reply:?}");
    assert_eq!(reply.json()["error"]["code"], -32600);
}
