//! The HTTP rules of revision 2026-07-28 beside those of 2025-11-25, over sockets on
//! 127.0.0.1: a method the request's revision lacks is a 404 with -32601, an unsupported
//! version is an `UnsupportedProtocolVersionError`, a missing client capability is a 400,
//! and every error of such a request carries its id, and rmcp checks `Mcp-Param-*` headers
//! against the arguments of small and large calls alike. The same mistakes in a 2025-11-25
//! request are answered as they always were.

use mcp_tool_runtime::{HttpOptions, McpServer, ToolDef, ToolError, mcp_tool};
use mcp_tool_test_support::http::{HttpServer, POST_HEADERS, Reply, initialize_body, request};
use mcp_tool_test_support::in_process::serve_http;
use rmcp::model::{
    ClientCapabilities, CompleteRequestParams, CompleteResult, ErrorData, ServerCapabilities,
    ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler};
use serde_json::{Value, json};

const INVENTORY: &str = env!("CARGO_BIN_EXE_inventory");

/// What the inventory server implements in revision 2026-07-28.
const METHODS_2026: &str = "server/discover, tools/list, tools/call, subscriptions/listen, resources/list, \
                            resources/templates/list, resources/read, prompts/list, prompts/get, \
                            completion/complete";

const SUPPORTED_VERSIONS: &str = "2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05";

/// The `_meta` every 2026-07-28 request carries.
fn meta_2026() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "e2e", "version": "1"},
    })
}

