//! A masked error tells the model "the details were logged under correlation id X". With no
//! tracing subscriber installed, the runtime itself must write that line, to stderr.

use mcp_tool_test_support::stdio::{StdioSession, envelope_of, text_of};
use serde_json::json;

#[test]
fn without_a_subscriber_the_masked_cause_goes_to_stderr_under_its_correlation_id() {
    let mut server = StdioSession::start(env!("CARGO_BIN_EXE_mcp-tool-example-quickstart"), &[]);
    let result = server.call_tool("daily_report", json!({}));
    assert_eq!(result["isError"], true, "{result}");
    let id = envelope_of(&result)["correlationId"]
        .as_str()
        .expect("a correlation id")
        .to_string();
    assert!(text_of(&result).contains(&id), "{result}");
    assert!(
        !text_of(&result).contains("nonexistent"),
        "the cause is masked: {result}"
    );

    let stderr = server.wait_for_stderr(&id);
    let line = stderr
        .lines()
        .find(|line| line.contains(&id))
        .unwrap_or_else(|| panic!("no stderr line with {id}:\n{stderr}"));
    assert!(line.contains("daily_report"), "{line}");
    assert!(line.contains("No such file or directory"), "{line}");
    assert!(server.close().success());
}

#[test]
fn without_a_subscriber_only_masked_failures_are_written() {
    let mut server = StdioSession::start(env!("CARGO_BIN_EXE_mcp-tool-example-quickstart"), &[]);
    let valid = server.call_tool("add_item", json!({"sku": "ABC-0001", "quantity": 2}));
    assert_eq!(valid["isError"], false, "{valid}");
    let invalid = server.call_tool("add_item", json!({"sku": "ABC", "quantity": 2}));
    assert_eq!(invalid["isError"], true, "{invalid}");
    // The masked failure's line comes after anything the two calls before it wrote.
    let masked = server.call_tool("daily_report", json!({}));
    let id = envelope_of(&masked)["correlationId"]
        .as_str()
        .expect("a correlation id")
        .to_string();
    let stderr = server.wait_for_stderr(&id);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(server.close().success());
}

#[test]
fn an_error_type_with_derived_codes_reaches_the_model_over_stdio() {
    let mut server = StdioSession::start(env!("CARGO_BIN_EXE_mcp-tool-example-quickstart"), &[]);
    let not_found = server.call_tool("price", json!({"sku": "QQQ-0000"}));
    assert_eq!(envelope_of(&not_found)["code"], "not_found", "{not_found}");
    assert_eq!(
        text_of(&not_found),
        "No item with SKU 'QQQ-0000' is in the catalog.\nHint: Use add_item with a catalog code such as ABC-0001."
    );
    let masked = server.call_tool("price", json!({"sku": "ZZZ-9999"}));
    assert_eq!(envelope_of(&masked)["code"], "internal_error", "{masked}");
    assert!(!text_of(&masked).contains("price table locked"), "{masked}");
    let id = envelope_of(&masked)["correlationId"]
        .as_str()
        .expect("a correlation id")
        .to_string();
    assert!(server.wait_for_stderr(&id).contains("price table locked"));
    assert!(server.close().success());
}

#[test]
fn the_tools_of_both_blocks_are_listed() {
    let mut server = StdioSession::start(env!("CARGO_BIN_EXE_mcp-tool-example-quickstart"), &[]);
    let listed = server.request("tools/list", json!({}));
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("a tool list: {listed}"))
        .iter()
        .filter_map(|tool| tool["name"].as_str())
        .collect();
    assert_eq!(
        names,
        ["add_item", "price", "count_stock", "daily_report"],
        "{listed}"
    );
    assert!(server.close().success());
}
