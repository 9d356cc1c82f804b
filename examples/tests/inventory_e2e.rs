//! End-to-end tests: the real `inventory` binary, spoken to in JSON-RPC over real pipes.

use mcp_tool_test_support::stdio::{StdioSession, client_envelope_of, envelope_of, text_of};
use serde_json::{Value, json};

fn inventory() -> StdioSession {
    StdioSession::start(env!("CARGO_BIN_EXE_inventory"), &[])
}

fn tools(session: &mut StdioSession) -> Vec<Value> {
    let listed = session.request("tools/list", json!({}));
    listed["result"]["tools"]
        .as_array()
        .expect("tools array")
        .clone()
}

fn tool<'a>(tools: &'a [Value], name: &str) -> &'a Value {
    tools
        .iter()
        .find(|tool| tool["name"] == name)
        .unwrap_or_else(|| panic!("no tool {name}"))
}

fn find_key(value: &Value, key: &str) -> bool {
    match value {
        Value::Object(object) => {
            object.contains_key(key) || object.values().any(|child| find_key(child, key))
        }
        Value::Array(items) => items.iter().any(|child| find_key(child, key)),
        _ => false,
    }
}

/// The sentence of each violation, which the envelope leaves to the text (issue 27).
fn messages(result: &Value) -> Vec<String> {
    client_envelope_of(result)
        .violations
        .iter()
        .map(|violation| violation["message"].as_str().expect("message").to_string())
        .collect()
}

#[test]
fn lists_exactly_the_six_tools_with_portable_schemas() {
    let mut session = inventory();
    let tools = tools(&mut session);
    let mut names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "add_item",
            "get_user",
            "legacy_report",
            "list_users",
            "reserve_stock",
            "search_items"
        ]
    );
    for tool in &tools {
        let name = &tool["name"];
        assert!(
            tool["description"].as_str().is_some_and(|d| !d.is_empty()),
            "{name} has a description"
        );
        assert!(
            !tool["description"]
                .as_str()
                .unwrap()
                .contains("# Arguments"),
            "{name}: the Arguments section is not repeated in the description"
        );
        for schema in [&tool["inputSchema"], &tool["outputSchema"]] {
            assert_eq!(schema["type"], "object", "{name}: object at the root");
            for forbidden in ["$ref", "$defs", "$schema", "format"] {
                assert!(
                    !find_key(schema, forbidden),
                    "{name}: no {forbidden} in {schema}"
                );
            }
            assert!(
                !schema.to_string().contains("\"null\""),
                "{name}: optional values are not typed null: {schema}"
            );
        }
        // No boolean `additionalProperties`: google-genai fails on it (issue 27).
        assert!(
            !find_key(&tool["inputSchema"], "additionalProperties"),
            "{tool}"
        );
    }

    let add_item = &tool(&tools, "add_item")["inputSchema"];
    assert_eq!(add_item["required"], json!(["sku", "quantity"]));
    assert_eq!(
        add_item["properties"]["sku"]["pattern"],
        "^[A-Z]{3}-[0-9]{4}$"
    );
    assert_eq!(
        add_item["properties"]["sku"]["description"],
        "Catalog code of the item."
    );
    assert_eq!(add_item["properties"]["quantity"]["minimum"], 1);
    assert_eq!(add_item["properties"]["quantity"]["maximum"], 100);
    assert_eq!(add_item["properties"]["note"]["maxLength"], 200);
    assert_eq!(add_item["properties"]["note"]["type"], "string");

    let search = &tool(&tools, "search_items")["inputSchema"];
    assert_eq!(search["required"], json!(["query"]));
    assert_eq!(search["properties"]["query"]["minLength"], 1);
    assert_eq!(search["properties"]["query"]["maxLength"], 100);
    assert_eq!(search["properties"]["sort"]["default"], "asc");
    assert_eq!(search["properties"]["limit"]["default"], 10);
    assert_eq!(search["properties"]["limit"]["minimum"], 1);
    assert_eq!(search["properties"]["limit"]["maximum"], 50);
    // An empty default is left out: leaving `tags` out already means no tag.
    assert_eq!(search["properties"]["tags"].get("default"), None);
    assert_eq!(
        search["properties"]["tags"]["items"],
        json!({"type": "string"})
    );

    let get_user = &tool(&tools, "get_user")["inputSchema"];
    assert_eq!(get_user["properties"]["user_id"]["minimum"], 1);
    assert_eq!(
        tool(&tools, "list_users")["inputSchema"],
        json!({"type": "object"})
    );
    assert_eq!(
        tool(&tools, "search_items")["annotations"]["readOnlyHint"],
        true
    );
}

