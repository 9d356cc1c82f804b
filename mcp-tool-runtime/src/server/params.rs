//! The params of the methods this server implements: what each must have, and the -32602
//! sentence when a request's params do not fit.
//!
//! Both the JSON-RPC check in front of rmcp (`transport/jsonrpc`) and the handler (for a
//! request rmcp could not read as its method, which it hands over as a custom request)
//! answer with these.

use serde_json::Value;

use super::TOOLS_CALL;
use crate::error::JsonType;
use crate::render::{received, type_phrase};

/// The members each method's params must have, with their JSON types.
const REQUIRED_PARAMS: &[(&str, &[(&str, &str)])] = &[
    (
        "initialize",
        &[
            ("protocolVersion", "string"),
            ("capabilities", "object"),
            ("clientInfo", "object"),
        ],
    ),
    (TOOLS_CALL, &[("name", "string")]),
    ("subscriptions/listen", &[("notifications", "object")]),
    ("resources/read", &[("uri", "string")]),
    ("resources/subscribe", &[("uri", "string")]),
    ("resources/unsubscribe", &[("uri", "string")]),
    ("prompts/get", &[("name", "string")]),
    ("logging/setLevel", &[("level", "string")]),
];

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// What is wrong with the params of a supported method that rmcp could not read.
pub(crate) fn params_problem(method: &str, params: Option<&Value>) -> String {
    let required = REQUIRED_PARAMS
        .iter()
        .find(|(name, _)| *name == method)
        .map_or(&[][..], |(_, fields)| *fields);
    let object = match params {
        Some(Value::Object(object)) => object,
        Some(other) => return params_not_an_object(other),
        None if required.is_empty() => return PARAMS_UNREADABLE.to_string(),
        None => return params_missing(required.iter().map(|(name, _)| *name)),
    };
    for (name, expected) in required {
        match object.get(*name) {
            None => return param_missing(name, expected),
            Some(value) if json_type(value) != *expected => {
                return param_wrong_type(name, expected, value);
            }
            Some(_) => {}
        }
    }
    PARAMS_UNREADABLE.to_string()
}

/// Params that do not fit a known method (-32602).
pub(crate) fn invalid_params(method: &str, detail: &str) -> String {
    format!("Invalid params for '{method}': {detail}.")
}

/// `params` present but not an object.
fn params_not_an_object(params: &Value) -> String {
    format!(
        "\"params\" must be an object, but received {}",
        received(params)
    )
}

/// `params` missing where members are required.
fn params_missing<'a>(required: impl IntoIterator<Item = &'a str>) -> String {
    let names: Vec<String> = required
        .into_iter()
        .map(|name| format!("'{name}'"))
        .collect();
    format!(
        "\"params\" is missing; it must be an object with {}",
        names.join(", ")
    )
}

/// "a string" for the type named `name`.
fn named_type_phrase(name: &str) -> String {
    JsonType::from_name(name).map_or_else(
        || format!("a value of type {name}"),
        |json_type| type_phrase(json_type).to_string(),
    )
}

/// A required member of `params` is missing.
fn param_missing(name: &str, expected_type: &str) -> String {
    format!(
        "'{name}' is required: expected {}",
        named_type_phrase(expected_type)
    )
}

/// A member of `params` has the wrong type.
fn param_wrong_type(name: &str, expected_type: &str, value: &Value) -> String {
    format!(
        "'{name}' must be {}, but received {}",
        named_type_phrase(expected_type),
        received(value)
    )
}

/// Params that do not fit, for no reason found in the required members.
const PARAMS_UNREADABLE: &str = "the params do not match this method's schema";
