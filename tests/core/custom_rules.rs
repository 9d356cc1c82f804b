//! Every problem in one answer, custom rules included: the rules only `validator` knows
//! (custom functions, struct-level `schema` functions of nested types) are reported beside
//! the type errors of other arguments, for every argument that did deserialize.

use mcp_tool_runtime::{McpServer, mcp_tool};
use mcp_tool_test_support::results::{
    call, client_envelope, ok_text, violation_at, violation_messages,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use crate::fixtures::server_of;
use validator::{Validate, ValidationError};

use crate::whole_input::DateRange;

fn weekday(day: &str) -> Result<(), ValidationError> {
    let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday"];
    if weekdays.contains(&day) {
        Ok(())
    } else {
        Err(ValidationError::new("weekday").with_message("pick Monday to Friday".into()))
    }
}

fn known_zip(zip: &str) -> Result<(), ValidationError> {
    if zip.starts_with('9') {
        Ok(())
    } else {
        Err(ValidationError::new("zip").with_message("we only ship to 9xxxx".into()))
    }
}

/// Schedule a delivery.
#[mcp_tool]
pub(crate) fn schedule(
    #[validate(length(min = 3), custom(function = weekday))] day: String,
    boxes: u32,
) -> String {
    format!("{boxes} boxes on {day}")
}

/// Book a stay.
#[mcp_tool]
pub(crate) fn book(
    #[validate(nested)] stay: DateRange,
    #[serde(rename = "zipCode")]
    #[validate(custom(function = known_zip))]
    zip_code: String,
    guests: u32,
) -> String {
    format!("{stay:?} {zip_code} {guests}")
}

/// A delivery, as one input struct.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Delivery {
    /// The day to deliver.
    #[validate(custom(function = weekday))]
    delivery_day: String,
    /// How many boxes.
    boxes: u32,
    /// When the recipient is in.
    #[validate(nested)]
    stay: DateRange,
}

/// Plan a delivery.
#[mcp_tool]
pub(crate) fn plan(#[arg(input)] delivery: Delivery) -> String {
    let Delivery {
        delivery_day,
        boxes,
        stay,
    } = delivery;
    format!("{delivery_day} {boxes} {stay:?}")
}

fn server() -> McpServer<()> {
    server_of([schedule_tool(), book_tool(), plan_tool()])
}

#[tokio::test]
async fn a_custom_rule_is_reported_beside_a_type_error() {
    let arguments = json!({"day": "sunday", "boxes": "three"});
    let result = call(&server(), "schedule", arguments).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'day' is invalid: pick Monday to Friday, but received 'sunday'.",
            "Argument 'boxes' expected an integer, but received 'three'.",
        ]
    );
    assert_eq!(violation_at(&result, "day")["problem"], "custom");
    assert_eq!(
        client_envelope(&result).error,
        "Invalid arguments for tool 'schedule': 2 problems."
    );
}

#[tokio::test]
async fn built_in_and_custom_rules_of_one_argument_are_each_reported_once() {
    let arguments = json!({"day": "su", "boxes": -1});
    let result = call(&server(), "schedule", arguments).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'day' must be at least 3 characters long, but received 'su' (2 characters).",
            "Argument 'day' is invalid: pick Monday to Friday, but received 'su'.",
            "Argument 'boxes' must be between 0 and 4294967295, but received -1.",
        ]
    );
}

#[tokio::test]
async fn an_argument_that_does_not_deserialize_is_not_checked_further() {
    let server = server();
    let result = call(&server, "schedule", json!({"day": 5, "boxes": "three"})).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'day' expected a string, but received 5.",
            "Argument 'boxes' expected an integer, but received 'three'.",
        ]
    );
    let result = call(&server, "schedule", json!({"day": "monday", "boxes": 2})).await;
    assert_eq!(ok_text(&result), "2 boxes on monday");
}

#[tokio::test]
async fn struct_level_rules_of_nested_arguments_and_renamed_custom_rules_are_reported() {
    let arguments = json!({
        "stay": {"start": 9, "end": 5},
        "zipCode": "10115",
        "guests": "two"
    });
    let result = call(&server(), "book", arguments).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'stay' is invalid: 'start' must not be after 'end'.",
            "Argument 'zipCode' is invalid: we only ship to 9xxxx, but received '10115'.",
            "Argument 'guests' expected an integer, but received 'two'.",
        ]
    );
}

