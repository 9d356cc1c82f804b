//! Structured outputs: which results are objects as they are, and results JSON cannot carry.

use std::collections::BTreeMap;

use mcp_tool_runtime::{Json, McpServer, mcp_tool, tool::IntoToolOutput};
use mcp_tool_test_support::results::{assert_portable, call, envelope, ok_text, text};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};

use crate::fixtures::{is_correlation_id, published};

/// Something that happened, tagged inside the object.
#[derive(Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum Event {
    /// A click.
    Click { x: i32, y: i32 },
    /// A key press.
    Key { key: String },
    /// The window closed.
    Closed,
}

/// A message, tagged beside its content.
#[derive(Serialize, JsonSchema)]
#[serde(tag = "type", content = "data")]
pub(crate) enum Message {
    Text(String),
    Count(u16),
}

/// A shape: an externally tagged enum with a unit variant, which is a string.
#[derive(Serialize, JsonSchema)]
pub(crate) enum Shape {
    Circle { radius: u16 },
    Point,
}

/// The last event, or the one `back` events before it.
#[mcp_tool]
pub(crate) fn last_event(#[arg(default)] back: u8) -> Json<Event> {
    Json(match back {
        0 => Event::Click { x: 3, y: 4 },
        1 => Event::Key { key: "q".into() },
        _ => Event::Closed,
    })
}

/// The last message, or its text.
#[mcp_tool]
pub(crate) fn last_message(#[arg(default)] text: bool) -> Json<Message> {
    Json(if text {
        Message::Text("hi".into())
    } else {
        Message::Count(7)
    })
}

/// The last shape, or the circle before it.
#[mcp_tool]
pub(crate) fn last_shape(#[arg(default)] circle: bool) -> Json<Shape> {
    Json(if circle {
        Shape::Circle { radius: 2 }
    } else {
        Shape::Point
    })
}

/// Summary statistics of a series.
#[derive(Serialize, JsonSchema)]
pub(crate) struct Stats {
    mean: f64,
    label: Option<String>,
    spread: BTreeMap<String, Vec<f32>>,
}

/// The mean of a series; an empty one has none (NaN), a bug the server must not send on.
#[mcp_tool]
pub(crate) fn mean(values: Vec<f64>) -> Json<Stats> {
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    Json(Stats {
        mean,
        label: None,
        spread: BTreeMap::new(),
    })
}

fn server() -> McpServer<()> {
    McpServer::builder(())
        .tool(last_event_tool())
        .tool(last_message_tool())
        .tool(last_shape_tool())
        .tool(mean_tool())
        .build()
        .expect("server")
}

#[test]
fn an_internally_tagged_enum_of_objects_is_published_unwrapped() {
    let output = published(&server(), "last_event")["outputSchema"].clone();
    assert_eq!(
        output,
        json!({
            "title": "Event",
            "type": "object",
            "oneOf": [
                {
                    "description": "A click.",
                    "type": "object",
                    "properties": {
                        "kind": {"type": "string", "const": "click"},
                        "x": {"type": "integer", "minimum": -2147483648, "maximum": 2147483647},
                        "y": {"type": "integer", "minimum": -2147483648, "maximum": 2147483647}
                    },
                    "required": ["kind", "x", "y"]
                },
                {
                    "description": "A key press.",
                    "type": "object",
                    "properties": {
                        "kind": {"type": "string", "const": "key"},
                        "key": {"type": "string"}
                    },
                    "required": ["kind", "key"]
                },
                {
                    "description": "The window closed.",
                    "type": "object",
                    "properties": {"kind": {"type": "string", "const": "closed"}},
                    "required": ["kind"]
                }
            ],
            "description": "Something that happened, tagged inside the object."
        })
    );
    assert_portable(&output, false);
}

