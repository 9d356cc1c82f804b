//! Helpers for reading tool results and checking schemas in the in-process tests.

use mcp_tool_runtime::rmcp::model::{CallToolResult, Tool};
use mcp_tool_runtime::{McpServer, client::RemoteError, error::META_KEY};
use serde_json::Value;

/// Calls `name` in-process and returns the result; panics on an unknown tool.
pub async fn call<S: Send + Sync + 'static>(
    server: &McpServer<S>,
    name: &str,
    arguments: Value,
) -> CallToolResult {
    server
        .call(name, Some(arguments))
        .await
        .unwrap_or_else(|unknown| panic!("tool '{name}' should exist: {unknown}"))
}

/// The result as a client receives it on the wire.
pub fn wire(result: &CallToolResult) -> Value {
    serde_json::to_value(result).expect("a CallToolResult serializes")
}

/// The text of the result's only content block.
pub fn text(result: &CallToolResult) -> String {
    let wire = wire(result);
    let content = wire["content"].as_array().expect("content is an array");
    assert_eq!(content.len(), 1, "one content block expected: {wire:#}");
    assert_eq!(
        content[0]["type"], "text",
        "a text block expected: {wire:#}"
    );
    content[0]["text"]
        .as_str()
        .expect("text block has text")
        .to_string()
}

/// Asserts a successful result and returns its text.
pub fn ok_text(result: &CallToolResult) -> String {
    assert_ne!(
        result.is_error,
        Some(true),
        "expected success: {:#}",
        wire(result)
    );
    text(result)
}

/// Asserts an error result (`isError: true`) and returns its envelope from `_meta`.
pub fn envelope(result: &CallToolResult) -> Value {
    assert_eq!(
        result.is_error,
        Some(true),
        "expected an error result: {:#}",
        wire(result)
    );
    let wire = wire(result);
    let envelope = wire["_meta"][META_KEY].clone();
    assert!(
        envelope.is_object(),
        "the error envelope belongs under _meta[{META_KEY:?}]: {wire:#}"
    );
    envelope
}

/// The envelope of an error result as a client reads it ([`RemoteError::of`]): the wire
/// envelope, with `error` and each violation's `message` read back from the text, which
/// alone carries the sentences.
pub fn client_envelope(result: &CallToolResult) -> RemoteError {
    envelope(result);
    RemoteError::of(result).expect("an envelope a client can read")
}

/// The `message` of each violation in an error result, in order: the text's line for it.
pub fn violation_messages(result: &CallToolResult) -> Vec<String> {
    client_envelope(result)
        .violations
        .iter()
        .map(|v| v["message"].as_str().expect("message").to_string())
        .collect()
}

/// The violation at `path` in an error result's envelope, with its `message` (see
/// [`client_envelope`]).
pub fn violation_at(result: &CallToolResult, path: &str) -> Value {
    let envelope = client_envelope(result);
    envelope
        .violations
        .iter()
        .find(|v| v["path"] == path)
        .cloned()
        .unwrap_or_else(|| panic!("no violation at '{path}': {envelope:#?}"))
}

/// A published tool as `tools/list` sends it.
pub fn tool_json(tool: &Tool) -> Value {
    serde_json::to_value(tool).expect("a Tool serializes")
}

/// Every object key anywhere in `value` (schemas only: data keywords are skipped).
fn schema_keys<'a>(value: &'a Value, path: String, out: &mut Vec<(String, &'a str, &'a Value)>) {
    match value {
        Value::Object(object) => {
            for (key, child) in object {
                out.push((path.clone(), key.as_str(), child));
                if !matches!(
                    key.as_str(),
                    "enum" | "const" | "default" | "examples" | "required"
                ) {
                    schema_keys(child, format!("{path}/{key}"), out);
                }
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                schema_keys(item, format!("{path}/{index}"), out);
            }
        }
        _ => {}
    }
}

/// The formats JSON Schema 2020-12 defines.
const STANDARD_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

const TYPE_NAMES: &[&str] = &[
    "null", "boolean", "object", "array", "number", "integer", "string",
];

fn is_schema(value: &Value) -> bool {
    value.is_object() || value.is_boolean()
}

