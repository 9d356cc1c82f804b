//! Constraints: `#[validate]` rules on arguments, and their sentences.

use mcp_tool_runtime::mcp_tool;
use mcp_tool_runtime::rmcp::model::CallToolResult;
use mcp_tool_test_support::results::{
    call, client_envelope, envelope, ok_text, violation_at, violation_messages,
};
use serde_json::{Value, json};

use crate::fixtures::{SKU, server};

fn must_be_even(seats: u32) -> Result<(), validator::ValidationError> {
    if seats.is_multiple_of(2) {
        Ok(())
    } else {
        Err(validator::ValidationError::new("even")
            .with_message("seats come in pairs, so the number must be even".into()))
    }
}

/// Register a customer.
#[mcp_tool]
pub(crate) fn register(
    #[validate(length(min = 3, max = 20))] name: String,
    #[validate(email)] email: String,
    #[validate(url)] homepage: String,
    #[validate(regex(path = *SKU))]
    #[arg(example = "ABC-0001")]
    favourite_sku: String,
    #[validate(range(min = 18, max = 130))] age: u8,
    #[validate(length(min = 1, max = 3))] tags: Vec<String>,
    #[validate(custom(function = must_be_even))] seats: u32,
) -> String {
    format!("{name} {email} {homepage} {favourite_sku} {age} {tags:?} {seats}")
}

fn valid_registration() -> Value {
    json!({
        "name": "Ada",
        "email": "ada@example.com",
        "homepage": "https://example.com/ada",
        "favourite_sku": "ABC-0001",
        "age": 36,
        "tags": ["math"],
        "seats": 2
    })
}

async fn register_with(key: &str, value: Value) -> CallToolResult {
    let mut arguments = valid_registration();
    arguments[key] = value;
    call(&server(), "register", arguments).await
}

#[tokio::test]
async fn valid_constrained_arguments_pass() {
    let result = call(&server(), "register", valid_registration()).await;
    assert_eq!(
        ok_text(&result),
        r#"Ada ada@example.com https://example.com/ada ABC-0001 36 ["math"] 2"#
    );
}

#[tokio::test]
async fn range_violation_states_bounds_and_value() {
    let result = call(
        &server(),
        "quote",
        json!({"sku": "ABC-0001", "quantity": 500}),
    )
    .await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'quantity' must be between 1 and 100, but received 500."]
    );
    let violation = violation_at(&result, "quantity");
    assert_eq!(violation["problem"], "out_of_range");
    // The phrase of what was expected is in the sentence, not on the wire (issue 27).
    assert!(violation.get("expected").is_none(), "{violation}");
    assert_eq!(violation["received"], 500);
}

#[tokio::test]
async fn range_violation_below_the_minimum() {
    let result = register_with("age", json!(12)).await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'age' must be between 18 and 130, but received 12."]
    );
}

#[tokio::test]
async fn string_length_violation_states_bounds_and_length() {
    let result = register_with("name", json!("Al")).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'name' must be between 3 and 20 characters long, but received 'Al' (2 characters)."
        ]
    );
    assert_eq!(violation_at(&result, "name")["problem"], "length");
}

#[tokio::test]
async fn exact_length_violation() {
    let result = call(&server(), "quote", json!({"sku": "ABC-01", "quantity": 1})).await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'sku' must be exactly 8 characters long, but received 'ABC-01' (6 characters)."]
    );
}

#[tokio::test]
async fn array_length_violation_counts_items() {
    let result = register_with("tags", json!(["a", "b", "c", "d"])).await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'tags' must have between 1 and 3 items, but received 4 items."]
    );
}

#[tokio::test]
async fn pattern_violation_shows_the_pattern_and_an_example() {
    let result = register_with("favourite_sku", json!("abc-1")).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'favourite_sku' must match the pattern `^[A-Z]{3}-[0-9]{4}$` (for example 'ABC-0001'), but received 'abc-1'."
        ]
    );
    let violation = violation_at(&result, "favourite_sku");
    assert_eq!(violation["problem"], "pattern");
    // The phrase of what was expected is in the sentence, not on the wire (issue 27).
    assert!(violation.get("expected").is_none(), "{violation}");
}

#[tokio::test]
async fn email_violation() {
    let result = register_with("email", json!("ada-at-example")).await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'email' must be a valid email address, but received 'ada-at-example'."]
    );
    assert_eq!(violation_at(&result, "email")["problem"], "format");
}

#[tokio::test]
async fn url_violation() {
    let result = register_with("homepage", json!("not a url")).await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'homepage' must be a valid URL, but received 'not a url'."]
    );
}

#[tokio::test]
async fn custom_validator_message_and_value() {
    let result = register_with("seats", json!(3)).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'seats' is invalid: seats come in pairs, so the number must be even, but received 3."
        ]
    );
    assert_eq!(violation_at(&result, "seats")["problem"], "custom");
}

#[tokio::test]
async fn every_constraint_violation_in_one_response_in_declaration_order() {
    let result = call(
        &server(),
        "register",
        json!({
            "name": "Al",
            "email": "nope",
            "homepage": "nope",
            "favourite_sku": "nope",
            "age": 200,
            "tags": [],
            "seats": 1
        }),
    )
    .await;
    let paths: Vec<Value> = envelope(&result)["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["path"].clone())
        .collect();
    assert_eq!(
        paths,
        [
            "name",
            "email",
            "homepage",
            "favourite_sku",
            "age",
            "tags",
            "seats"
        ]
    );
    assert_eq!(
        client_envelope(&result).error,
        "Invalid arguments for tool 'register': 7 problems."
    );
}

#[tokio::test]
async fn type_and_constraint_violations_are_reported_together() {
    let result = call(
        &server(),
        "register",
        json!({
            "name": "Al",
            "email": "ada@example.com",
            "homepage": "https://example.com",
            "favourite_sku": "ABC-0001",
            "age": "old",
            "tags": ["a"],
            "seats": 2
        }),
    )
    .await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'name' must be between 3 and 20 characters long, but received 'Al' (2 characters).",
            "Argument 'age' expected an integer, but received 'old'.",
        ]
    );
}