/// A 2026-07-28 request: `params` with the revision's `_meta`.
fn request_2026(id: Value, method: &str, mut params: Value) -> String {
    params["_meta"] = meta_2026();
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

/// POSTs a 2026-07-28 request with the headers such a client sends.
fn post_2026(server: &HttpServer, id: Value, method: &str, params: Value) -> Reply {
    let headers = [
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", method),
    ];
    server.post(&headers, request_2026(id, method, params))
}

/// Asserts a JSON answer with `status` whose body is exactly `body`.
fn assert_json(reply: &Reply, status: u16, body: &Value) {
    assert_eq!(reply.status, status, "{reply:?}");
    assert_eq!(
        reply.header("content-type"),
        Some("application/json"),
        "{reply:?}"
    );
    assert_eq!(&reply.json(), body, "{reply:?}");
}

fn removed(method: &str) -> String {
    format!(
        "Method not found: '{method}' is not part of protocol revision 2026-07-28, which the \
         request names in its _meta; it belongs to the revisions with the 'initialize' handshake \
         (2025-11-25 and earlier). In revision 2026-07-28 this server implements: {METHODS_2026}."
    )
}

fn methods_2026() -> Value {
    json!(METHODS_2026.split(", ").collect::<Vec<_>>())
}

#[test]
fn methods_that_2026_removed_get_404_and_minus_32601_with_the_request_id() {
    for args in [&[][..], &["--stateless"]] {
        let server = HttpServer::start(INVENTORY, args, &[]);
        let cases = [
            (json!(10), "initialize", json!({})),
            // Well-formed 2025-11-25 params do not bring the handshake back.
            (
                json!("init"),
                "initialize",
                json!({"protocolVersion": "2026-07-28", "capabilities": {},
                       "clientInfo": {"name": "e2e", "version": "1"}}),
            ),
            (json!(12), "ping", json!({})),
            (json!(13), "logging/setLevel", json!({"level": "info"})),
            (
                json!(14),
                "resources/subscribe",
                json!({"uri": "inventory://x"}),
            ),
            (
                json!(15),
                "resources/unsubscribe",
                json!({"uri": "inventory://x"}),
            ),
        ];
        for (id, method, params) in cases {
            let reply = post_2026(&server, id.clone(), method, params);
            let data = json!({"method": method, "protocolVersion": "2026-07-28",
                              "supported": methods_2026()});
            let answer = json!({"jsonrpc": "2.0", "id": id,
                "error": {"code": -32601, "message": removed(method), "data": data}});
            assert_json(&reply, 404, &answer);
        }
    }
}

#[test]
fn unknown_methods_of_a_2026_request_get_404_naming_the_methods_of_its_revision() {
    let server = HttpServer::start(INVENTORY, &[], &[]);
    let reply = post_2026(&server, json!(601), "unknown/method", json!({}));
    let message = format!(
        "Method not found: 'unknown/method'. In protocol revision 2026-07-28 this server \
         implements: {METHODS_2026}."
    );
    let data = json!({"method": "unknown/method", "protocolVersion": "2026-07-28",
                      "supported": methods_2026()});
    let answer = json!({"jsonrpc": "2.0", "id": 601,
        "error": {"code": -32601, "message": message, "data": data}});
    assert_json(&reply, 404, &answer);

    // The header alone puts the request under the HTTP rules of 2026-07-28; without the
    // `_meta` the methods are those of every revision.
    let reply = server.post(
        &[("MCP-Protocol-Version", "2026-07-28")],
        br#"{"jsonrpc":"2.0","id":602,"method":"unknown/method"}"#,
    );
    assert_eq!(reply.status, 404, "{reply:?}");
    let body = reply.json();
    assert_eq!(
        (&body["id"], &body["error"]["code"]),
        (&json!(602), &json!(-32601))
    );
    assert_eq!(
        body["error"]["message"],
        "Method not found: 'unknown/method'. This server implements: initialize, \
         server/discover, ping, tools/list, tools/call, subscriptions/listen, logging/setLevel, \
         resources/list, \
         resources/templates/list, resources/read, prompts/list, prompts/get, \
         completion/complete."
    );
}

#[test]
fn a_2025_client_keeps_its_methods_and_its_200_answers() {
    let server = HttpServer::start(INVENTORY, &[], &[]);
    let session = server.open_session(&[]);
    let in_session = [
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    let reply = server.post(&in_session, br#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#);
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(
        reply.messages()[0],
        json!({"jsonrpc": "2.0", "id": 2, "result": {}})
    );
    let set_level =
        br#"{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"info"}}"#;
    let reply = server.post(&in_session, set_level);
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(
        reply.messages()[0],
        json!({"jsonrpc": "2.0", "id": 3, "result": {}})
    );
    let reply = server.post(
        &in_session,
        br#"{"jsonrpc":"2.0","id":4,"method":"unknown/method"}"#,
    );
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.json()["error"]["code"], -32601, "{reply:?}");
    assert_eq!(reply.json()["id"], 4, "{reply:?}");

    // A stateless server and a client without the header: the same 200.
    let server = HttpServer::start(INVENTORY, &["--stateless"], &[]);
    let reply = server.post(
        &[],
        br#"{"jsonrpc":"2.0","id":5,"method":"unknown/method"}"#,
    );
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.json()["error"]["code"], -32601, "{reply:?}");
}

#[test]
fn an_unsupported_version_of_a_2026_request_is_unsupported_protocol_version_error() {
    let server = HttpServer::start(INVENTORY, &[], &[]);
    let supported = json!(SUPPORTED_VERSIONS.split(", ").collect::<Vec<_>>());
    let message = |version: &str| {
        format!(
            "Bad request: unsupported MCP-Protocol-Version '{version}'. Supported versions: \
             {SUPPORTED_VERSIONS}."
        )
    };
    let mut meta = meta_2026();
    meta["io.modelcontextprotocol/protocolVersion"] = json!("v999.0.0");
    let body = json!({"jsonrpc": "2.0", "id": 301, "method": "server/discover",
                      "params": {"_meta": meta}});
    let headers = [
        ("MCP-Protocol-Version", "v999.0.0"),
        ("Mcp-Method", "server/discover"),
    ];
    let reply = server.post(&headers, body.to_string());
    let data = json!({"requested": "v999.0.0", "supported": supported, "httpStatus": 400});
    let answer = json!({"jsonrpc": "2.0", "id": 301,
        "error": {"code": -32022, "message": message("v999.0.0"), "data": data}});
    assert_json(&reply, 400, &answer);

    // The header names the version asked for, whatever the `_meta` says.
    let headers = [
        ("MCP-Protocol-Version", "1999-01-01"),
        ("Mcp-Method", "tools/list"),
    ];
    let reply = server.post(&headers, request_2026(json!("s"), "tools/list", json!({})));
    let data = json!({"requested": "1999-01-01", "supported": supported, "httpStatus": 400});
    let answer = json!({"jsonrpc": "2.0", "id": "s",
        "error": {"code": -32022, "message": message("1999-01-01"), "data": data}});
    assert_json(&reply, 400, &answer);

    // Each supported version is one that server/discover lists, so a client can retry.
    let discovered = post_2026(&server, json!(1), "server/discover", json!({}));
    assert_eq!(discovered.status, 200, "{discovered:?}");
    let mut listed: Vec<Value> = discovered.messages()[0]["result"]["supportedVersions"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    listed.reverse();
    assert_eq!(json!(listed), supported, "{discovered:?}");

    // A request without a revision in `_meta` is answered as before 2026-07-28.
    let reply = server.post(
        &[("MCP-Protocol-Version", "1999-01-01")],
        br#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#,
    );
    let data = json!({"version": "1999-01-01", "supported": supported, "httpStatus": 400});
    let answer = json!({"jsonrpc": "2.0", "id": null,
        "error": {"code": -32600, "message": message("1999-01-01"), "data": data}});
    assert_json(&reply, 400, &answer);
}

#[test]
fn rmcp_rejections_of_a_2026_request_carry_its_id() {
    let server = HttpServer::start(INVENTORY, &[], &[]);
    let headers = [
        ("Content-Type", "text/plain"),
        ("Accept", "application/json, text/event-stream"),
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/list"),
    ];
    let body = request_2026(json!(42), "tools/list", json!({}));
    let reply = request(&server.addr, "POST", "/mcp", &headers, body.as_bytes());
    let message = "Unsupported media type: send the body with 'Content-Type: application/json'.";
    let detail = "Unsupported Media Type: Content-Type must be application/json";
    let answer = json!({"jsonrpc": "2.0", "id": 42, "error": {"code": -32600,
        "message": message, "data": {"detail": detail, "httpStatus": 415}}});
    assert_json(&reply, 415, &answer);
}

/// A completion that needs the client's sampling, which the request may not declare.
struct NeedsSampling;

impl ServerHandler for NeedsSampling {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_completions().build())
    }

    async fn complete(
        &self,
        _request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let sampling: ClientCapabilities = serde_json::from_value(json!({"sampling": {}}))
            .map_err(|error| ErrorData::internal_error(error.to_string(), None))?;
        Err(ErrorData::missing_required_client_capability(sampling))
    }
}

