//! Paths use the names the model sent: serde's `rename_all` and `rename`, on whole inputs,
//! plain arguments and nested structs at every depth, for `validator`'s errors too.

use mcp_tool_runtime::{McpServer, mcp_tool};
use mcp_tool_test_support::results::{call, ok_text, violation_at, violation_messages};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use crate::fixtures::server_of;
use validator::Validate;

/// How a parcel is packed.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Packaging {
    /// Weight of the empty box, in grams.
    #[validate(range(max = 500))]
    box_weight: u32,
}

/// One parcel of a shipment.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Parcel {
    /// Catalog code of the content.
    #[validate(length(min = 3))]
    product_code: String,
    /// How it is packed.
    #[validate(nested)]
    packaging: Packaging,
}

/// A shipment to track.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Shipment {
    /// The carrier's tracking number.
    #[validate(length(min = 5, max = 30))]
    tracking_number: String,
    /// The parcels.
    #[validate(nested)]
    parcels: Vec<Parcel>,
}

/// Track a shipment.
#[mcp_tool]
pub(crate) fn track(#[arg(input)] shipment: Shipment) -> String {
    format!("{} {}", shipment.tracking_number, shipment.parcels.len())
}

/// Look up a user's parcels.
#[mcp_tool]
pub(crate) fn user_parcels(
    #[serde(rename = "userId")]
    #[validate(range(min = 1))]
    user_id: u64,
    #[serde(rename = "sku")]
    #[validate(length(equal = 8))]
    product_code: String,
    #[validate(nested)] parcel: Option<Parcel>,
) -> String {
    format!("{user_id} {product_code} {}", parcel.is_some())
}

fn digits_only(phone: &str) -> Result<(), validator::ValidationError> {
    if phone.chars().all(|c| c.is_ascii_digit()) {
        Ok(())
    } else {
        Err(validator::ValidationError::new("digits").with_message("digits only".into()))
    }
}

/// How to reach someone, with names no case conversion gives.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
pub(crate) struct Contact {
    /// Email address.
    #[serde(rename = "mail")]
    #[validate(email)]
    email_address: String,
    /// Phone number.
    #[serde(rename = "tel")]
    #[validate(custom(function = digits_only))]
    phone: String,
}

/// Notify someone.
#[mcp_tool]
pub(crate) fn notify(#[validate(nested)] contact: Contact) -> String {
    format!("{} {}", contact.email_address, contact.phone)
}

fn server() -> McpServer<()> {
    server_of([track_tool(), user_parcels_tool(), notify_tool()])
}

fn parcel(code: &str, box_weight: u32) -> serde_json::Value {
    json!({"productCode": code, "packaging": {"boxWeight": box_weight}})
}

#[tokio::test]
async fn a_renamed_field_of_a_whole_input_is_named_as_sent() {
    let arguments = json!({"trackingNumber": "1Z", "parcels": []});
    let result = call(&server(), "track", arguments).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'trackingNumber' must be between 5 and 30 characters long, but received '1Z' (2 characters)."
        ]
    );
    assert_eq!(violation_at(&result, "trackingNumber")["problem"], "length");
}

#[tokio::test]
async fn nested_renamed_fields_are_named_as_sent_at_every_depth() {
    let arguments = json!({
        "trackingNumber": "1Z999AA10123456784",
        "parcels": [parcel("MUG-1", 100), parcel("X", 900)]
    });
    let result = call(&server(), "track", arguments).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'parcels[1].productCode' must be at least 3 characters long, but received 'X' (1 character).",
            "Argument 'parcels[1].packaging.boxWeight' must be at most 500, but received 900.",
        ]
    );
}

#[tokio::test]
async fn renamed_plain_arguments_are_named_as_sent() {
    let server = server();
    let arguments = json!({"userId": 0, "sku": "ABC", "parcel": parcel("MUG-1", 501)});
    let result = call(&server, "user_parcels", arguments).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'userId' must be at least 1, but received 0.",
            "Argument 'sku' must be exactly 8 characters long, but received 'ABC' (3 characters).",
            "Argument 'parcel.packaging.boxWeight' must be at most 500, but received 501.",
        ]
    );
    let arguments = json!({"userId": 7, "sku": "ABC-0001"});
    let result = call(&server, "user_parcels", arguments).await;
    assert_eq!(ok_text(&result), "7 ABC-0001 false");
}

#[tokio::test]
async fn fields_renamed_freely_are_named_as_sent() {
    let arguments = json!({"contact": {"mail": "nope", "tel": "12a"}});
    let result = call(&server(), "notify", arguments).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'contact.mail' must be a valid email address, but received 'nope'.",
            "Argument 'contact.tel' is invalid: digits only, but received '12a'.",
        ]
    );
}
