//! Tool context, time limits and cancellation, against the real `conformance` binary over
//! real pipes.

use std::thread;
use std::time::{Duration, Instant};

use mcp_tool_test_support::stdio::{StdioSession, envelope_of, text_of};
use serde_json::{Value, json};

const CONFORMANCE: &str = env!("CARGO_BIN_EXE_conformance");

fn notifications<'a>(session: &'a StdioSession, method: &str) -> Vec<&'a Value> {
    session
        .unsolicited
        .iter()
        .filter(|message| message["method"] == method)
        .collect()
}

#[test]
fn the_context_is_not_part_of_the_input_schema() {
    let mut session = StdioSession::start(CONFORMANCE, &[]);
    let listed = session.request("tools/list", json!({}));
    let tools = listed["result"]["tools"].as_array().expect("tools");
    let sampling = tools
        .iter()
        .find(|tool| tool["name"] == "test_sampling")
        .expect("test_sampling");
    assert_eq!(
        sampling["inputSchema"]["properties"],
        json!({"prompt": {"type": "string", "description": "The prompt to send to the model."}})
    );
    let logging = tools
        .iter()
        .find(|tool| tool["name"] == "test_tool_with_logging")
        .expect("test_tool_with_logging");
    // No `additionalProperties: false`, which google-genai fails on (issue 27).
    assert_eq!(logging["inputSchema"], json!({"type": "object"}));
}

#[test]
fn progress_echoes_the_request_token() {
    let mut session = StdioSession::start(CONFORMANCE, &[]);
    let response = session.request(
        "tools/call",
        json!({"name": "test_tool_with_progress", "arguments": {},
               "_meta": {"progressToken": "tok-7"}}),
    );
    assert_eq!(response["result"]["isError"], false, "{response}");
    let progress: Vec<(Value, Value, Value)> = notifications(&session, "notifications/progress")
        .iter()
        .map(|n| {
            (
                n["params"]["progressToken"].clone(),
                n["params"]["progress"].clone(),
                n["params"]["total"].clone(),
            )
        })
        .collect();
    assert_eq!(
        progress,
        [
            (json!("tok-7"), json!(0.0), json!(100.0)),
            (json!("tok-7"), json!(50.0), json!(100.0)),
            (json!("tok-7"), json!(100.0), json!(100.0)),
        ]
    );
}

#[test]
fn no_progress_without_a_token() {
    let mut session = StdioSession::start(CONFORMANCE, &[]);
    let result = session.call_tool("test_tool_with_progress", json!({}));
    assert_eq!(result["isError"], false);
    assert!(notifications(&session, "notifications/progress").is_empty());
}

#[test]
fn log_messages_honour_logging_set_level() {
    let mut session = StdioSession::start(CONFORMANCE, &[]);
    // Default threshold: info, so the three info messages arrive.
    session.call_tool("test_tool_with_logging", json!({}));
    let logs: Vec<Value> = notifications(&session, "notifications/message")
        .iter()
        .map(|n| n["params"].clone())
        .collect();
    assert_eq!(
        logs,
        [
            json!({"level": "info", "logger": "test_tool_with_logging", "data": "Tool execution started"}),
            json!({"level": "info", "logger": "test_tool_with_logging", "data": "Tool processing data"}),
            json!({"level": "info", "logger": "test_tool_with_logging", "data": "Tool execution completed"}),
        ]
    );
    session.unsolicited.clear();
    let set = session.request("logging/setLevel", json!({"level": "warning"}));
    assert_eq!(set["result"], json!({}), "{set}");
    session.call_tool("test_tool_with_logging", json!({}));
    assert!(notifications(&session, "notifications/message").is_empty());
    session.request("logging/setLevel", json!({"level": "debug"}));
    session.call_tool("test_tool_with_logging", json!({}));
    assert_eq!(notifications(&session, "notifications/message").len(), 3);
}

#[test]
fn a_tool_timeout_answers_timeout_retryable_near_the_limit() {
    let mut session = StdioSession::start(CONFORMANCE, &[]);
    let started = Instant::now();
    let result = session.call_tool("slow_with_limit", json!({"millis": 5000}));
    let elapsed = started.elapsed();
    assert!(
        elapsed >= Duration::from_millis(300) && elapsed < Duration::from_millis(1500),
        "answered after {elapsed:?}"
    );
    assert_eq!(result["isError"], true);
    assert_eq!(
        text_of(&result),
        "Tool 'slow_with_limit' did not finish within its time limit of 300 ms and was \
         stopped.\nThis is temporary: the same call may succeed if retried."
    );
    let envelope = envelope_of(&result);
    assert_eq!(envelope["code"], "timeout");
    assert_eq!(envelope["class"], "dependency");
    assert_eq!(envelope["retryable"], true);
    // Within the limit, the tool answers normally.
    let result = session.call_tool("slow_with_limit", json!({"millis": 10}));
    assert_eq!(text_of(&result), "slept 10 ms");
}

#[test]
fn the_server_default_timeout_applies_to_tools_without_their_own() {
    let mut session = StdioSession::start(CONFORMANCE, &["--default-timeout-ms", "200"]);
    let started = Instant::now();
    let result = session.call_tool("sleep_ms", json!({"millis": 5000}));
    let elapsed = started.elapsed();
    assert!(
        elapsed >= Duration::from_millis(200) && elapsed < Duration::from_millis(1400),
        "answered after {elapsed:?}"
    );
    assert_eq!(envelope_of(&result)["code"], "timeout");
    assert!(text_of(&result).starts_with(
        "Tool 'sleep_ms' did not finish within its time limit of 200 ms and was stopped."
    ));
    // A tool's own limit wins over the default.
    let result = session.call_tool("slow_with_limit", json!({"millis": 250}));
    assert_eq!(text_of(&result), "slept 250 ms");
}

#[test]
fn a_cancelled_call_stops_its_work_and_sends_no_result() {
    let mut session = StdioSession::start(CONFORMANCE, &[]);
    session.send_line(
        &json!({"jsonrpc": "2.0", "id": "long", "method": "tools/call",
                "params": {"name": "tick_until_cancelled", "arguments": {},
                           "_meta": {"progressToken": "ticks"}}})
        .to_string(),
    );
    // Wait until it is working: its progress notifications arrive.
    let deadline = Instant::now() + Duration::from_secs(20);
    while notifications(&session, "notifications/progress").len() < 3 {
        let message = session.read_message(deadline);
        session.unsolicited.push(message);
    }
    session.notify(
        "notifications/cancelled",
        Some(json!({"requestId": "long", "reason": "user pressed stop"})),
    );
    thread::sleep(Duration::from_millis(100));
    let first = text_of(&session.call_tool("ticks", json!({})));
    thread::sleep(Duration::from_millis(200));
    let second = text_of(&session.call_tool("ticks", json!({})));
    assert_eq!(first, second, "the work stopped after the cancellation");
    // No response for the cancelled request arrived, before or after.
    let pong = session.request("ping", json!({}));
    assert_eq!(pong["result"], json!({}));
    session.assert_no_answer_to("long");
}
