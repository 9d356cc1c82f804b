//! Closing the objects of a canonical input schema, so that nothing a model sends is
//! dropped silently: serde ignores unknown keys of a nested struct, the runtime does not.
//!
//! An object with fixed properties gets `additionalProperties: false` unless it says
//! otherwise. Open objects stay open: a map (`additionalProperties` a schema), a
//! `#[serde(flatten)]` catch-all (the same), and an explicit opt-out
//! (`#[schemars(extend("additionalProperties" = true))]` on the struct).

use serde_json::{Map, Value};

/// The keywords whose presence leaves an object as it is: it already says what it admits
/// (`additionalProperties`, …), or its properties are spread over sub-schemas that are
/// merged with it (`allOf`, a flattened enum's `oneOf`, a `$ref`).
const LEAVE_OPEN: &[&str] = &[
    "additionalProperties",
    "unevaluatedProperties",
    "patternProperties",
    "allOf",
    "anyOf",
    "oneOf",
    "$ref",
    "if",
];

/// Closes every object below the root of `schema` (and in its `$defs`); the root is the
/// arguments object, which the arguments type or [`ToolInfoBuilder::whole_input`] closes.
/// Returns whether any object was closed, i.e. whether the runtime must check keys that
/// serde would ignore.
///
/// [`ToolInfoBuilder::whole_input`]: crate::tool::ToolInfoBuilder::whole_input
pub(crate) fn close_nested_objects(schema: &mut Value) -> bool {
    let Value::Object(root) = schema else {
        return false;
    };
    let mut closed = false;
    children(root, &mut closed);
    closed
}

/// Closes `node` if it is a closable object, then its sub-schemas.
fn visit(node: &mut Value, closable: bool, closed: &mut bool) {
    let Value::Object(object) = node else {
        return;
    };
    let has_properties = object.get("properties").is_some_and(Value::is_object);
    if closable && has_properties && !LEAVE_OPEN.iter().any(|k| object.contains_key(*k)) {
        object.insert("additionalProperties".into(), Value::Bool(false));
        *closed = true;
    }
    children(object, closed);
}

/// Visits the sub-schemas of `object`. The branches of `allOf`, and of a union beside
/// fixed properties (a flattened enum), describe only part of one object: they stay open.
fn children(object: &mut Map<String, Value>, closed: &mut bool) {
    let has_properties = object.contains_key("properties");
    for (key, child) in object.iter_mut() {
        match (key.as_str(), child) {
            ("properties" | "$defs" | "patternProperties", Value::Object(map)) => {
                map.values_mut().for_each(|c| visit(c, true, closed));
            }
            ("anyOf" | "oneOf", Value::Array(list)) => {
                list.iter_mut()
                    .for_each(|c| visit(c, !has_properties, closed));
            }
            ("allOf", Value::Array(list)) => {
                list.iter_mut().for_each(|c| visit(c, false, closed));
            }
            ("prefixItems", Value::Array(list)) => {
                list.iter_mut().for_each(|c| visit(c, true, closed));
            }
            ("items" | "additionalProperties" | "not" | "contains", child) => {
                visit(child, true, closed);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn closes_nested_objects_and_leaves_open_ones_open() {
        let mut schema = json!({
            "type": "object",
            "properties": {
                "filter": {"type": "object", "properties": {"archived": {"type": "boolean"}}},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "open": {"type": "object", "properties": {"a": {}}, "additionalProperties": true},
                "merged": {"allOf": [{"type": "object", "properties": {"b": {}}}]}
            },
            "$defs": {"Line": {"type": "object", "properties": {"qty": {"type": "integer"}}}}
        });
        assert!(close_nested_objects(&mut schema));
        assert!(schema.get("additionalProperties").is_none());
        let properties = &schema["properties"];
        assert_eq!(properties["filter"]["additionalProperties"], false);
        assert_eq!(
            properties["labels"]["additionalProperties"],
            json!({"type": "string"})
        );
        assert_eq!(properties["open"]["additionalProperties"], true);
        assert!(
            properties["merged"]["allOf"][0]
                .get("additionalProperties")
                .is_none()
        );
        assert_eq!(schema["$defs"]["Line"]["additionalProperties"], false);
    }

    #[test]
    fn flat_arguments_need_no_check() {
        let mut schema = json!({"type": "object", "properties": {"sku": {"type": "string"}}});
        assert!(!close_nested_objects(&mut schema));
    }
}
