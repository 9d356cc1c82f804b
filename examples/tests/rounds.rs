//! A tool that asks the client for input, on both protocol revisions, from the same code:
//! on 2025-11-25 the question is a server-to-client request the tool waits for; on
//! 2026-07-28 it ends the call with an `InputRequiredResult` and a sealed `requestState`,
//! and the client calls again with the answers. Against the `conformance` example over real
//! pipes and sockets.

use mcp_tool_test_support::http::HttpServer;
use mcp_tool_test_support::stdio::{StdioSession, text_of};
use serde_json::{Value, json};

const CONFORMANCE: &str = env!("CARGO_BIN_EXE_conformance");

/// The `_meta` of a 2026-07-28 request from a client with `capabilities`.
fn meta(capabilities: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": {"name": "rounds", "version": "1"},
    })
}

/// The params of a 2026-07-28 call of `name`, with the answers and state of a retry.
fn call_2026(name: &str, answers: Option<Value>, state: Option<&Value>) -> Value {
    let mut params = json!({
        "_meta": meta(json!({"elicitation": {}})),
        "name": name,
        "arguments": {},
    });
    if let Some(answers) = answers {
        params["inputResponses"] = answers;
    }
    if let Some(state) = state {
        params["requestState"] = state.clone();
    }
    params
}

/// An accepted elicitation with `content`.
fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

/// Asserts an `InputRequiredResult` asking one form question under `key`; returns its state.
fn asks(result: &Value, key: &str, message: &str) -> Value {
    assert_eq!(result["resultType"], "input_required", "{result}");
    let requests = result["inputRequests"].as_object().expect("inputRequests");
    assert_eq!(requests.keys().collect::<Vec<_>>(), [key], "{result}");
    assert_eq!(requests[key]["method"], "elicitation/create", "{result}");
    assert_eq!(requests[key]["params"]["message"], message, "{result}");
    assert_eq!(requests[key]["params"]["requestedSchema"]["type"], "object");
    let state = result["requestState"].clone();
    assert!(
        state.as_str().is_some_and(|state| state.len() > 20),
        "{result}"
    );
    state
}

/// Two rounds of `test_input_required_result_multi_round` and the complete third, through
/// `send` (stdio or HTTP).
fn run_rounds(mut send: impl FnMut(Value) -> Value) -> Value {
    let tool = "test_input_required_result_multi_round";
    let first = send(call_2026(tool, None, None));
    let state = asks(&first["result"], "step1", "Step 1: What is your name?");
    let answers = json!({"step1": accept(json!({"name": "Ada"}))});
    let second = send(call_2026(tool, Some(answers), Some(&state)));
    let state = asks(
        &second["result"],
        "step2",
        "Step 2: What is your favorite color?",
    );
    let answers = json!({"step2": accept(json!({"color": "blue"}))});
    let third = send(call_2026(tool, Some(answers), Some(&state)));
    assert_eq!(third["result"]["resultType"], "complete", "{third}");
    assert_eq!(text_of(&third["result"]), "Ada likes blue.", "{third}");
    // The state of the second round, sent again, still opens (it is not single-use), and
    // any change to it is refused.
    state
}

/// A state with one character of its signed part changed.
fn altered(state: &Value) -> Value {
    let mut text = state.as_str().expect("a string state").to_string();
    let at = text.len() / 2;
    let changed = if &text[at..=at] == "A" { "B" } else { "A" };
    text.replace_range(at..=at, changed);
    Value::String(text)
}

fn assert_refused(answer: &Value) {
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("Invalid params: the requestState was not issued for this call ("),
        "{message}"
    );
    assert!(
        message.ends_with(
            "Send it back exactly as the InputRequiredResult gave it, with the same tool and \
             arguments, or call again without requestState and inputResponses to start over."
        ),
        "{message}"
    );
}

