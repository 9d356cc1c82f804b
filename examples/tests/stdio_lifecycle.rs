//! The life of a stdio session at its edges: what comes before `initialize`, a last line
//! without its newline, and a client that stops reading. Against the real `inventory` binary
//! over real pipes.

use std::io::{BufRead, Write};
use std::process::Stdio;
use std::thread;
use std::time::{Duration, Instant};

use mcp_tool_test_support::memory_status;
use mcp_tool_test_support::stdio::{StdioSession, envelope_of, start_raw};
use serde_json::json;

const INVENTORY: &str = env!("CARGO_BIN_EXE_inventory");

#[test]
fn a_last_request_without_a_newline_is_answered_before_exit() {
    let mut session = StdioSession::start(INVENTORY, &[]);
    session.send_raw(br#"{"jsonrpc":"2.0","id":"last","method":"tools/call","params":{"name":"get_user","arguments":{"user_id":2}}}"#);
    session.close_stdin();
    let answer = session.wait_for_id(&json!("last"));
    assert_eq!(
        answer["result"]["structuredContent"]["name"], "Grace Hopper",
        "{answer}"
    );
    assert!(session.wait_exit().success());
}

#[test]
fn notifications_before_initialize_are_ignored_and_the_session_goes_on() {
    let mut session = StdioSession::spawn(INVENTORY, &[]);
    session.notify(
        "notifications/cancelled",
        Some(json!({"requestId": 1, "reason": "early"})),
    );
    session.notify(
        "notifications/progress",
        Some(json!({"progressToken": "t", "progress": 1})),
    );
    session.notify("notifications/roots/list_changed", None);
    session.notify("notifications/unknown_thing", Some(json!({"x": 1})));
    session.send_line(r#"{"jsonrpc":"2.0","id":"stray","result":{}}"#);
    for method in ["tools/list", "tools/call"] {
        let answer = session.request(method, json!({"name": "get_user", "arguments": {}}));
        assert_eq!(
            answer["error"],
            json!({"code": -32600, "data": {"method": method}, "message": format!(
                "Invalid request: '{method}' was sent before the session is initialized. Send \
                 'initialize' first, then 'notifications/initialized' (revisions up to \
                 2025-11-25), or carry 'io.modelcontextprotocol/protocolVersion' and \
                 'io.modelcontextprotocol/clientCapabilities' in the request's _meta (revision \
                 2026-07-28); only 'ping' and 'server/discover' are answered without either.")}),
            "{answer}"
        );
    }
    let pong = session.request("ping", json!({}));
    assert_eq!(pong["result"], json!({}), "{pong}");
    let init = session.request(
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {},
               "clientInfo": {"name": "e2e", "version": "1"}}),
    );
    assert_eq!(init["result"]["serverInfo"]["name"], "inventory", "{init}");
    session.notify("notifications/initialized", None);
    let result = session.call_tool("get_user", json!({"user_id": 2}));
    assert_eq!(result["structuredContent"]["name"], "Grace Hopper");
    assert!(session.unsolicited.is_empty(), "{:?}", session.unsolicited);
    assert!(session.close().success());
}

/// The `_meta` every 2026-07-28 request carries in place of the `initialize` handshake.
fn meta_2026() -> serde_json::Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "e2e", "version": "1"},
    })
}

