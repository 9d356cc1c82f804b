//! The Streamable HTTP rules, against the real `inventory` binary over sockets on 127.0.0.1.
//! Every case asserts the status, the named headers and the JSON-RPC error body.

use mcp_tool_test_support::http::{
    HttpServer, POST_HEADERS, Reply, call_body, initialize_body, request,
};
use serde_json::{Value, json};

const INVENTORY: &str = env!("CARGO_BIN_EXE_inventory");

fn inventory(args: &[&str], env: &[(&str, &str)]) -> HttpServer {
    HttpServer::start(INVENTORY, args, env)
}

/// Runs `check` on a server with sessions (one open) and on a stateless one, with its
/// arguments and the headers each request takes.
fn in_both_modes(check: impl Fn(&[&str], &HttpServer, &[(&str, &str)])) {
    for mode in [&[][..], &["--stateless"][..]] {
        let server = inventory(mode, &[]);
        let session = mode.is_empty().then(|| server.open_session(&[]));
        let headers: Vec<(&str, &str)> = session
            .iter()
            .map(|session| ("Mcp-Session-Id", session.as_str()))
            .collect();
        check(mode, &server, &headers);
    }
}

/// Asserts a rejection: status, JSON content type, `id: null`, code and exact message.
fn assert_rejection(reply: &Reply, status: u16, code: i64, message: &str) -> Value {
    assert_eq!(reply.status, status, "{reply:?}");
    assert_eq!(
        reply.header("content-type"),
        Some("application/json"),
        "{reply:?}"
    );
    let body = reply.json();
    assert_eq!(body["jsonrpc"], "2.0");
    assert_eq!(body["id"], Value::Null, "{body}");
    assert_eq!(body["error"]["code"], code, "{body}");
    assert_eq!(body["error"]["message"], message, "{body}");
    assert_eq!(body["error"]["data"]["httpStatus"], status, "{body}");
    body
}

#[test]
fn stateless_get_and_delete_get_405_saying_use_post() {
    let server = inventory(&["--stateless"], &[]);
    for method in ["GET", "DELETE"] {
        let reply = request(
            &server.addr,
            method,
            "/mcp",
            &[("Accept", "text/event-stream")],
            b"",
        );
        let body = assert_rejection(
            &reply,
            405,
            -32600,
            &format!(
                "Method not allowed: {method} is not supported because this server is stateless \
                 (no sessions, no server-sent event stream). Use POST with a JSON-RPC message."
            ),
        );
        assert_eq!(reply.header("allow"), Some("POST"));
        assert_eq!(body["error"]["data"]["allowedMethods"], "POST");
    }
}

#[test]
fn stateless_post_serves_tool_calls_with_json() {
    let server = inventory(&["--stateless"], &[]);
    let reply = server.post(&[], initialize_body());
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(
        reply.messages()[0]["result"]["serverInfo"]["name"],
        "inventory"
    );
    let reply = server.post(&[], call_body(2, "get_user", json!({"user_id": 2})));
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.header("content-type"), Some("application/json"));
    let message = &reply.messages()[0];
    assert_eq!(message["id"], 2);
    assert_eq!(
        message["result"]["structuredContent"],
        json!({"id": 2, "name": "Grace Hopper", "email": "grace@example.com"})
    );
}

#[test]
fn sessions_mode_initializes_and_calls_with_the_session_id() {
    let server = inventory(&[], &[]);
    let session = server.open_session(&[]);
    let in_session = [
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    // A non-object `arguments` reaches the tool and becomes an isError result.
    let reply = server.post(&in_session, call_body(3, "get_user", json!("one")));
    assert_eq!(reply.status, 200, "{reply:?}");
    let result = &reply.messages()[0]["result"];
    assert_eq!(result["isError"], true, "{result}");
    let text = result["content"][0]["text"].as_str().expect("text");
    // The "Valid call" line belongs to the schema profile; this test is about the arguments.
    assert!(
        text.starts_with(
            "Invalid arguments for tool 'get_user': 1 problem.\n- The arguments must be a JSON \
             object of named arguments, but received 'one'.\nValid call: get_user(user_id: "
        ),
        "{text}"
    );
}

#[test]
fn bodies_over_the_limit_get_413() {
    let server = inventory(&["--stateless"], &[]);
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"pad":"{}"}}}}"#,
        "x".repeat(300 * 1024)
    );
    let reply = server.post(&[], big.as_bytes());
    let body = assert_rejection(
        &reply,
        413,
        -32600,
        &format!(
            "Payload too large: the request body has {} bytes, more than the limit of 256 KiB \
             (262144 bytes). Send smaller messages.",
            big.len()
        ),
    );
    assert_eq!(body["error"]["data"]["maxBodyBytes"], 262144);
}

