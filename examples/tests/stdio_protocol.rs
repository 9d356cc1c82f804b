//! JSON-RPC protocol errors on stdio, against the real `inventory` binary over real pipes.
//! After each error the session must go on: the next valid request is answered.

use std::time::{Duration, Instant};

use mcp_tool_test_support::stdio::{StdioSession, text_of};
use serde_json::{Value, json};

const INVENTORY: &str = env!("CARGO_BIN_EXE_inventory");

const SUPPORTED: &str = "initialize, server/discover, ping, tools/list, tools/call, subscriptions/listen, logging/setLevel, \
    resources/list, resources/templates/list, resources/read, prompts/list, prompts/get, \
    completion/complete";

/// Reads the next message, which must be the answer to a line the server could not read.
fn next(session: &mut StdioSession) -> Value {
    session.read_message(Instant::now() + Duration::from_secs(20))
}

/// The session is still alive: a ping is answered.
fn assert_alive(session: &mut StdioSession) {
    let pong = session.request("ping", json!({}));
    assert_eq!(pong["result"], json!({}), "{pong}");
}

#[test]
fn invalid_json_gets_a_parse_error_with_the_id_when_it_can_be_read() {
    let mut session = StdioSession::start(INVENTORY, &[]);
    session.send_line(r#"{"jsonrpc": "2.0", "method": "#);
    let answer = next(&mut session);
    assert_eq!(answer["id"], Value::Null, "{answer}");
    assert_eq!(answer["error"]["code"], -32700);
    session.send_line(r#"{"jsonrpc": "2.0", "id": 1, "method": "#);
    let answer = next(&mut session);
    assert_eq!(answer["jsonrpc"], "2.0");
    assert_eq!(answer["id"], 1, "{answer}");
    assert_eq!(answer["error"]["code"], -32700);
    assert_eq!(
        answer["error"]["message"],
        "Parse error: the message is not valid JSON (EOF while parsing a value at line 1 column \
         38). Send one JSON-RPC 2.0 object per message."
    );
    assert_alive(&mut session);
}

#[test]
fn a_request_without_method_or_not_2_0_is_an_invalid_request() {
    let mut session = StdioSession::start(INVENTORY, &[]);
    session.send_line(r#"{"jsonrpc":"2.0","id":"a"}"#);
    assert_eq!(
        next(&mut session),
        json!({"jsonrpc": "2.0", "id": "a", "error": {"code": -32600, "message":
            "Invalid request: the message has no \"method\". A request needs \"jsonrpc\": \"2.0\", an \"id\" and a \"method\"."}})
    );
    session.send_line(r#"{"jsonrpc":"1.0","id":"b","method":"ping"}"#);
    assert_eq!(
        next(&mut session),
        json!({"jsonrpc": "2.0", "id": "b", "error": {"code": -32600, "message":
            "Invalid request: \"jsonrpc\" must be \"2.0\", but received '1.0'."}})
    );
    session.send_line(r#"{"id":"c","method":"ping"}"#);
    assert_eq!(
        next(&mut session),
        json!({"jsonrpc": "2.0", "id": "c", "error": {"code": -32600, "message":
            "Invalid request: the message has no \"jsonrpc\" member; it must be \"2.0\"."}})
    );
    session.send_line("[1, 2]");
    let answer = next(&mut session);
    assert_eq!(answer["id"], Value::Null);
    assert_eq!(answer["error"]["code"], -32600);
    assert_alive(&mut session);
}

#[test]
fn unknown_methods_get_method_not_found_listing_the_supported_ones() {
    let mut session = StdioSession::start(INVENTORY, &[]);
    for method in ["tools/delete", "prompts/delete"] {
        let answer = session.request(method, json!({}));
        assert_eq!(answer["error"]["code"], -32601, "{answer}");
        assert_eq!(
            answer["error"]["message"],
            format!("Method not found: '{method}'. This server implements: {SUPPORTED}.")
        );
        assert_eq!(answer["error"]["data"]["method"], method);
    }
    assert_alive(&mut session);
}

/// A method or tool name is the client's own text: a megabyte-long one is answered in a few
/// kilobytes, cut where the answer quotes it (120 characters) and where its data carries it
/// (1,024).
#[test]
fn a_huge_method_or_tool_name_gets_a_short_answer() {
    let mut session = StdioSession::start(INVENTORY, &[]);
    let long = "x".repeat(1_000_000);
    let quoted = format!("'{}…'", "x".repeat(119));
    let carried = format!("{}…", "x".repeat(1_023));
    let unknown_method = session.request(&long, json!({}));
    assert_eq!(unknown_method["error"]["code"], -32601, "{unknown_method}");
    let unknown_tool = session.request("tools/call", json!({"name": long, "arguments": {}}));
    let cases = [
        (unknown_method, "Method not found: ", "method"),
        (unknown_tool, "Unknown tool ", "tool"),
    ];
    for (answer, opening, datum) in cases {
        let message = answer["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.starts_with(&format!("{opening}{quoted}.")),
            "{message}"
        );
        assert_eq!(answer["error"]["data"][datum], carried.as_str());
        assert!(
            answer.to_string().len() < 4_096,
            "{} bytes",
            answer.to_string().len()
        );
    }
    assert_alive(&mut session);
}

#[test]
fn server_discover_is_answered_and_an_older_client_may_still_initialize() {
    // A probe of a 2026-07-28 client; a discover leaves both lifecycles open.
    let mut session = StdioSession::spawn(INVENTORY, &[]);
    let incomplete = session.request(
        "server/discover",
        json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}),
    );
    assert_eq!(incomplete["error"]["code"], -32602, "{incomplete}");
    assert_eq!(
        incomplete["error"]["message"],
        "request _meta is missing or has malformed required fields: \
         io.modelcontextprotocol/clientCapabilities"
    );
    let answer = session.request(
        "server/discover",
        json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                         "io.modelcontextprotocol/clientCapabilities": {}}}),
    );
    assert!(
        answer["result"]["supportedVersions"]
            .as_array()
            .is_some_and(|versions| versions.contains(&json!("2025-11-25"))),
        "{answer}"
    );
    let init = session.request(
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {},
               "clientInfo": {"name": "e2e", "version": "1"}}),
    );
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
}