/// Structural checks of a JSON Schema 2020-12 document: every keyword this project emits
/// has the shape the meta-schema requires, and every local `$ref` resolves.
pub fn assert_valid_2020_12(schema: &Value) {
    assert!(
        schema.is_object(),
        "a schema document is an object: {schema}"
    );
    let mut keys = Vec::new();
    schema_keys(schema, String::new(), &mut keys);
    for (at, key, value) in keys {
        let bad = match key {
            "type" => match value {
                Value::String(name) => !TYPE_NAMES.contains(&name.as_str()),
                Value::Array(names) => {
                    names.is_empty()
                        || names
                            .iter()
                            .any(|n| !n.as_str().is_some_and(|n| TYPE_NAMES.contains(&n)))
                }
                _ => true,
            },
            "properties" | "$defs" | "patternProperties" => value
                .as_object()
                .is_none_or(|children| !children.values().all(is_schema)),
            "required" => value.as_array().is_none_or(|names| {
                !names.iter().all(Value::is_string)
                    || names
                        .iter()
                        .enumerate()
                        .any(|(i, name)| names[..i].contains(name))
            }),
            "items" | "additionalProperties" | "not" | "contains" | "propertyNames" => {
                !is_schema(value)
            }
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => value
                .as_array()
                .is_none_or(|branches| branches.is_empty() || !branches.iter().all(is_schema)),
            "enum" => value.as_array().is_none_or(Vec::is_empty),
            "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
                !value.is_number()
            }
            "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties"
            | "maxProperties" => !value.is_u64(),
            "pattern" => value
                .as_str()
                .is_none_or(|pattern| regex::Regex::new(pattern).is_err()),
            "format" | "description" | "title" | "$schema" | "$id" | "$comment" => {
                !value.is_string()
            }
            "uniqueItems" | "readOnly" | "writeOnly" | "deprecated" => !value.is_boolean(),
            "examples" => !value.is_array(),
            "$ref" => !value.as_str().is_some_and(|reference| {
                reference == "#"
                    || reference
                        .strip_prefix("#/$defs/")
                        .is_some_and(|name| schema["$defs"].get(name).is_some())
            }),
            _ => false,
        };
        assert!(
            !bad,
            "invalid 2020-12 keyword `{key}` at '{at}': {value}\nin {schema:#}"
        );
    }
    // Every `required` name is a declared property, where properties are declared.
    fn required_declared(node: &Value) {
        if let (Some(required), Some(properties)) = (
            node.get("required").and_then(Value::as_array),
            node.get("properties").and_then(Value::as_object),
        ) {
            for name in required {
                let name = name.as_str().unwrap_or_default();
                assert!(
                    properties.contains_key(name),
                    "required '{name}' is not a property: {node:#}"
                );
            }
        }
        match node {
            Value::Object(object) => object
                .iter()
                .filter(|(key, _)| {
                    !matches!(key.as_str(), "enum" | "const" | "default" | "examples")
                })
                .for_each(|(_, child)| required_declared(child)),
            Value::Array(items) => items.iter().for_each(required_declared),
            _ => {}
        }
    }
    required_declared(schema);
}

/// The portable profile: an object at the root, inlined, standard-only, and no nullable
/// optional properties.
pub fn assert_portable(schema: &Value, allow_recursive_defs: bool) {
    assert_valid_2020_12(schema);
    assert_eq!(schema["type"], "object", "object at the root: {schema:#}");
    assert!(
        schema.get("$schema").is_none(),
        "no $schema keyword: {schema:#}"
    );
    let mut keys = Vec::new();
    schema_keys(schema, String::new(), &mut keys);
    for (at, key, value) in keys {
        match key {
            "$ref" | "$defs" if !allow_recursive_defs => {
                panic!("`{key}` at '{at}' in a portable schema: {schema:#}")
            }
            "format" => assert!(
                value
                    .as_str()
                    .is_some_and(|format| STANDARD_FORMATS.contains(&format)),
                "non-standard format {value} at '{at}': {schema:#}"
            ),
            "type" => assert!(
                value != "null"
                    && !value
                        .as_array()
                        .is_some_and(|types| types.iter().any(|t| t == "null")),
                "a nullable type at '{at}': {schema:#}"
            ),
            "anyOf" | "oneOf" => assert!(
                !value
                    .as_array()
                    .is_some_and(|branches| branches.iter().any(|b| b["type"] == "null")),
                "a null branch at '{at}': {schema:#}"
            ),
            _ => {}
        }
    }
}