#[test]
fn the_body_limit_is_configurable() {
    let server = inventory(&["--stateless", "--max-body-bytes", "1000"], &[]);
    let body = call_body(1, "search_items", json!({"query": "x".repeat(1200)}));
    let reply = server.post(&[], body.as_bytes());
    assert_rejection(
        &reply,
        413,
        -32600,
        &format!(
            "Payload too large: the request body has {} bytes, more than the limit of 1000 \
             bytes. Send smaller messages.",
            body.len()
        ),
    );
    let small = call_body(2, "search_items", json!({"query": "tea"}));
    let reply = server.post(&[], small.as_bytes());
    assert_eq!(reply.status, 200, "{reply:?}");
}

#[test]
fn unsupported_protocol_versions_get_400_listing_the_supported_ones() {
    let server = inventory(&[], &[]);
    let reply = server.post(&[("MCP-Protocol-Version", "1999-01-01")], initialize_body());
    let body = assert_rejection(
        &reply,
        400,
        -32600,
        "Bad request: unsupported MCP-Protocol-Version '1999-01-01'. Supported versions: \
         2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05.",
    );
    assert_eq!(
        body["error"]["data"]["supported"],
        json!([
            "2026-07-28",
            "2025-11-25",
            "2025-06-18",
            "2025-03-26",
            "2024-11-05"
        ])
    );
}

/// Header values are the client's own text: a rejection quotes a long one cut (120
/// characters in its message, 1,024 in its data), so that a 60 KB header gets an answer of
/// a couple of kilobytes, not two copies of the header.
#[test]
fn rejections_quote_long_header_values_cut() {
    let server = inventory(&[], &[]);
    let long = "x".repeat(60_000);
    let origin = format!("http://{long}");
    let cases = [
        ("MCP-Protocol-Version", long.as_str(), "version", 400),
        ("Host", long.as_str(), "host", 403),
        ("Origin", origin.as_str(), "origin", 403),
    ];
    let cut = |value: &str, chars: usize| {
        format!("{}…", value.chars().take(chars - 1).collect::<String>())
    };
    for (name, value, datum, status) in cases {
        let reply = server.post(&[(name, value)], initialize_body());
        assert_eq!(reply.status, status, "{name}");
        assert!(
            reply.body.len() < 4_096,
            "{name}: {} bytes",
            reply.body.len()
        );
        let body = reply.json();
        let message = body["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains(&format!("'{}'", cut(value, 120))),
            "{name}: {message}"
        );
        assert_eq!(body["error"]["data"][datum], cut(value, 1_024), "{name}");
    }
}

#[test]
fn foreign_hosts_and_origins_get_403() {
    let server = inventory(&[], &[]);
    let reply = server.post(&[("Host", "evil.example:8080")], initialize_body());
    assert_rejection(
        &reply,
        403,
        -32001,
        "Forbidden: Host 'evil.example:8080' is not allowed (DNS rebinding protection). Allowed \
         hosts: localhost, 127.0.0.1, ::1. Configure more with MCP_ALLOWED_HOSTS.",
    );
    let reply = server.post(&[("Origin", "http://evil.example")], initialize_body());
    assert_rejection(
        &reply,
        403,
        -32001,
        "Forbidden: Origin 'http://evil.example' is not allowed (DNS rebinding protection). \
         Allowed origins: http://localhost:*, https://localhost:*, http://127.0.0.1:*, \
         https://127.0.0.1:*, http://[::1]:*, https://[::1]:*. Configure more with \
         MCP_ALLOWED_ORIGINS.",
    );
    // Localhost names and origins pass.
    let reply = server.post(
        &[
            ("Host", "localhost:1234"),
            ("Origin", "http://localhost:5173"),
        ],
        initialize_body(),
    );
    assert_eq!(reply.status, 200, "{reply:?}");
}