/// Echo `text`.
#[mcp_tool]
fn echo(text: String) -> String {
    text
}

/// A server with [`NeedsSampling`] on 127.0.0.1, in this process; it stops when the
/// returned sender is dropped.
fn serve_needs_sampling() -> (String, tokio::sync::oneshot::Sender<()>) {
    serve_http(HttpOptions::default(), || {
        McpServer::builder(())
            .tool(echo_tool())
            .with_handler(NeedsSampling)
            .build()
            .expect("a server")
    })
}

#[test]
fn a_missing_client_capability_travels_with_400_under_2026_and_200_in_a_2025_session() {
    let (addr, _stop) = serve_needs_sampling();
    let post = |extra: &[(&str, &str)], body: &str| {
        let mut headers = POST_HEADERS.to_vec();
        headers.extend_from_slice(extra);
        request(&addr, "POST", "/mcp", &headers, body.as_bytes())
    };
    let params = json!({"ref": {"type": "ref/prompt", "name": "p"},
                        "argument": {"name": "a", "value": "b"}});
    let body = request_2026(json!(7), "completion/complete", params.clone());
    let headers = [
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "completion/complete"),
    ];
    let reply = post(&headers, &body);
    let answer = json!({"jsonrpc": "2.0", "id": 7, "error": {"code": -32021,
        "message": "Missing required client capability",
        "data": {"requiredCapabilities": {"sampling": {}}}}});
    assert_json(&reply, 400, &answer);

    // In a 2025-11-25 session, errors travel with 200 as they always did.
    let opened = post(&[], &initialize_body());
    let session = opened.header("mcp-session-id").expect("a session id");
    let in_session = [
        ("Mcp-Session-Id", session),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    let initialized = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let notified = post(&in_session, std::str::from_utf8(initialized).expect("text"));
    assert_eq!(notified.status, 202, "{notified:?}");
    let body = json!({"jsonrpc": "2.0", "id": 8, "method": "completion/complete",
                      "params": params});
    let reply = post(&in_session, &body.to_string());
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.messages()[0]["error"]["code"], -32021, "{reply:?}");
    assert_eq!(reply.messages()[0]["id"], 8, "{reply:?}");
}