#[test]
fn invalid_params_of_known_methods_get_invalid_params() {
    let mut session = StdioSession::spawn(INVENTORY, &[]);
    let answer = session.request(
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": "all",
               "clientInfo": {"name": "e2e", "version": "1"}}),
    );
    assert_eq!(
        answer["error"],
        json!({"code": -32602, "message":
            "Invalid params for 'initialize': 'capabilities' must be an object, but received 'all'."})
    );
    // The session survives: a proper initialize works, then tools/call without a name.
    let init = session.request(
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {},
               "clientInfo": {"name": "e2e", "version": "1"}}),
    );
    assert!(init.get("result").is_some(), "{init}");
    session.notify("notifications/initialized", None);
    let answer = session.request("tools/call", json!({"arguments": {}}));
    assert_eq!(
        answer["error"],
        json!({"code": -32602, "message":
            "Invalid params for 'tools/call': 'name' is required: expected a string."})
    );
    assert_alive(&mut session);
}

#[test]
fn unknown_tools_stay_a_json_rpc_invalid_params_error() {
    let mut session = StdioSession::start(INVENTORY, &[]);
    let answer = session.request("tools/call", json!({"name": "get_usr", "arguments": {}}));
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    assert_eq!(
        answer["error"]["message"],
        "Unknown tool 'get_usr'. Did you mean 'get_user'? Available tools: add_item, \
         search_items, get_user, list_users, reserve_stock, legacy_report."
    );
}

#[test]
fn non_object_arguments_become_an_is_error_result() {
    let mut session = StdioSession::start(INVENTORY, &[]);
    for (arguments, shown) in [
        (json!(5), "5"),
        (json!([1, 2]), "[1,2]"),
        (json!("x"), "'x'"),
    ] {
        let result = session.call_tool("get_user", arguments);
        assert_eq!(result["isError"], true, "{result}");
        let text = text_of(&result);
        // The "Valid call" line belongs to the schema profile; this test is about the arguments.
        assert!(
            text.starts_with(&format!(
                "Invalid arguments for tool 'get_user': 1 problem.\n- The arguments must be a \
                 JSON object of named arguments, but received {shown}.\nValid call: \
                 get_user(user_id: "
            )),
            "{text}"
        );
        let envelope = &result["_meta"]["rs.mcp-tool/error"];
        assert_eq!(envelope["violations"][0]["problem"], "not_an_object");
    }
    // `null` means no arguments.
    let result = session.call_tool("list_users", Value::Null);
    assert_eq!(result["isError"], false, "{result}");
}

#[test]
fn messages_over_the_size_limit_get_a_clear_error_and_the_session_goes_on() {
    let mut session = StdioSession::start(INVENTORY, &["--max-message-bytes", "2048"]);
    let line = json!({"jsonrpc": "2.0", "id": 77, "method": "tools/call",
        "params": {"name": "search_items", "arguments": {"query": "x".repeat(5000)}}});
    session.send_line(&line.to_string());
    assert_eq!(
        next(&mut session),
        json!({"jsonrpc": "2.0", "id": 77, "error": {"code": -32600,
            "message": "Message too large: it exceeds the limit of 2 KiB (2048 bytes) and was discarded. Send smaller messages.",
            "data": {"maxMessageBytes": 2048}}})
    );
    let result = session.call_tool("search_items", json!({"query": "tea"}));
    assert_eq!(result["isError"], false, "{result}");
}

