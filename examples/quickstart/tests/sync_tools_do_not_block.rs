//! A sync tool that blocks (here `count_stock`, which sleeps like a slow blocking library) must
//! not stall the other calls of a stdio server on a current-thread runtime, and its time limit
//! answers `timeout` even though its thread runs on.

use std::time::{Duration, Instant};

use mcp_tool_test_support::stdio::{StdioSession, envelope_of, text_of};
use serde_json::{Value, json};

const QUICKSTART: &str = env!("CARGO_BIN_EXE_mcp-tool-example-quickstart");

fn call_line(id: u64, name: &str, arguments: Value) -> String {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    })
    .to_string()
}

#[test]
fn a_quick_call_is_answered_while_a_slow_sync_tool_blocks() {
    let mut server = StdioSession::start(QUICKSTART, &[]);
    server.send_line(&call_line(101, "count_stock", json!({"aisles": 8})));
    server.send_line(&call_line(102, "price", json!({"sku": "ABC-0001"})));

    let deadline = Instant::now() + Duration::from_secs(10);
    let first = server.read_message(deadline);
    assert_eq!(
        first["id"], 102,
        "the quick call waited for the slow one: {first}"
    );
    assert_eq!(text_of(&first["result"]), "250");
    let second = server.read_message(deadline);
    assert_eq!(second["id"], 101, "{second}");
    assert_eq!(
        text_of(&second["result"]),
        "320 items on the shelves of 8 aisles."
    );
    assert!(server.close().success());
}

#[test]
fn a_sync_tool_past_its_limit_answers_timeout_and_the_server_goes_on() {
    let mut server = StdioSession::start(QUICKSTART, &[]);
    let started = Instant::now();
    let result = server.call_tool("count_stock", json!({"aisles": 30}));
    assert!(
        started.elapsed() < Duration::from_millis(2500),
        "the 3 s scan was awaited: {:?}",
        started.elapsed()
    );
    assert_eq!(result["isError"], true, "{result}");
    assert_eq!(
        text_of(&result),
        "Tool 'count_stock' did not finish within its time limit of 1 s; its answer was \
         abandoned, but its work may still complete.\nThis is temporary: the same call may \
         succeed if retried."
    );
    assert_eq!(envelope_of(&result)["code"], "timeout");

    let price = server.call_tool("price", json!({"sku": "ABC-0001"}));
    assert_eq!(text_of(&price), "250");
    // The abandoned scan does not keep the process alive once its client has gone.
    assert!(server.close().success());
    assert!(
        started.elapsed() < Duration::from_millis(2500),
        "the server waited for the abandoned scan before exiting: {:?}",
        started.elapsed()
    );
}