#[test]
fn a_2026_call_asks_in_rounds_over_stdio_and_refuses_an_altered_state() {
    let mut session = StdioSession::spawn(CONFORMANCE, &[]);
    let state = run_rounds(|params| session.request("tools/call", params));
    let tool = "test_input_required_result_multi_round";
    let answers = json!({"step2": accept(json!({"color": "red"}))});
    let tampered = session.request(
        "tools/call",
        call_2026(tool, Some(answers.clone()), Some(&altered(&state))),
    );
    assert_refused(&tampered);
    // Bound to the call: the same state is refused for another tool.
    let elsewhere = session.request(
        "tools/call",
        call_2026(
            "test_input_required_result_tampered_state",
            Some(answers),
            Some(&state),
        ),
    );
    assert_refused(&elsewhere);
    // Answers without a state are not trusted: the question comes back.
    let unsealed = session.request(
        "tools/call",
        call_2026(
            tool,
            Some(json!({"step1": accept(json!({"name": "Eve"}))})),
            None,
        ),
    );
    asks(&unsealed["result"], "step1", "Step 1: What is your name?");
    // No question went out as a server-to-client request.
    assert!(session.unsolicited.is_empty(), "{:?}", session.unsolicited);
    assert!(session.close().success());
}

#[test]
fn a_2026_call_asks_in_rounds_over_http() {
    let server = HttpServer::start(CONFORMANCE, &[], &[]);
    let mut id = 0;
    // The headers a 2026-07-28 request carries beside its body (SEP-2243).
    let tool = "test_input_required_result_multi_round";
    let headers = [
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", tool),
    ];
    let state = run_rounds(|params| {
        id += 1;
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
        let reply = server.post(&headers, body.to_string());
        let messages = reply.messages();
        assert_eq!(
            messages.len(),
            1,
            "one answer, no request on the stream: {reply:?}"
        );
        messages[0].clone()
    });
    let body = json!({"jsonrpc": "2.0", "id": 99, "method": "tools/call", "params": call_2026(
        tool,
        Some(json!({"step2": accept(json!({"color": "red"}))})),
        Some(&altered(&state)),
    )});
    let reply = server.post(&headers, body.to_string());
    assert_refused(&reply.messages()[0]);
}

#[test]
fn the_same_tool_asks_a_2025_client_with_requests() {
    let mut session = StdioSession::spawn(CONFORMANCE, &[]);
    let init = session.request(
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}},
               "clientInfo": {"name": "rounds", "version": "1"}}),
    );
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
    session.notify("notifications/initialized", None);
    session.send_line(
        &json!({"jsonrpc": "2.0", "id": "call", "method": "tools/call",
                "params": {"name": "test_input_required_result_multi_round", "arguments": {}}})
        .to_string(),
    );
    for (message, answer) in [
        ("Step 1: What is your name?", json!({"name": "Ada"})),
        (
            "Step 2: What is your favorite color?",
            json!({"color": "blue"}),
        ),
    ] {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        let request = session.read_message(deadline);
        assert_eq!(request["method"], "elicitation/create", "{request}");
        assert_eq!(request["params"]["message"], message, "{request}");
        let reply = json!({"jsonrpc": "2.0", "id": request["id"], "result": accept(answer)});
        session.send_line(&reply.to_string());
    }
    let done = session.wait_for_id(&json!("call"));
    assert_eq!(text_of(&done["result"]), "Ada likes blue.", "{done}");
    assert!(done["result"].get("resultType").is_none(), "{done}");
    assert!(session.close().success());
}

#[test]
fn an_undeclared_capability_is_minus_32021_on_2026_and_an_error_result_before() {
    let mut session = StdioSession::spawn(CONFORMANCE, &[]);
    let params = json!({"_meta": meta(json!({})), "name": "test_missing_capability",
                        "arguments": {}});
    let refused = session.request("tools/call", params);
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
    assert_eq!(
        refused["error"]["data"]["requiredCapabilities"],
        json!({"sampling": {}}),
        "{refused}"
    );
    assert!(session.close().success());

    let mut session = StdioSession::start(CONFORMANCE, &[]);
    let result = session.call_tool("test_missing_capability", json!({}));
    assert_eq!(result["isError"], true, "{result}");
    assert_eq!(
        text_of(&result),
        "The client does not support sampling, so the tool cannot ask the model."
    );
    assert!(session.close().success());
}