#[test]
fn allowlists_come_from_the_environment() {
    let server = inventory(
        &[],
        &[
            ("MCP_ALLOWED_HOSTS", "mcp.example.com"),
            ("MCP_ALLOWED_ORIGINS", "https://app.example.com"),
        ],
    );
    let reply = server.post(
        &[
            ("Host", "mcp.example.com"),
            ("Origin", "https://app.example.com"),
        ],
        initialize_body(),
    );
    assert_eq!(reply.status, 200, "{reply:?}");
    // Localhost is no longer on the list.
    let reply = server.post(&[], initialize_body());
    assert_rejection(
        &reply,
        403,
        -32001,
        &format!(
            "Forbidden: Host '{}' is not allowed (DNS rebinding protection). Allowed hosts: \
             mcp.example.com. Configure more with MCP_ALLOWED_HOSTS.",
            server.addr
        ),
    );
}

/// A refusal answered before the body was read closes the connection, and says so: hyper
/// drops a connection whose body has not all arrived, and a client that reuses it (the MCP
/// Python SDK follows a 401 with a request for the resource metadata) would otherwise send its
/// next request into the closing socket.
#[test]
fn a_refusal_before_the_body_is_read_says_the_connection_closes() {
    let server = inventory(&[], &[("MCP_AUTH_TOKEN", "s3cret-token")]);
    let without_token = keep_alive_head(&server.addr, "");
    assert!(without_token.starts_with("HTTP/1.1 401"), "{without_token}");
    assert!(
        without_token
            .to_ascii_lowercase()
            .contains("\r\nconnection: close\r\n"),
        "{without_token}"
    );
    // An admitted request keeps its connection open.
    let admitted = keep_alive_head(&server.addr, "Authorization: Bearer s3cret-token\r\n");
    assert!(admitted.starts_with("HTTP/1.1 200"), "{admitted}");
    assert!(
        !admitted.to_ascii_lowercase().contains("connection: close"),
        "{admitted}"
    );
}

/// The head of the answer to an `initialize` sent on a connection the client keeps open.
fn keep_alive_head(addr: &str, extra_headers: &str) -> String {
    use std::io::{Read, Write};
    let body = initialize_body();
    let mut stream = std::net::TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .expect("read timeout");
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\n{extra_headers}\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(head.as_bytes()).expect("send");
    let mut answer = Vec::new();
    let mut chunk = [0u8; 1024];
    while !answer.windows(4).any(|window| window == b"\r\n\r\n") {
        let read = stream.read(&mut chunk).expect("read the answer");
        assert!(read > 0, "closed before the head: {answer:?}");
        answer.extend_from_slice(&chunk[..read]);
    }
    String::from_utf8_lossy(&answer).into_owned()
}

#[test]
fn a_configured_token_is_required_with_a_bearer_challenge() {
    let server = inventory(&[], &[("MCP_AUTH_TOKEN", "s3cret-token")]);
    let reply = server.post(&[], initialize_body());
    assert_rejection(
        &reply,
        401,
        -32001,
        "Unauthorized: this server requires a bearer token. Send the header 'Authorization: \
         Bearer <token>'.",
    );
    assert_eq!(
        reply.header("www-authenticate"),
        Some(r#"Bearer realm="mcp""#)
    );

    let reply = server.post(
        &[("Authorization", "Bearer s3cret-tokeX")],
        initialize_body(),
    );
    assert_rejection(
        &reply,
        401,
        -32001,
        "Unauthorized: the bearer token is not valid (unknown, expired or revoked). Send the \
         header 'Authorization: Bearer <token>' with a valid token.",
    );
    assert_eq!(
        reply.header("www-authenticate"),
        Some(r#"Bearer realm="mcp", error="invalid_token""#)
    );

    let reply = server.post(
        &[("Authorization", "Bearer s3cret-token")],
        initialize_body(),
    );
    assert_eq!(reply.status, 200, "{reply:?}");
}

#[test]
fn other_paths_get_404_naming_the_endpoint() {
    let server = inventory(&[], &[]);
    let reply = request(
        &server.addr,
        "POST",
        "/rpc",
        POST_HEADERS,
        initialize_body().as_bytes(),
    );
    assert_rejection(
        &reply,
        404,
        -32600,
        "Not found: there is no MCP endpoint at '/rpc'. Send MCP requests to '/mcp'.",
    );
}

/// The quick read skips what it does not need without checking it: malformed JSON there is
/// found by rmcp, and answered by the full check with the request's id, in both modes.
#[test]
fn malformed_json_inside_the_arguments_is_answered_with_the_id() {
    in_both_modes(|mode, server, headers| {
        // Long arguments are read by the endpoint itself, short ones by rmcp.
        let long = format!(r#"{{"note":"{}","user_id":tru}}"#, "x".repeat(400));
        for (id, arguments) in [
            (7, r#"{"user_id":tru}"#),
            (8, r#"{"user_id":1,}"#),
            (9, &long),
        ] {
            let body = format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"get_user","arguments":{arguments}}}}}"#
            );
            let reply = server.post(headers, body.as_bytes());
            assert_eq!(reply.status, 400, "{mode:?} {reply:?}");
            let answer = reply.json();
            assert_eq!(answer["id"], id, "{mode:?} {answer}");
            assert_eq!(answer["error"]["code"], -32700, "{mode:?} {answer}");
            let message = answer["error"]["message"].as_str().unwrap_or_default();
            assert!(
                message.starts_with("Parse error: the message is not valid JSON ("),
                "{message}"
            );
        }
    });
}

