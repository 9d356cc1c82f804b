//! The life of a stdio session at its edges: what comes before `initialize`, a last line
//! without its newline, and a client that stops reading. Against the real `inventory` binary
//! over real pipes.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use mcp_tool_test_support::stdio::StdioSession;
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
                 'initialize' first, then 'notifications/initialized'; only 'ping' is answered \
                 before that.")}),
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

/// A child process killed on drop, so that a failing test leaves nothing running.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_closed_stdout_ends_the_server_promptly_with_code_0() {
    let mut server = Killed(
        Command::new(INVENTORY)
            .env("RUST_LOG", "info")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start inventory"),
    );
    let mut stdin = server.0.stdin.take().expect("piped stdin");
    let mut stdout = BufReader::new(server.0.stdout.take().expect("piped stdout"));
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "e2e", "version": "1"}}});
    writeln!(stdin, "{initialize}").expect("write initialize");
    let mut answer = String::new();
    stdout
        .read_line(&mut answer)
        .expect("read initialize answer");
    assert!(answer.contains("\"result\""), "{answer}");
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
    )
    .expect("write");
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
    let mut stderr = String::new();
    let _ = server
        .0
        .stderr
        .take()
        .expect("piped stderr")
        .read_to_string(&mut stderr);
    eprintln!("exited {elapsed:?} after stdout closed, {sent} requests sent");
    assert!(status.success(), "{status}; stderr:\n{stderr}");
    let failures = stderr.matches("fail to response").count();
    assert!(failures <= 2, "{failures} failed answers logged:\n{stderr}");
    drop(stdin);
}
