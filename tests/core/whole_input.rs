//! Whole-input structs (`#[arg(input)]`) and nested validation.

use mcp_tool_runtime::mcp_tool;
use mcp_tool_test_support::results::{
    assert_portable, call, ok_text, violation_at, violation_messages,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use validator::Validate;

use crate::fixtures::{SKU, input_schema, server};

/// One line of an order.
#[derive(Debug, Deserialize, Serialize, JsonSchema, Validate)]
pub(crate) struct Line {
    /// Catalog code.
    #[validate(regex(path = *SKU))]
    sku: String,
    /// How many.
    #[validate(range(min = 1, max = 99))]
    qty: u32,
}

/// An order.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
pub(crate) struct Order {
    /// Who orders.
    #[validate(length(min = 1, max = 40))]
    customer: String,
    /// Where to send it.
    #[validate(email)]
    email: String,
    /// The lines of the order.
    #[validate(length(min = 1), nested)]
    items: Vec<Line>,
}

/// Place an order.
#[mcp_tool]
pub(crate) fn place_order(#[arg(input)] order: Order) -> String {
    format!("{} ordered {} lines", order.customer, order.items.len())
}

/// A struct validated through the runtime's re-export of `validator`.
#[derive(Debug, Deserialize, JsonSchema, mcp_tool_runtime::validator::Validate)]
#[validate(crate = "mcp_tool_runtime::validator")]
pub(crate) struct Rename {
    #[validate(length(min = 2))]
    new_name: String,
}

/// Rename something.
#[mcp_tool]
pub(crate) fn rename(#[arg(input)] input: Rename) -> String {
    input.new_name
}

/// `#[validate(nested)]` on a plain argument.
pub(crate) mod nested_argument {
    use super::Line;
    use mcp_tool_runtime::mcp_tool;

    /// Check order lines.
    #[mcp_tool]
    pub fn check_lines(#[validate(nested)] lines: Vec<Line>) -> String {
        format!("{} lines", lines.len())
    }
}

fn start_not_after_end(range: &DateRange) -> Result<(), validator::ValidationError> {
    if range.start <= range.end {
        Ok(())
    } else {
        Err(validator::ValidationError::new("order")
            .with_message("'start' must not be after 'end'".into()))
    }
}

/// A range of days.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[validate(schema(function = start_not_after_end))]
pub(crate) struct DateRange {
    /// First day.
    start: u32,
    /// Last day.
    end: u32,
}

/// Count the days of a range.
#[mcp_tool]
pub(crate) fn count_days(#[arg(input)] range: DateRange) -> String {
    (range.end - range.start + 1).to_string()
}

/// Labels with free-form extra keys.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
pub(crate) struct Labels {
    name: String,
    #[serde(flatten)]
    extra: std::collections::BTreeMap<String, String>,
}

/// Store labels.
#[mcp_tool]
pub(crate) fn store_labels(#[arg(input)] labels: Labels) -> String {
    format!("{} {:?}", labels.name, labels.extra)
}

fn valid_order() -> Value {
    json!({
        "customer": "Ada",
        "email": "ada@example.com",
        "items": [
            {"sku": "ABC-0001", "qty": 1},
            {"sku": "ABC-0002", "qty": 2},
            {"sku": "ABC-0003", "qty": 3}
        ]
    })
}

#[tokio::test]
async fn whole_input_struct_receives_the_arguments() {
    let result = call(&server(), "place_order", valid_order()).await;
    assert_eq!(ok_text(&result), "Ada ordered 3 lines");
}

#[tokio::test]
async fn nested_validation_reports_the_item_path() {
    let mut order = valid_order();
    order["items"][2]["qty"] = json!(500);
    let result = call(&server(), "place_order", order).await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'items[2].qty' must be between 1 and 99, but received 500."]
    );
    assert_eq!(
        violation_at(&result, "items[2].qty")["problem"],
        "out_of_range"
    );
}