#[test]
fn malformed_bodies_get_json_rpc_errors() {
    let server = inventory(&["--stateless"], &[]);
    let reply = server.post(&[], b"{oops");
    assert_eq!(reply.status, 400, "{reply:?}");
    let body = reply.json();
    assert_eq!(body["id"], Value::Null);
    assert_eq!(body["error"]["code"], -32700);
    let reply = server.post(
        &[],
        br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{}}"#,
    );
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(
        reply.json(),
        json!({"jsonrpc": "2.0", "id": 5, "error": {"code": -32602,
            "message": "Invalid params for 'tools/call': 'name' is required: expected a string."}})
    );
    // Bodies that only had their envelope read before rmcp, which rmcp then cannot read,
    // get the answers of the full check, with their ids.
    let reply = server.post(
        &[],
        br#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"get_user","arguments":{"user_id":1e400}}}"#,
    );
    assert_eq!(reply.status, 400, "{reply:?}");
    assert_eq!(reply.json()["id"], 6);
    assert_eq!(reply.json()["error"]["code"], -32600);
    let reply = server.post(
        &[],
        br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":5}}"#,
    );
    assert_eq!(
        reply.json(),
        json!({"jsonrpc": "2.0", "id": 7, "error": {"code": -32602,
            "message": "Invalid params for 'tools/call': 'name' must be a string, but received 5."}})
    );
    // A lone surrogate is replaced, as on stdio, and the call reaches the tool.
    let reply = server.post(
        &[],
        br#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"search_items","arguments":{"query":"\ud800x"}}}"#,
    );
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.json()["id"], 8);
    assert_eq!(reply.json()["result"]["isError"], false, "{reply:?}");
}

#[test]
fn malformed_duplicate_or_mismatched_hosts_and_origins_get_403() {
    let server = inventory(&[], &[]);
    let port = server.addr.rsplit_once(':').expect("a port").1.to_string();
    let allowed_hosts = "Allowed hosts: localhost, 127.0.0.1, ::1. Configure more with \
                         MCP_ALLOWED_HOSTS.";
    for host in [
        format!("localhost:{port}@evil.com"),
        "localhost:evil.com".to_string(),
        "[::1]evil.com".to_string(),
    ] {
        let reply = server.post(&[("Host", &host)], initialize_body());
        assert_rejection(
            &reply,
            403,
            -32001,
            &format!(
                "Forbidden: Host '{host}' is not allowed (DNS rebinding protection). \
                 {allowed_hosts}"
            ),
        );
    }
    let good = format!("localhost:{port}");
    let reply = server.post(&[("Host", &good), ("Host", "evil.com")], initialize_body());
    assert_rejection(
        &reply,
        403,
        -32001,
        "Forbidden: the request has 2 Host headers (DNS rebinding protection). Send exactly one.",
    );
    let mut headers = POST_HEADERS.to_vec();
    headers.push(("Host", &good));
    let reply = request(
        &server.addr,
        "POST",
        "http://evil.com/mcp",
        &headers,
        initialize_body().as_bytes(),
    );
    assert_rejection(
        &reply,
        403,
        -32001,
        &format!(
            "Forbidden: the request target names 'evil.com' but the Host header is '{good}' \
             (DNS rebinding protection). Send the same host in both, or a target of the form \
             '/mcp'."
        ),
    );
    let origin = format!("http://localhost:{port}@evil.com");
    let reply = server.post(&[("Origin", &origin)], initialize_body());
    let body = reply.json();
    assert_eq!(
        (reply.status, &body["error"]["data"]["origin"]),
        (403, &json!(origin))
    );
    let reply = server.post(
        &[
            ("Origin", "http://localhost:5173"),
            ("Origin", "http://evil.com"),
        ],
        initialize_body(),
    );
    assert_rejection(
        &reply,
        403,
        -32001,
        "Forbidden: the request has 2 Origin headers (DNS rebinding protection). Send exactly \
         one.",
    );
}