#[test]
fn a_2026_call_gets_log_messages_only_at_its_own_log_level() {
    let mut session = StdioSession::spawn(CONFORMANCE, &[]);
    let quiet = session.request(
        "tools/call",
        json!({"_meta": meta(json!({})), "name": "test_logging_tool", "arguments": {}}),
    );
    assert_eq!(text_of(&quiet["result"]), "Logged three messages.");
    assert!(session.unsolicited.is_empty(), "{:?}", session.unsolicited);

    let mut with_level = meta(json!({}));
    with_level["io.modelcontextprotocol/logLevel"] = json!("warning");
    let loud = session.request(
        "tools/call",
        json!({"_meta": with_level, "name": "test_logging_tool", "arguments": {}}),
    );
    assert_eq!(text_of(&loud["result"]), "Logged three messages.");
    let levels: Vec<&Value> = session
        .unsolicited
        .iter()
        .filter(|message| message["method"] == "notifications/message")
        .map(|message| &message["params"]["level"])
        .collect();
    assert_eq!(levels, [&json!("warning"), &json!("error")]);
    assert!(session.close().success());
}

/// A 2026-07-28 `tools/call` of `name` with `arguments` and `_meta` extras.
fn call_with(name: &str, arguments: Value, extra_meta: Value) -> Value {
    let mut meta = meta(json!({}));
    if let (Some(meta), Some(extra)) = (meta.as_object_mut(), extra_meta.as_object()) {
        meta.extend(extra.clone());
    }
    json!({"_meta": meta, "name": name, "arguments": arguments})
}

#[test]
fn the_stdio_checks_time_limits_and_cancellation_hold_on_2026() {
    let mut session = StdioSession::spawn(CONFORMANCE, &[]);
    // A malformed 2026 request: the transport's -32602, with its id.
    let malformed = session.request(
        "tools/call",
        json!({"_meta": meta(json!({})), "name": 5, "arguments": {}}),
    );
    assert_eq!(malformed["error"]["code"], -32602, "{malformed}");
    assert_eq!(malformed["id"], 1, "{malformed}");
    // Bad arguments: the usual isError envelope.
    let bad = session.request(
        "tools/call",
        call_with("slow_with_limit", json!({"millis": "soon"}), json!({})),
    );
    assert_eq!(bad["result"]["isError"], true, "{bad}");
    assert_eq!(
        mcp_tool_test_support::stdio::envelope_of(&bad["result"])["code"],
        "invalid_arguments"
    );
    // The tool's time limit.
    let slow = session.request(
        "tools/call",
        call_with("slow_with_limit", json!({"millis": 5000}), json!({})),
    );
    assert_eq!(
        text_of(&slow["result"]),
        "Tool 'slow_with_limit' did not finish within its time limit of 300 ms and was \
         stopped.\nThis is temporary: the same call may succeed if retried."
    );
    // Cancellation: `notifications/cancelled` still ends a request on stdio.
    let long = call_with(
        "tick_until_cancelled",
        json!({}),
        json!({"progressToken": "ticks"}),
    );
    session.send_line(
        &json!({"jsonrpc": "2.0", "id": "long", "method": "tools/call", "params": long})
            .to_string(),
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let mut progress = 0;
    while progress < 3 {
        let message = session.read_message(deadline);
        if message["method"] == "notifications/progress" {
            progress += 1;
        }
    }
    session.notify(
        "notifications/cancelled",
        Some(json!({"requestId": "long", "reason": "user pressed stop"})),
    );
    std::thread::sleep(std::time::Duration::from_millis(100));
    let ticks = |session: &mut StdioSession| {
        let answer = session.request("tools/call", call_with("ticks", json!({}), json!({})));
        text_of(&answer["result"])
    };
    let first = ticks(&mut session);
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert_eq!(
        first,
        ticks(&mut session),
        "the work stopped after the cancellation"
    );
    session.assert_no_answer_to("long");
    assert!(session.close().success());
}