#[tokio::test]
async fn nested_validation_reports_every_item() {
    let mut order = valid_order();
    order["customer"] = json!("");
    order["email"] = json!("ada");
    order["items"][0]["sku"] = json!("abc");
    order["items"][2]["qty"] = json!(0);
    let result = call(&server(), "place_order", order).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'customer' must be between 1 and 40 characters long, but received '' (0 characters).",
            "Argument 'email' must be a valid email address, but received 'ada'.",
            "Argument 'items[0].sku' must match the pattern `^[A-Z]{3}-[0-9]{4}$`, but received 'abc'.",
            "Argument 'items[2].qty' must be between 1 and 99, but received 0.",
        ]
    );
}

#[tokio::test]
async fn nested_type_mismatches_report_the_item_path() {
    let mut order = valid_order();
    order["items"][1]["qty"] = json!("two");
    order["items"][2] = json!({"sku": "ABC-0003"});
    let result = call(&server(), "place_order", order).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'items[1].qty' expected an integer, but received 'two'.",
            "Missing required argument 'items[2].qty': expected an integer between 1 and 99.",
        ]
    );
}

#[tokio::test]
async fn whole_input_rejects_unknown_arguments_with_a_suggestion() {
    let mut order = valid_order();
    order["emial"] = json!("ada@example.com");
    let result = call(&server(), "place_order", order).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Unknown argument 'emial'. Did you mean 'email'? Valid arguments here: customer, email, items."
        ]
    );
}

#[tokio::test]
async fn nested_validation_of_a_plain_argument_reports_the_item_path() {
    let server = server();
    let lines = json!([
        {"sku": "ABC-0001", "qty": 1},
        {"sku": "ABC-0002", "qty": 2},
        {"sku": "ABC-0003", "qty": 100}
    ]);
    let result = call(&server, "check_lines", json!({"lines": lines})).await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'lines[2].qty' must be between 1 and 99, but received 100."]
    );
    let ok = call(
        &server,
        "check_lines",
        json!({"lines": [{"sku": "ABC-0001", "qty": 1}]}),
    )
    .await;
    assert_eq!(ok_text(&ok), "1 lines");
}

#[tokio::test]
async fn nested_violations_are_ordered_by_index() {
    let items: Vec<Value> = (0..12)
        .map(|i| json!({"sku": "ABC-0001", "qty": if i == 2 || i == 10 { 0 } else { 1 }}))
        .collect();
    let mut order = valid_order();
    order["items"] = json!(items);
    let result = call(&server(), "place_order", order).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'items[2].qty' must be between 1 and 99, but received 0.",
            "Argument 'items[10].qty' must be between 1 and 99, but received 0.",
        ]
    );
}

#[tokio::test]
async fn struct_level_checks_speak_about_the_arguments() {
    let server = server();
    assert_eq!(
        ok_text(&call(&server, "count_days", json!({"start": 3, "end": 5})).await),
        "3"
    );
    let result = call(&server, "count_days", json!({"start": 9, "end": 5})).await;
    assert_eq!(
        violation_messages(&result),
        ["The arguments are invalid: 'start' must not be after 'end'."]
    );
    assert_eq!(violation_at(&result, "")["problem"], "custom");
}

#[tokio::test]
async fn whole_input_with_a_flattened_map_accepts_extra_keys() {
    let server = server();
    let result = call(
        &server,
        "store_labels",
        json!({"name": "mug", "color": "red"}),
    )
    .await;
    assert_eq!(ok_text(&result), r#"mug {"color": "red"}"#);
    let result = call(&server, "store_labels", json!({"name": "mug", "size": 5})).await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'size' expected a string, but received 5."]
    );
}

#[test]
fn whole_input_schema_is_portable() {
    let schema = input_schema("place_order");
    // Closed at run time, not in the default profile's schema (issue 27).
    assert!(schema.get("additionalProperties").is_none(), "{schema}");
    assert_portable(&schema, false);
    assert_eq!(
        schema["properties"]["items"]["items"]["properties"]["sku"]["pattern"],
        "^[A-Z]{3}-[0-9]{4}$"
    );
}

#[tokio::test]
async fn whole_input_works_with_the_runtimes_validator_reexport() {
    let server = server();
    assert_eq!(
        ok_text(&call(&server, "rename", json!({"new_name": "Bob"})).await),
        "Bob"
    );
    let result = call(&server, "rename", json!({"new_name": "B"})).await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'new_name' must be at least 2 characters long, but received 'B' (1 character)."]
    );
}
