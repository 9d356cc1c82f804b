//! Bounded answers: a huge bad call gets the first problems in full and a summary.

use mcp_tool_runtime::{InputLimits, McpServer, mcp_tool};
use mcp_tool_test_support::results::{call, envelope, text};
use serde_json::{Value, json};

/// Tag some items.
#[mcp_tool]
pub(crate) fn tag_items(ids: Vec<u32>, tags: Vec<String>) -> String {
    format!("{} {}", ids.len(), tags.len())
}

/// A server whose array limit lets through the 120,000 items the tests below need: what is
/// under test is the answer to many problems, not the limit (see the last test).
fn server() -> McpServer<()> {
    McpServer::builder(())
        .tool(tag_items_tool())
        .input_limits(InputLimits::default().max_array_items(200_000))
        .build()
        .expect("server")
}

#[tokio::test]
async fn a_call_with_thousands_of_problems_gets_twenty_and_a_summary() {
    let tags: Vec<Value> = (0..120_000).map(Value::from).collect();
    let result = call(&server(), "tag_items", json!({"ids": [1], "tags": tags})).await;
    let text = text(&result);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "Invalid arguments for tool 'tag_items': 120000 problems."
    );
    assert_eq!(
        lines[1],
        "- Argument 'tags[0]' expected a string, but received 0."
    );
    assert_eq!(
        lines[20],
        "- Argument 'tags[19]' expected a string, but received 19."
    );
    assert_eq!(
        lines[21],
        "- …and 119,980 more problems of the same kinds under tags[…]."
    );
    assert!(
        lines[22].starts_with("Valid call: tag_items("),
        "{}",
        lines[22]
    );
    assert_eq!(lines.len(), 23);
    assert!(text.len() < 4_096, "{} bytes", text.len());
    let envelope = envelope(&result);
    assert_eq!(envelope["violations"].as_array().map(Vec::len), Some(20));
    assert_eq!(envelope["violationsTotal"], 120_000);
}

#[tokio::test]
async fn new_kinds_and_places_past_the_first_twenty_are_named() {
    let tags: Vec<Value> = (0..25).map(Value::from).collect();
    let result = call(&server(), "tag_items", json!({"tags": tags, "idz": 1})).await;
    let text = text(&result);
    let summary = text.lines().nth(21).unwrap_or_default();
    assert_eq!(
        summary,
        "- …and 7 more problems (among them unknown_argument) under tags[…], idz."
    );
}

/// Past the first thousand problems only a tally is kept (a call of 100,000 bad items
/// would otherwise take some 40 MiB to answer); the summary still counts and names them.
#[tokio::test]
async fn problems_past_the_first_thousand_are_counted_and_named_in_the_summary() {
    let tags: Vec<Value> = (0..1_500).map(Value::from).collect();
    let result = call(&server(), "tag_items", json!({"tags": tags, "idz": 1})).await;
    let text = text(&result);
    assert!(
        text.starts_with("Invalid arguments for tool 'tag_items': 1502 problems."),
        "{text}"
    );
    let summary = text.lines().nth(21).unwrap_or_default();
    assert_eq!(
        summary,
        "- …and 1,482 more problems (among them unknown_argument) under tags[…], idz."
    );
    assert_eq!(envelope(&result)["violationsTotal"], 1_502);
}

/// A lenient call may send an array as JSON text; text that would make an array over the
/// limits is not parsed (the limits were checked on the message, where it was one string).
#[tokio::test]
async fn json_text_for_an_array_is_read_only_within_the_input_limits() {
    let server = McpServer::builder(())
        .tool(tag_items_tool())
        .input_limits(InputLimits::default().max_array_items(3))
        .build()
        .expect("server");
    let within = call(
        &server,
        "tag_items",
        json!({"ids": "[1, 2, 3]", "tags": []}),
    )
    .await;
    assert_eq!(text(&within), "3 0");
    let over = call(
        &server,
        "tag_items",
        json!({"ids": "[1, 2, 3, 4]", "tags": []}),
    )
    .await;
    assert_eq!(
        text(&over).lines().nth(1),
        Some("- Argument 'ids' expected an array, but received '[1, 2, 3, 4]'.")
    );
}

/// An argument's name is the model's own text: a long one is cut where the answer names it,
/// so that a 3 MB name gets an answer of a few kilobytes, not three copies of the name.
#[tokio::test]
async fn a_long_argument_name_is_cut_where_the_answer_names_it() {
    let long = "k".repeat(100_000);
    let mut arguments = json!({"ids": [1], "tags": []});
    arguments[&long] = json!(1);
    let result = call(&server(), "tag_items", arguments).await;
    let text = text(&result);
    let cut = format!("{}…", "k".repeat(119));
    assert_eq!(
        text.lines().nth(1),
        Some(format!("- Unknown argument '{cut}'. Valid arguments here: ids, tags.").as_str())
    );
    assert!(text.len() < 1_024, "{} bytes", text.len());
    let violation = &envelope(&result)["violations"][0];
    let path = violation["path"].as_str().unwrap_or_default();
    assert_eq!(path, format!("{}…", "k".repeat(1_023)));
    assert!(serde_json::to_string(&result).map_or(0, |answer| answer.len()) < 4_096);
}

#[tokio::test]
async fn twenty_problems_or_fewer_are_all_spelled_out() {
    let tags: Vec<Value> = (0..20).map(Value::from).collect();
    let result = call(&server(), "tag_items", json!({"ids": [1], "tags": tags})).await;
    assert!(!text(&result).contains("more problem"));
    assert_eq!(envelope(&result).get("violationsTotal"), None);
}

#[tokio::test]
async fn an_array_over_the_input_limits_is_refused_before_its_items_are_read() {
    let server = McpServer::builder(())
        .tool(tag_items_tool())
        .build()
        .expect("server");
    let tags: Vec<Value> = (0..100_001).map(Value::from).collect();
    let result = call(&server, "tag_items", json!({"ids": [1], "tags": tags})).await;
    let text = text(&result);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..2],
        [
            "Invalid arguments for tool 'tag_items': 1 problem.",
            "- Argument 'tags' has 100001 items, more than the 100000 this server accepts in \
             one array. Send at most 100000 items, or split the work over several calls.",
        ]
    );
    let violation = &envelope(&result)["violations"][0];
    assert_eq!(violation["problem"], "too_large");
    // The phrase of what was expected is the text's, not the envelope's (issue 27).
    assert!(violation.get("expected").is_none(), "{violation}");
    // At the limit, the items are read (and here, every one is the wrong type).
    let tags: Vec<Value> = (0..100_000).map(Value::from).collect();
    let result = call(&server, "tag_items", json!({"ids": [1], "tags": tags})).await;
    assert_eq!(envelope(&result)["violationsTotal"], 100_000);
}

/// A problem the schema and `validator` both find is counted once, past the thousand kept in
/// full as before them: an unknown argument sends the call to both, and 1,500 lines out of
/// range were counted as 2,000.
#[tokio::test]
async fn a_problem_both_checks_find_is_counted_once_past_the_kept_thousand() {
    let lines: Vec<Value> = (0..1_500)
        .map(|_| json!({"sku": "ABC-0001", "qty": 0}))
        .collect();
    let result = call(
        &crate::fixtures::server(),
        "check_lines",
        json!({"lines": lines, "idz": 1}),
    )
    .await;
    let text = text(&result);
    assert!(
        text.starts_with("Invalid arguments for tool 'check_lines': 1501 problems."),
        "{text}"
    );
    assert_eq!(envelope(&result)["violationsTotal"], 1_501);
}