#[tokio::test]
async fn custom_rules_are_reported_beside_an_unknown_key() {
    let arguments = json!({
        "stay": {"start": 1, "end": 2, "nights": 1},
        "zipCode": "10115",
        "guests": 2
    });
    let result = call(&server(), "book", arguments).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Unknown argument 'stay.nights'. Valid arguments here: start, end.",
            "Argument 'zipCode' is invalid: we only ship to 9xxxx, but received '10115'.",
        ]
    );
}

#[tokio::test]
async fn custom_rules_of_a_whole_input_are_reported_beside_a_type_error() {
    let arguments = json!({
        "deliveryDay": "sunday",
        "boxes": "three",
        "stay": {"start": 9, "end": 5}
    });
    let result = call(&server(), "plan", arguments).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'deliveryDay' is invalid: pick Monday to Friday, but received 'sunday'.",
            "Argument 'boxes' expected an integer, but received 'three'.",
            "Argument 'stay' is invalid: 'start' must not be after 'end'.",
        ]
    );
}

#[tokio::test]
async fn rules_that_read_a_value_that_did_not_deserialize_are_not_guessed() {
    let arguments = json!({
        "deliveryDay": "monday",
        "boxes": 1,
        "stay": {"start": 9, "end": "five"}
    });
    let result = call(&server(), "plan", arguments).await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'stay.end' expected an integer, but received 'five'."]
    );
}

fn light_unless_freight(shipment: &Shipment) -> Result<(), ValidationError> {
    if shipment.weight_kg <= 30 || shipment.freight {
        Ok(())
    } else {
        Err(ValidationError::new("heavy")
            .with_message("over 30 kg ships as freight: set 'freight' to true".into()))
    }
}

/// A shipment, as one input struct with a rule over the whole.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[validate(schema(function = light_unless_freight))]
pub(crate) struct Shipment {
    /// Who receives it.
    #[validate(length(min = 2))]
    recipient: String,
    /// Its weight.
    weight_kg: u32,
    /// Whether it goes as freight.
    freight: bool,
}

/// Send a shipment.
#[mcp_tool]
pub(crate) fn ship(#[arg(input)] shipment: Shipment) -> String {
    format!("{shipment:?}")
}

const HEAVY: &str =
    "The arguments are invalid: over 30 kg ships as freight: set 'freight' to true.";

/// (A field's built-in rule failing would hide it: `validator` skips struct-level rules on
/// field errors unless the rule says `skip_on_field_errors = false`.)
#[tokio::test]
async fn a_rule_over_the_whole_input_is_reported_beside_an_unknown_key() {
    let arguments = json!({"recipient": "Ada", "weight_kg": 80, "freight": false, "urgent": true});
    let result = call(&server_of([ship_tool()]), "ship", arguments).await;
    assert_eq!(
        violation_messages(&result),
        [
            HEAVY,
            "Unknown argument 'urgent'. Valid arguments here: recipient, weight_kg, freight.",
        ]
    );
}

/// The struct did not deserialize, so its rule would read a placeholder: it is reported
/// once the field is fixed, never guessed.
#[tokio::test]
async fn a_rule_over_the_whole_input_waits_for_every_field_to_deserialize() {
    let arguments = json!({"recipient": "Ada", "weight_kg": 80, "freight": "no"});
    let result = call(&server_of([ship_tool()]), "ship", arguments).await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'freight' expected a boolean, but received 'no'."]
    );
}

/// A parcel to ship.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
pub(crate) struct Parcel {
    /// Where it goes.
    #[validate(custom(function = known_zip))]
    zip: String,
}

/// Ship parcels.
#[mcp_tool]
pub(crate) fn ship_parcels(
    #[serde(rename = "parcelList")]
    #[validate(nested)]
    parcels: Vec<Parcel>,
) -> String {
    format!("{} parcels", parcels.len())
}

