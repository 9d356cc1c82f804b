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