#[test]
fn add_item_returns_a_structured_cart_line_and_a_text_copy() {
    let mut session = inventory();
    let first = session.call_tool("add_item", json!({"sku": "ABC-0001", "quantity": 2}));
    assert_eq!(first["isError"], false);
    assert_eq!(
        first["structuredContent"],
        json!({"sku": "ABC-0001", "quantity": 2, "cart_total": 2})
    );
    let copy: Value = serde_json::from_str(&text_of(&first)).expect("text is JSON");
    assert_eq!(copy, first["structuredContent"]);

    let second = session.call_tool(
        "add_item",
        json!({"sku": "DEF-0100", "quantity": 3, "note": "gift"}),
    );
    assert_eq!(second["structuredContent"]["cart_total"], 5);
}

#[test]
fn a_wrong_type_gets_the_exact_contract_message() {
    let mut session = inventory();
    let result = session.call_tool("add_item", json!({"sku": "ABC-0001", "quantity": "five"}));
    assert_eq!(result["isError"], true);
    let text = text_of(&result);
    assert!(
        text.contains("Argument 'quantity' expected an integer, but received 'five'."),
        "{text}"
    );
    let envelope = envelope_of(&result);
    assert_eq!(envelope["code"], "invalid_arguments");
    assert_eq!(envelope["retryable"], false);
    assert_eq!(envelope["violations"][0]["path"], "quantity");
    // The phrase of what was expected is in the sentence, not on the wire (issue 27).
    assert!(
        envelope["violations"][0].get("expected").is_none(),
        "{envelope}"
    );
    assert_eq!(envelope["violations"][0]["received"], "five");
    // The tool declares an outputSchema: an error carries no structuredContent, which a
    // TypeScript SDK 1.x client would otherwise validate against that schema and reject.
    assert!(result.get("structuredContent").is_none(), "{result}");
}

#[test]
fn every_violation_is_reported_at_once_with_did_you_mean() {
    let mut session = inventory();
    let result = session.call_tool(
        "add_item",
        json!({"sku": "abc-1", "quantity": 500, "quantiy": 3, "note": "n".repeat(201)}),
    );
    assert_eq!(result["isError"], true);
    assert_eq!(
        messages(&result),
        [
            "Argument 'sku' must match the pattern `^[A-Z]{3}-[0-9]{4}$` (for example 'ABC-0001'), but received 'abc-1'.",
            "Argument 'quantity' must be between 1 and 100, but received 500.",
            format!(
                "Argument 'note' must be at most 200 characters long, but received '{}…' (201 characters).",
                "n".repeat(79)
            )
            .as_str(),
            "Unknown argument 'quantiy'. Did you mean 'quantity'? Valid arguments here: sku, quantity, note.",
        ]
    );
    let text = text_of(&result);
    assert!(
        text.starts_with("Invalid arguments for tool 'add_item': 4 problems."),
        "{text}"
    );
    assert!(
        text.contains("Valid call: add_item(sku: a string matching `^[A-Z]{3}-[0-9]{4}$`, quantity: an integer between 1 and 100, note?: a string of at most 200 characters)"),
        "{text}"
    );
    let unknown = &envelope_of(&result)["violations"][3];
    assert_eq!(unknown["suggestion"], "quantity");
    // The valid names are in the sentence, not in the envelope (issue 27).
    assert!(unknown.get("allowed").is_none(), "{unknown}");
    assert!(
        text.contains("Valid arguments here: sku, quantity, note."),
        "{text}"
    );
}