#[test]
fn the_default_size_limit_is_4_mib() {
    let mut session = StdioSession::start(INVENTORY, &[]);
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":"big","method":"ping","params":{{"pad":"{}"}}}}"#,
        "x".repeat(4 * 1024 * 1024)
    );
    session.send_line(&line);
    let answer = next(&mut session);
    assert_eq!(answer["id"], "big");
    assert_eq!(
        answer["error"]["message"],
        "Message too large: it exceeds the limit of 4 MiB (4194304 bytes) and was discarded. \
         Send smaller messages."
    );
    // Just under the limit is fine.
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":"fits","method":"tools/call","params":{{"name":"search_items","arguments":{{"query":"{}"}}}}}}"#,
        "x".repeat(4 * 1024 * 1024 - 200)
    );
    session.send_line(&line);
    let answer = session.wait_for_id(&json!("fits"));
    assert_eq!(answer["result"]["isError"], true, "the tool saw the call");
    assert_eq!(
        answer["result"]["_meta"]["rs.mcp-tool/error"]["violations"][0]["problem"],
        "length"
    );
}

#[test]
fn arguments_nested_past_the_depth_limit_are_answered_with_the_request_id() {
    let mut session = StdioSession::start(INVENTORY, &[]);
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    session.send_line(&format!(
        r#"{{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{{"name":"get_user","arguments":{{"user_id":{deep}}}}}}}"#
    ));
    let answer = next(&mut session);
    assert_eq!(answer["id"], "deep", "{answer}");
    assert_eq!(answer["error"]["code"], -32700, "{answer}");
    assert_alive(&mut session);
}

#[test]
fn a_u64_max_id_and_a_method_with_a_result_are_invalid_requests_with_their_ids() {
    let mut session = StdioSession::start(INVENTORY, &[]);
    session.send_line(r#"{"jsonrpc":"2.0","id":18446744073709551615,"method":"ping"}"#);
    let answer = next(&mut session);
    assert_eq!(answer["id"], json!(u64::MAX), "{answer}");
    assert_eq!(
        answer["error"],
        json!({"code": -32600, "message": "Invalid request: the id 18446744073709551615 is \
            larger than this server accepts. Use an integer id up to 9223372036854775807 or a \
            string id."}),
        "{answer}"
    );
    session.send_line(r#"{"jsonrpc":"2.0","id":"both","method":"ping","result":{}}"#);
    let answer = next(&mut session);
    assert_eq!(answer["id"], "both", "{answer}");
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    assert_alive(&mut session);
}

#[test]
fn lone_surrogate_escapes_are_read_as_the_replacement_character() {
    let mut session = StdioSession::start(INVENTORY, &[]);
    session.send_line(r#"{"jsonrpc":"2.0","id":31,"method":"ping","params":{"note":"\udc00abc"}}"#);
    let answer = next(&mut session);
    assert_eq!(answer, json!({"jsonrpc": "2.0", "id": 31, "result": {}}));
    // In a tool's arguments the model's broken character reaches the tool as U+FFFD.
    let result = session.call_tool("search_items", json!({"query": "\u{FFFD}"}));
    let direct = text_of(&result);
    session.send_line(
        r#"{"jsonrpc":"2.0","id":32,"method":"tools/call","params":{"name":"search_items","arguments":{"query":"\ud800"}}}"#,
    );
    let answer = next(&mut session);
    assert_eq!(answer["id"], 32, "{answer}");
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    assert_eq!(text_of(&answer["result"]), direct);
    assert_alive(&mut session);
}

#[test]
fn numbers_past_the_range_of_a_float_are_invalid_requests_not_parse_errors() {
    let mut session = StdioSession::start(INVENTORY, &[]);
    session.send_line(r#"{"jsonrpc":"2.0","id":1e400,"method":"ping"}"#);
    let answer = next(&mut session);
    assert_eq!(answer["id"], Value::Null, "{answer}");
    assert_eq!(
        answer["error"],
        json!({"code": -32600, "message": "Invalid request: the message holds a number too \
            large for JSON-RPC peers to represent (number out of range at line 1 column 27). Use \
            an integer id up to 9223372036854775807 or a string id, and numbers within the range \
            of a 64-bit float."}),
        "{answer}"
    );
    session.send_line(r#"{"jsonrpc":"2.0","id":33,"method":"ping","params":{"n":-1e400}}"#);
    let answer = next(&mut session);
    assert_eq!(answer["id"], 33, "{answer}");
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    assert_alive(&mut session);
}
