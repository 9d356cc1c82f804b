//! Type mismatches: one sentence per wrong JSON type, with the path and the received value.

use mcp_tool_test_support::results::{call, ok_text, violation_at, violation_messages, wire};
use serde_json::{Value, json};

use crate::fixtures::server;

fn valid_every_type() -> Value {
    json!({
        "quantity": 5,
        "name": "Ada",
        "price": 2.5,
        "gift": true,
        "tags": ["a"],
        "address": {"street": "Main St", "zip": 12345}
    })
}

async fn every_type_with(key: &str, value: Value) -> Vec<String> {
    let mut arguments = valid_every_type();
    arguments[key] = value;
    violation_messages(&call(&server(), "every_type", arguments).await)
}

#[tokio::test]
async fn valid_arguments_reach_the_function() {
    let result = call(&server(), "every_type", valid_every_type()).await;
    assert_eq!(ok_text(&result), "5 Ada 2.5 true 1 Main St 12345");
}

#[tokio::test]
async fn integer_mismatch_has_the_exact_contract_sentence() {
    assert_eq!(
        every_type_with("quantity", json!("five")).await,
        ["Argument 'quantity' expected an integer, but received 'five'."]
    );
}

#[tokio::test]
async fn integer_mismatch_for_a_fraction() {
    assert_eq!(
        every_type_with("quantity", json!(2.5)).await,
        ["Argument 'quantity' expected an integer, but received 2.5."]
    );
}

#[tokio::test]
async fn string_mismatch_uses_the_same_voice() {
    assert_eq!(
        every_type_with("name", json!(42)).await,
        ["Argument 'name' expected a string, but received 42."]
    );
}

#[tokio::test]
async fn number_mismatch_uses_the_same_voice() {
    assert_eq!(
        every_type_with("price", json!("cheap")).await,
        ["Argument 'price' expected a number, but received 'cheap'."]
    );
}

#[tokio::test]
async fn boolean_mismatch_uses_the_same_voice() {
    assert_eq!(
        every_type_with("gift", json!("yes")).await,
        ["Argument 'gift' expected a boolean, but received 'yes'."]
    );
}

#[tokio::test]
async fn array_mismatch_uses_the_same_voice() {
    assert_eq!(
        every_type_with("tags", json!({"a": 1})).await,
        [r#"Argument 'tags' expected an array, but received {"a":1}."#]
    );
}

#[tokio::test]
async fn object_mismatch_uses_the_same_voice() {
    assert_eq!(
        every_type_with("address", json!("Main St 1")).await,
        ["Argument 'address' expected an object, but received 'Main St 1'."]
    );
}

#[tokio::test]
async fn null_for_a_required_argument_is_a_type_mismatch() {
    assert_eq!(
        every_type_with("name", Value::Null).await,
        ["Argument 'name' expected a string, but received null."]
    );
}

#[tokio::test]
async fn long_received_strings_are_quoted_and_cut_at_80_characters() {
    let long = "x".repeat(500);
    let messages = every_type_with("quantity", json!(long)).await;
    let shown = format!("'{}…'", "x".repeat(79));
    assert_eq!(
        messages,
        [format!(
            "Argument 'quantity' expected an integer, but received {shown}."
        )]
    );
}

#[tokio::test]
async fn long_received_arrays_are_cut_too() {
    let many: Vec<u32> = (0..100).collect();
    let messages = every_type_with("name", json!(many)).await;
    let rendered = json!(many).to_string();
    let shown: String = rendered.chars().take(79).collect();
    assert_eq!(
        messages,
        [format!(
            "Argument 'name' expected a string, but received {shown}…."
        )]
    );
}

#[tokio::test]
async fn huge_received_values_are_not_echoed_in_full_by_the_envelope() {
    let mut arguments = valid_every_type();
    arguments["quantity"] = json!("x".repeat(5000));
    let result = call(&server(), "every_type", arguments).await;
    let received = violation_at(&result, "quantity")["received"].to_string();
    assert!(received.len() < 200, "{received}");
    let everything = wire(&result).to_string();
    assert!(!everything.contains(&"x".repeat(200)), "{everything}");
}

#[tokio::test]
async fn nested_struct_mismatches_carry_their_paths() {
    let messages = every_type_with("address", json!({"street": 7, "zip": "x"})).await;
    assert_eq!(
        messages,
        [
            "Argument 'address.street' expected a string, but received 7.",
            "Argument 'address.zip' expected an integer, but received 'x'.",
        ]
    );
}

#[tokio::test]
async fn array_item_mismatches_carry_their_index() {
    let messages = every_type_with("tags", json!(["a", "b", 3])).await;
    assert_eq!(
        messages,
        ["Argument 'tags[2]' expected a string, but received 3."]
    );
}