#[test]
fn constraint_violations_found_after_deserializing_are_all_reported() {
    let mut session = inventory();
    let result = session.call_tool("add_item", json!({"sku": "abc", "quantity": 0}));
    assert_eq!(
        messages(&result),
        [
            "Argument 'sku' must match the pattern `^[A-Z]{3}-[0-9]{4}$` (for example 'ABC-0001'), but received 'abc'.",
            "Argument 'quantity' must be between 1 and 100, but received 0.",
        ]
    );
}

#[test]
fn missing_null_and_absent_arguments_are_explained() {
    let mut session = inventory();
    let empty = session.call_tool("add_item", json!({}));
    assert_eq!(
        messages(&empty),
        [
            "Missing required argument 'sku': expected a string matching `^[A-Z]{3}-[0-9]{4}$`.",
            "Missing required argument 'quantity': expected an integer between 1 and 100.",
        ]
    );
    assert!(text_of(&empty).starts_with("Invalid arguments for tool 'add_item': 2 problems."));
    let null = session.call_tool("add_item", Value::Null);
    assert_eq!(messages(&null), messages(&empty));
    let absent = session.request("tools/call", json!({"name": "add_item"}));
    assert_eq!(messages(&absent["result"]), messages(&empty));
    for result in [&null, &absent["result"]] {
        let headline =
            "Tool 'add_item' was called without arguments, but it requires 'sku', 'quantity'.";
        assert!(text_of(result).starts_with(headline), "{result}");
        assert_eq!(client_envelope_of(result).error, headline);
    }
}

#[test]
fn an_unknown_sku_is_not_found_with_a_hint() {
    let mut session = inventory();
    let result = session.call_tool("add_item", json!({"sku": "ZZZ-9999", "quantity": 1}));
    assert_eq!(result["isError"], true);
    let envelope = envelope_of(&result);
    assert_eq!(envelope["code"], "not_found");
    assert_eq!(envelope["class"], "input");
    assert_eq!(envelope["retryable"], false);
    assert_eq!(envelope["hint"], "Use search_items to find valid SKUs.");
    assert_eq!(
        text_of(&result),
        "No item with SKU 'ZZZ-9999' is in the catalog.\nHint: Use search_items to find valid SKUs."
    );
}