/// A tool whose `region` argument a 2026-07-28 client also sends as `Mcp-Param-Region`.
fn regional_tool() -> ToolDef<()> {
    let schema = json!({
        "type": "object",
        "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "note": {"type": "string"},
        },
        "required": ["region"],
    });
    ToolDef::from_schema(
        "regional",
        "Name the region.",
        schema,
        |arguments: Value, _ctx| async move {
            let note = arguments["note"].as_str().map_or(0, str::len);
            Ok::<_, ToolError>(format!(
                "{} {note}",
                arguments["region"].as_str().unwrap_or("?")
            ))
        },
    )
    .expect("a valid schema")
}

/// A `tools/call` of `regional` as a 2026-07-28 client sends it, with `Mcp-Param-Region:
/// header` and a `note` of `note_bytes` bytes.
fn call_regional(addr: &str, header: &str, note_bytes: usize) -> Reply {
    let mut headers = POST_HEADERS.to_vec();
    headers.extend_from_slice(&[
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", "regional"),
        ("Mcp-Param-Region", header),
    ]);
    let arguments = json!({"region": "eu", "note": "n".repeat(note_bytes)});
    let body = request_2026(
        json!(3),
        "tools/call",
        json!({"name": "regional", "arguments": arguments}),
    );
    request(addr, "POST", "/mcp", &headers, body.as_bytes())
}

#[test]
fn rmcp_checks_argument_headers_against_the_arguments_of_small_and_large_calls() {
    let (addr, _stop) = serve_http(HttpOptions::default(), || {
        McpServer::builder(())
            .tool(regional_tool())
            .build()
            .expect("a server")
    });
    // Small bodies get the quick read, large ones (over 64 KiB) the full one, and between,
    // long arguments are read by the endpoint: under 2026-07-28's headers all leave the
    // arguments where rmcp compares them.
    for note_bytes in [10, 1_000, 70_000] {
        let reply = call_regional(&addr, "eu", note_bytes);
        assert_eq!(reply.status, 200, "{note_bytes}: {reply:?}");
        let answer = &reply.messages()[0];
        assert_eq!(
            answer["result"]["isError"], false,
            "{note_bytes}: {reply:?}"
        );
        let text = format!("eu {note_bytes}");
        assert_eq!(
            answer["result"]["content"][0]["text"],
            text.as_str(),
            "{reply:?}"
        );

        let reply = call_regional(&addr, "us", note_bytes);
        assert_eq!(reply.status, 400, "{note_bytes}: {reply:?}");
        let message = reply.messages()[0]["error"]["message"].to_string();
        assert!(
            message.contains("Mcp-Param-Region header `us` does not match body value `eu`"),
            "{note_bytes}: {message}"
        );
    }
}