#[tokio::test]
async fn an_internally_tagged_enum_of_objects_is_sent_unwrapped() {
    let server = server();
    let result = call(&server, "last_event", json!({})).await;
    let expected = json!({"kind": "click", "x": 3, "y": 4});
    assert_eq!(result.structured_content, Some(expected.clone()));
    let text: Value = serde_json::from_str(&ok_text(&result)).expect("JSON text");
    assert_eq!(text, expected);
    let result = call(&server, "last_event", json!({"back": 2})).await;
    assert_eq!(result.structured_content, Some(json!({"kind": "closed"})));
}

#[tokio::test]
async fn an_adjacently_tagged_enum_is_an_object_too() {
    let server = server();
    let output = published(&server, "last_message")["outputSchema"].clone();
    assert_eq!(output["type"], "object");
    assert!(output.get("properties").is_none(), "{output}");
    assert_eq!(output["oneOf"][1]["required"], json!(["type", "data"]));
    let result = call(&server, "last_message", json!({})).await;
    assert_eq!(
        result.structured_content,
        Some(json!({"type": "Count", "data": 7}))
    );
    let result = call(&server, "last_message", json!({"text": true})).await;
    assert_eq!(
        result.structured_content,
        Some(json!({"type": "Text", "data": "hi"}))
    );
}

#[tokio::test]
async fn an_enum_with_a_unit_variant_written_as_a_string_stays_wrapped() {
    let server = server();
    let output = published(&server, "last_shape")["outputSchema"].clone();
    assert_eq!(output["required"], json!(["result"]));
    let result = call(&server, "last_shape", json!({})).await;
    assert_eq!(result.structured_content, Some(json!({"result": "Point"})));
    let result = call(&server, "last_shape", json!({"circle": true})).await;
    assert_eq!(
        result.structured_content,
        Some(json!({"result": {"Circle": {"radius": 2}}}))
    );
}

#[tokio::test]
async fn a_nan_in_structured_output_is_a_masked_internal_error() {
    let result = call(&server(), "mean", json!({"values": []})).await;
    let envelope = envelope(&result);
    let id = envelope["correlationId"]
        .as_str()
        .expect("an id")
        .to_string();
    assert!(is_correlation_id(&envelope["correlationId"]));
    assert_eq!(envelope["code"], "internal_error");
    assert_eq!(
        text(&result),
        format!(
            "Tool 'mean' failed because of an internal error on the server. The arguments were \
             accepted; the details were logged under correlation id {id}."
        )
    );
    assert_eq!(
        result.structured_content, None,
        "no null against `type: number`"
    );
}

#[test]
fn the_logged_cause_names_where_the_non_finite_float_is() {
    let cases = [
        (
            Stats {
                mean: f64::NAN,
                label: None,
                spread: BTreeMap::new(),
            },
            "`mean` of the structured result is NaN, which JSON cannot carry (serde_json would send null)",
        ),
        (
            Stats {
                mean: 1.0,
                label: None,
                spread: BTreeMap::from([("east".into(), vec![0.5, f32::INFINITY])]),
            },
            "`spread.east[1]` of the structured result is inf, which JSON cannot carry (serde_json would send null)",
        ),
    ];
    for (stats, cause) in cases {
        let error = Json(stats)
            .into_tool_output()
            .expect_err("a non-finite float");
        assert!(error.is_masked());
        let detail = error.internal_detail().map(ToString::to_string);
        assert_eq!(detail.as_deref(), Some(cause));
    }
    let error = Json(f64::NEG_INFINITY)
        .into_tool_output()
        .expect_err("-inf");
    assert_eq!(
        error.internal_detail().map(ToString::to_string).as_deref(),
        Some(
            "the structured result itself is -inf, which JSON cannot carry (serde_json would send null)"
        )
    );
}

#[tokio::test]
async fn a_null_the_output_schema_allows_is_sent() {
    let result = call(&server(), "mean", json!({"values": [1.0, 2.0]})).await;
    assert_eq!(
        result.structured_content,
        Some(json!({"mean": 1.5, "label": null, "spread": {}}))
    );
}
