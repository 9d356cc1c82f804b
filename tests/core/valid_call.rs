//! The "Valid call" line and the sentences around it: only what a model can use.

use mcp_tool_runtime::{McpServer, mcp_tool};
use mcp_tool_test_support::results::{call, text, violation_messages};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

/// Where a customer lives.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct Address {
    street: String,
    zip: Option<u32>,
}

/// Find a customer's orders.
#[mcp_tool]
pub(crate) fn find_orders(
    #[validate(range(min = 1))] user_id: i64,
    page: u64,
    offset: i32,
    labels: Option<Vec<String>>,
    address: Option<Address>,
) -> String {
    let street = address.map(|a| format!("{} {:?}", a.street, a.zip));
    format!("{user_id} {page} {offset} {labels:?} {street:?}")
}

fn weekday(day: &str) -> Result<(), validator::ValidationError> {
    if day.starts_with('s') {
        Err(validator::ValidationError::new("weekday")
            .with_message("pick Monday to Friday.".into()))
    } else {
        Ok(())
    }
}

/// Book a delivery.
#[mcp_tool]
pub(crate) fn book(#[validate(custom(function = weekday))] day: String) -> String {
    day
}

fn server() -> McpServer<()> {
    McpServer::builder(())
        .tool(find_orders_tool())
        .tool(book_tool())
        .build()
        .expect("server")
}

#[tokio::test]
async fn the_valid_call_names_what_a_model_can_use() {
    let result = call(&server(), "find_orders", json!({})).await;
    let text = text(&result);
    let valid_call = text.lines().last().unwrap_or_default();
    assert_eq!(
        valid_call,
        "Valid call: find_orders(user_id: an integer of at least 1, page: an integer of at least 0, \
         offset: an integer, labels?: an array of strings, address?: an object with street, zip?)"
    );
}

#[tokio::test]
async fn a_missing_argument_says_what_it_takes_without_the_integer_width() {
    let result = call(&server(), "find_orders", json!({"page": 1, "offset": 0})).await;
    assert_eq!(
        violation_messages(&result),
        ["Missing required argument 'user_id': expected an integer of at least 1."]
    );
}

#[tokio::test]
async fn a_custom_message_and_the_received_value_read_as_one_sentence() {
    let result = call(&server(), "book", json!({"day": "sunday"})).await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'day' is invalid: pick Monday to Friday, but received 'sunday'."]
    );
}