fn skus(result: &Value) -> Vec<String> {
    result["structuredContent"]["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|item| item["sku"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn search_items_applies_defaults_order_limit_and_tags() {
    let mut session = inventory();
    let all = session.call_tool("search_items", json!({"query": "e"}));
    assert_eq!(all["isError"], false);
    let prices: Vec<i64> = all["structuredContent"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["price_cents"].as_i64().unwrap())
        .collect();
    assert!(prices.len() >= 5, "{all}");
    assert!(
        prices.windows(2).all(|w| w[0] <= w[1]),
        "ascending by default: {prices:?}"
    );

    let desc = session.call_tool(
        "search_items",
        json!({"query": "e", "sort": "desc", "limit": 2}),
    );
    assert_eq!(skus(&desc), ["DEF-0101", "ABC-0002"]);

    let coffee_gear = session.call_tool(
        "search_items",
        json!({"query": "", "tags": ["coffee", "equipment"]}),
    );
    // An empty query is rejected (minLength 1), proving the length rule runs.
    assert_eq!(coffee_gear["isError"], true);
    let coffee_gear = session.call_tool(
        "search_items",
        json!({"query": "-", "tags": ["coffee", "equipment"]}),
    );
    // Cheapest first: the frother (33.00) before the kettle (59.00).
    assert_eq!(skus(&coffee_gear), ["XYZ-9000", "ABC-0002"]);
}

#[test]
fn search_items_lists_allowed_sort_values_and_suggests_one() {
    let mut session = inventory();
    let result = session.call_tool("search_items", json!({"query": "mug", "sort": "ascending"}));
    assert_eq!(
        messages(&result),
        [
            "Argument 'sort' must be one of 'asc', 'desc', but received 'ascending'. Did you mean 'asc'?"
        ]
    );
    let violation = &envelope_of(&result)["violations"][0];
    assert_eq!(violation["allowed"], json!(["asc", "desc"]));
    assert_eq!(violation["suggestion"], "asc");
    assert!(
        text_of(&result).contains("sort?: one of 'asc', 'desc' (default 'asc')"),
        "{}",
        text_of(&result)
    );
}

#[test]
fn users_are_found_listed_and_missing_ones_point_to_list_users() {
    let mut session = inventory();
    let user = session.call_tool("get_user", json!({"user_id": 2}));
    assert_eq!(
        user["structuredContent"],
        json!({"id": 2, "name": "Grace Hopper", "email": "grace@example.com"})
    );
    let missing = session.call_tool("get_user", json!({"user_id": 999}));
    assert_eq!(envelope_of(&missing)["code"], "not_found");
    assert!(
        envelope_of(&missing)["hint"]
            .as_str()
            .unwrap()
            .contains("list_users"),
        "{missing}"
    );
    let zero = session.call_tool("get_user", json!({"user_id": 0}));
    assert_eq!(
        messages(&zero),
        ["Argument 'user_id' must be at least 1, but received 0."]
    );
    let users = session.call_tool("list_users", json!({}));
    assert!(
        users["structuredContent"]["users"]
            .as_array()
            .unwrap()
            .len()
            >= 3
    );
}

#[test]
fn the_sixth_reservation_in_a_minute_is_rate_limited_with_retry_after() {
    let mut session = inventory();
    for _ in 0..5 {
        let ok = session.call_tool("reserve_stock", json!({"sku": "ABC-0003", "quantity": 1}));
        assert_eq!(ok["isError"], false, "{ok}");
    }
    let limited = session.call_tool("reserve_stock", json!({"sku": "ABC-0003", "quantity": 1}));
    assert_eq!(limited["isError"], true);
    let envelope = envelope_of(&limited);
    assert_eq!(envelope["code"], "rate_limited");
    assert_eq!(envelope["retryable"], true);
    let wait = envelope["retryAfter"].as_u64().expect("whole seconds");
    assert!((1..=60).contains(&wait), "{wait}");
    assert!(
        text_of(&limited).contains(&format!("retry after {wait} seconds")),
        "{}",
        text_of(&limited)
    );
}

#[test]
fn an_internal_sql_error_is_masked_and_logged_under_the_same_id() {
    let mut session = inventory();
    let result = session.call_tool("legacy_report", json!({"year": 2024}));
    assert_eq!(result["isError"], true);
    let seen = result.to_string();
    for secret in [
        "reports_v2",
        "no such table",
        "SELECT",
        "sqlite",
        "SqliteFailure",
        ".rs",
    ] {
        assert!(!seen.contains(secret), "client saw {secret:?}: {seen}");
    }
    // No file path: the only '/' the client receives is in the envelope's `_meta` key.
    assert!(!text_of(&result).contains('/'), "{result}");
    assert!(!envelope_of(&result).to_string().contains('/'), "{result}");
    let envelope = envelope_of(&result);
    assert_eq!(envelope["code"], "internal_error");
    let id = envelope["correlationId"].as_str().expect("correlation id");
    assert!(text_of(&result).contains(id));
    let log = session.wait_for_stderr(id);
    let line = log
        .lines()
        .find(|line| line.contains(id))
        .unwrap_or_else(|| panic!("no log line with {id}:\n{log}"));
    assert!(line.contains("no such table: reports_v2"), "{line}");
}

#[test]
fn an_unknown_tool_is_a_protocol_error_and_the_session_goes_on() {
    let mut session = inventory();
    let response = session.request("tools/call", json!({"name": "add_iten", "arguments": {}}));
    assert_eq!(response["error"]["code"], -32602);
    assert_eq!(
        response["error"]["message"],
        "Unknown tool 'add_iten'. Did you mean 'add_item'? Available tools: add_item, search_items, get_user, list_users, reserve_stock, legacy_report."
    );
    let next = session.call_tool("get_user", json!({"user_id": 1}));
    assert_eq!(next["isError"], false);
    let status = session.close();
    assert!(status.success(), "{status}");
}
