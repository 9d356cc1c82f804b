//! The life of a stdio session at its edges: what comes before `initialize`, a last line
//! without its newline, and a client that stops reading. Against the real `inventory` binary
//! over real pipes.

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