/// A large list (12,000 parcels, past the 10,000 values at which an input is large) has its
/// items checked a thousand at a time: each problem is still found, at its place in the
/// whole list and under the name sent, and a list that holds is served.
#[tokio::test]
async fn a_custom_rule_of_a_long_lists_items_is_reported_at_each_items_place() {
    let server = server_of([ship_parcels_tool()]);
    let mut parcels = vec![json!({"zip": "94110"}); 12_000];
    let result = call(
        &server,
        "ship_parcels",
        json!({"parcelList": parcels.clone()}),
    )
    .await;
    assert_eq!(ok_text(&result), "12000 parcels");
    parcels[3] = json!({"zip": "10115"});
    parcels[11_500] = json!({"zip": "20095"});
    let result = call(&server, "ship_parcels", json!({"parcelList": parcels})).await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'parcelList[3].zip' is invalid: we only ship to 9xxxx, but received '10115'.",
            "Argument 'parcelList[11500].zip' is invalid: we only ship to 9xxxx, but received '20095'.",
        ]
    );
}

fn a_full_pallet(pallet: &Pallet) -> Result<(), ValidationError> {
    if pallet.parcels.len() >= 2_000 {
        Ok(())
    } else {
        Err(ValidationError::new("pallet").with_message("a pallet takes 2,000 parcels".into()))
    }
}

/// A pallet of parcels, as one input struct, with a rule of the whole.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[validate(schema(function = a_full_pallet))]
pub(crate) struct Pallet {
    /// The parcels on it.
    #[validate(nested)]
    parcels: Vec<Parcel>,
}

/// Ship a pallet.
#[mcp_tool]
pub(crate) fn ship_pallet(#[arg(input)] pallet: Pallet) -> String {
    format!("{} parcels", pallet.parcels.len())
}

/// A large list in a user's own input type is checked in parts too, and a rule of the whole
/// (a full pallet), which a part of the list would break, is left to the whole.
#[tokio::test]
async fn a_long_list_in_an_input_type_is_checked_in_parts_and_its_whole_as_a_whole() {
    let server = server_of([ship_pallet_tool()]);
    let mut parcels = vec![json!({"zip": "94110"}); 12_000];
    let result = call(&server, "ship_pallet", json!({"parcels": parcels.clone()})).await;
    assert_eq!(ok_text(&result), "12000 parcels");
    parcels[1_500] = json!({"zip": "10115"});
    let result = call(&server, "ship_pallet", json!({"parcels": parcels})).await;
    assert_eq!(
        violation_messages(&result),
        ["Argument 'parcels[1500].zip' is invalid: we only ship to 9xxxx, but received '10115'."]
    );
    let short = vec![json!({"zip": "94110"}); 1_000];
    let result = call(&server, "ship_pallet", json!({"parcels": short})).await;
    assert_eq!(
        violation_messages(&result),
        ["The arguments are invalid: a pallet takes 2,000 parcels."]
    );
}

/// A consignment: parcels under a field of an argument.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
pub(crate) struct Consignment {
    /// Who sends it.
    sender: String,
    /// The parcels in it.
    #[validate(nested)]
    parcels: Vec<Parcel>,
}

/// Ship consignments.
#[mcp_tool]
pub(crate) fn ship_consignments(#[validate(nested)] consignments: Vec<Consignment>) -> String {
    let senders: Vec<&str> = consignments.iter().map(|c| c.sender.as_str()).collect();
    senders.join(", ")
}

/// A long list below the top level (in the second of two consignments) is checked in parts
/// as well, and its problems are reported at their place, beside those of a short list.
#[tokio::test]
async fn a_long_list_below_the_top_level_is_checked_in_parts_at_its_place() {
    let server = server_of([ship_consignments_tool()]);
    let mut parcels = vec![json!({"zip": "94110"}); 12_000];
    parcels[11_500] = json!({"zip": "20095"});
    let consignments = json!([
        {"sender": "Ada", "parcels": [{"zip": "10115"}]},
        {"sender": "Grace", "parcels": parcels},
    ]);
    let result = call(
        &server,
        "ship_consignments",
        json!({"consignments": consignments}),
    )
    .await;
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'consignments[0].parcels[0].zip' is invalid: we only ship to 9xxxx, but received '10115'.",
            "Argument 'consignments[1].parcels[11500].zip' is invalid: we only ship to 9xxxx, but received '20095'.",
        ]
    );
}