#[test]
fn a_2026_client_is_served_without_initialize() {
    let mut session = StdioSession::spawn(INVENTORY, &[]);
    let discovered = session.request("server/discover", json!({"_meta": meta_2026()}));
    let result = &discovered["result"];
    assert_eq!(
        result["supportedVersions"],
        json!([
            "2024-11-05",
            "2025-03-26",
            "2025-06-18",
            "2025-11-25",
            "2026-07-28"
        ]),
        "{discovered}"
    );
    assert!(result["capabilities"]["tools"].is_object(), "{discovered}");
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "inventory",
        "{discovered}"
    );

    // Incomplete `_meta` and an unknown revision are refused, and the session waits on.
    let partial = session.request(
        "tools/list",
        json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}),
    );
    assert_eq!(partial["error"]["code"], -32602, "{partial}");
    assert!(
        partial["error"]["message"]
            .as_str()
            .is_some_and(|message| message.contains("io.modelcontextprotocol/clientCapabilities")),
        "{partial}"
    );
    let mut future = meta_2026();
    future["io.modelcontextprotocol/protocolVersion"] = json!("2099-01-01");
    let unknown = session.request("tools/list", json!({"_meta": future}));
    assert!(unknown["error"].is_object(), "{unknown}");
    // A notification between those would have ended rmcp's wait for a first request.
    session.notify("notifications/cancelled", Some(json!({"requestId": 1})));

    let listed = session.request("tools/list", json!({"_meta": meta_2026()}));
    let listed = &listed["result"];
    assert_eq!(listed["resultType"], "complete", "{listed}");
    assert_eq!(listed["ttlMs"], 0, "{listed}");
    assert_eq!(listed["cacheScope"], "private", "{listed}");
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .filter_map(|tool| tool["name"].as_str())
                .collect()
        })
        .unwrap_or_default();
    // Deterministic: the order in which the server registers its tools, on every list.
    let registered = [
        "add_item",
        "search_items",
        "get_user",
        "list_users",
        "reserve_stock",
        "legacy_report",
    ];
    assert_eq!(names, registered);

    let called = session.request(
        "tools/call",
        json!({"_meta": meta_2026(), "name": "get_user", "arguments": {"user_id": 2}}),
    );
    assert_eq!(called["result"]["resultType"], "complete", "{called}");
    assert_eq!(
        called["result"]["structuredContent"]["name"], "Grace Hopper",
        "{called}"
    );
    let bad = session.request(
        "tools/call",
        json!({"_meta": meta_2026(), "name": "get_user", "arguments": {"user_id": "two"}}),
    );
    assert_eq!(bad["result"]["isError"], true, "{bad}");
    assert_eq!(
        envelope_of(&bad["result"])["code"],
        "invalid_arguments",
        "{bad}"
    );
    // The old lifecycle's `ping` is not part of 2026-07-28 once the session runs on it.
    let ping = session.request("ping", json!({"_meta": meta_2026()}));
    assert_eq!(ping["error"]["code"], -32601, "{ping}");
    assert!(session.unsolicited.is_empty(), "{:?}", session.unsolicited);
    assert!(session.close().success());
}

#[test]
fn a_closed_stdout_ends_the_server_promptly_with_code_0() {
    let (mut server, mut stdin, stdout) = start_raw(INVENTORY, Some("info"), Stdio::piped());
    // The client stops reading: the read end of the server's stdout is closed, stdin stays.
    drop(stdout);
    let closed = Instant::now();
    let mut sent = 0;
    let status = loop {
        if let Some(status) = server.0.try_wait().expect("wait") {
            break status;
        }
        assert!(
            closed.elapsed() < Duration::from_secs(5),
            "still running {sent} requests after stdout closed"
        );
        let ping = json!({"jsonrpc": "2.0", "id": 100 + sent, "method": "ping"});
        if writeln!(stdin, "{ping}").is_ok() {
            sent += 1;
        }
        thread::sleep(Duration::from_millis(10));
    };
    let elapsed = closed.elapsed();
    let (stderr, _) = server.stderr_and_success();
    eprintln!("exited {elapsed:?} after stdout closed, {sent} requests sent");
    assert!(status.success(), "{status}; stderr:\n{stderr}");
    let failures = stderr.matches("fail to response").count();
    assert!(failures <= 2, "{failures} failed answers logged:\n{stderr}");
    drop(stdin);
}

#[test]
fn a_client_that_stops_reading_stops_the_server_reading() {
    const CALLS: u64 = 20_000;
    let (mut server, mut stdin, mut stdout) = start_raw(INVENTORY, Some("warn"), Stdio::null());
    // The client writes calls and reads nothing.
    let written = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let counter = std::sync::Arc::clone(&written);
    let writer = thread::spawn(move || {
        for id in 1..=CALLS {
            let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": {"name": "list_users", "arguments": {}}});
            if writeln!(stdin, "{call}").is_err() {
                break;
            }
            counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        stdin
    });
    thread::sleep(Duration::from_secs(3));
    let taken = written.load(std::sync::atomic::Ordering::SeqCst);
    let rss = memory_status(server.0.id(), "VmRSS") / 1024;
    eprintln!("with the client not reading: {taken} of {CALLS} calls taken, RSS {rss} KiB");
    assert!(
        taken < CALLS / 2,
        "the server read {taken} calls nobody reads answers of"
    );
    // The client reads again: every call is answered, and the writer gets through.
    let started = Instant::now();
    let mut answered = 0;
    let mut line = String::new();
    while answered < CALLS {
        line.clear();
        if stdout.read_line(&mut line).expect("read an answer") == 0 {
            break;
        }
        answered += 1;
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{answered} answered"
        );
    }
    assert_eq!(answered, CALLS);
    drop(writer.join().expect("writer thread"));
    assert!(server.0.wait().expect("wait").success());
}