#[test]
fn the_bearer_check_takes_exactly_one_header_with_one_space() {
    let server = inventory(&[], &[("MCP_AUTH_TOKEN", "s3cret-token")]);
    let malformed = "Unauthorized: the Authorization header is malformed. Send exactly \
                     'Authorization: Bearer <token>': one space after 'Bearer' and no whitespace \
                     in or after the token.";
    for value in [
        "Bearer  s3cret-token",
        "Bearer\ts3cret-token",
        "Bearer s3cret-token extra",
        "Bearer",
    ] {
        let reply = server.post(&[("Authorization", value)], initialize_body());
        assert_rejection(&reply, 401, -32001, malformed);
        assert_eq!(
            reply.header("www-authenticate"),
            Some(r#"Bearer realm="mcp", error="invalid_request""#),
            "{value:?}"
        );
    }
    let reply = server.post(
        &[
            ("Authorization", "Bearer s3cret-token"),
            ("Authorization", "Bearer other"),
        ],
        initialize_body(),
    );
    assert_rejection(
        &reply,
        401,
        -32001,
        "Unauthorized: the request has more than one Authorization header. Send exactly one: \
         'Authorization: Bearer <token>'.",
    );
    let reply = server.post(
        &[("Authorization", "bearer s3cret-token")],
        initialize_body(),
    );
    assert_eq!(
        reply.status, 200,
        "the scheme is case-insensitive: {reply:?}"
    );
}

#[test]
fn unknown_sessions_and_rmcp_rejections_get_json_rpc_bodies() {
    let server = inventory(&[], &[]);
    let session_gone = "Not found: there is no session with this Mcp-Session-Id; it was closed \
                        or has expired. Start a new session: send 'initialize' without an \
                        Mcp-Session-Id header.";
    let unknown = [("Mcp-Session-Id", "no-such-session")];
    let reply = request(&server.addr, "DELETE", "/mcp", &unknown, b"");
    let body = assert_rejection(&reply, 404, -32600, session_gone);
    assert_eq!(body["error"]["data"]["sessionId"], "no-such-session");
    // A real session is deleted with 204 (the MCP Python SDK warns on any status but 200
    // and 204); then it is gone for POST as well.
    let session = server.post(&[], initialize_body());
    let id = session.header("mcp-session-id").expect("a session id");
    let known = [("Mcp-Session-Id", id)];
    let reply = request(&server.addr, "DELETE", "/mcp", &known, b"");
    assert_eq!(reply.status, 204, "{reply:?}");
    let ping = br#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#;
    let reply = server.post(&known, ping);
    assert_rejection(&reply, 404, -32600, session_gone);
    let mut headers = vec![("Content-Type", "application/json")];
    headers.extend_from_slice(&known);
    let reply = request(&server.addr, "POST", "/mcp", &headers, ping);
    assert_rejection(
        &reply,
        406,
        -32600,
        "Not Acceptable: Client must accept both application/json and text/event-stream.",
    );
    headers[0].1 = "text/plain";
    headers.push(("Accept", "application/json, text/event-stream"));
    let reply = request(&server.addr, "POST", "/mcp", &headers, ping);
    assert_rejection(
        &reply,
        415,
        -32600,
        "Unsupported media type: send the body with 'Content-Type: application/json'.",
    );
    let reply = server.post(&[], ping);
    let body = reply.json();
    assert_eq!(reply.status, 400, "{reply:?}");
    assert_eq!(body["error"]["code"], -32600, "{body}");
    assert_eq!(body["error"]["data"]["httpStatus"], 400, "{body}");
}

#[test]
fn duplicate_request_ids_in_flight_on_one_session_are_all_answered_at_once() {
    let server = inventory(&[], &[]);
    let session = server.open_session(&[]);
    let in_session = [
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    let body = call_body(77, "list_users", json!({}));
    let start = std::sync::Barrier::new(5);
    let started = std::time::Instant::now();
    let replies: Vec<Reply> = std::thread::scope(|scope| {
        let posts: Vec<_> = (0..5)
            .map(|_| {
                scope.spawn(|| {
                    start.wait();
                    server.post(&in_session, body.as_bytes())
                })
            })
            .collect();
        posts
            .into_iter()
            .map(|post| post.join().expect("a POST thread"))
            .collect()
    });
    let took = started.elapsed();
    eprintln!("5 POSTs with id 77 answered in {took:?}");
    assert!(took < std::time::Duration::from_secs(5), "{took:?}");
    let mut results = 0;
    for reply in &replies {
        let messages = reply.messages();
        let answer = messages
            .iter()
            .find(|message| message["id"] == 77)
            .unwrap_or_else(|| panic!("no answer with id 77: {reply:?}"));
        if answer.get("result").is_some() {
            results += 1;
            continue;
        }
        assert_eq!(reply.status, 400, "{reply:?}");
        assert_eq!(
            answer["error"],
            json!({"code": -32600, "data": {"id": 77}, "message": "Invalid request: a request \
                with id 77 is still being answered on this session. Give each request a new \
                id; an id may be used again once its request is answered."}),
            "{answer}"
        );
    }
    eprintln!("{results} answered, {} refused as duplicates", 5 - results);
    assert!(results >= 1, "{replies:?}");
    // Each claim went with its answer: the id is free again.
    let again = server.post(&in_session, body.as_bytes());
    let messages = again.messages();
    assert!(messages[0]["result"].is_object(), "{again:?}");
}

/// `search_items` arguments with `tags` tags, `bad` replacing tag 30 when given: a few
/// hundred bytes, which the endpoint reads itself rather than leaving them to rmcp.
fn search_with_tags(tags: usize, bad: Option<Value>, limit: u64) -> Value {
    let mut list: Vec<Value> = (0..tags).map(|tag| json!(format!("tag-{tag}"))).collect();
    if let Some(bad) = bad {
        list[30] = bad;
    }
    json!({"query": "no such thing", "tags": list, "limit": limit})
}

/// Arguments long enough to be read by the endpoint (and left out of what rmcp reads) are
/// the tool's as sent: served in both modes, and every problem found with its path.
#[test]
fn long_arguments_are_served_and_checked_as_sent() {
    in_both_modes(|mode, server, headers| {
        let arguments = search_with_tags(40, None, 5);
        assert!(arguments.to_string().len() > 300, "{arguments}");
        let body = call_body(5, "search_items", arguments);
        let reply = server.post(headers, body.as_bytes());
        assert_eq!(reply.status, 200, "{mode:?} {reply:?}");
        let result = &reply.messages()[0]["result"];
        assert_eq!(result["isError"], false, "{mode:?} {result}");
        assert_eq!(
            result["structuredContent"],
            json!({"items": []}),
            "{result}"
        );

        let arguments = search_with_tags(40, Some(json!(7)), 0);
        let body = call_body(6, "search_items", arguments);
        let reply = server.post(headers, body.as_bytes());
        assert_eq!(reply.status, 200, "{mode:?} {reply:?}");
        let message = &reply.messages()[0];
        assert_eq!(message["id"], 6, "{message}");
        let result = &message["result"];
        assert_eq!(result["isError"], true, "{mode:?} {result}");
        let violations = &result["_meta"]["rs.mcp-tool/error"]["violations"];
        let paths: Vec<&str> = violations
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|violation| violation["path"].as_str())
            .collect();
        assert_eq!(paths, ["limit", "tags[30]"], "{mode:?} {result}");
        assert_eq!(violations[1]["received"], 7, "{result}");
    });
}
