//! The fast path's check for keys that a closed object does not name: serde ignores them in
//! a nested struct, so without this check a misspelt key would be dropped silently.
//!
//! It follows the schema the way the walk does, and says only whether the walk would report
//! an unknown key; the walk then says which, with a suggestion.

use serde_json::{Map, Value};

use crate::input::slow::walk::type_matches;
use crate::schema::{SchemaDoc, is_null_schema};

/// Deepest nesting checked; deeper input is the walk's to report.
const MAX_DEPTH: usize = 64;

/// Whether `value`, anywhere, has a key that a closed object of `schema` does not name.
pub(super) fn has_unknown_key(schema: &Value, value: &Value) -> bool {
    let doc = SchemaDoc::new(schema);
    unknown_in(&doc, schema, value, 0)
}

fn unknown_in<'s>(doc: &SchemaDoc<'s>, schema: &'s Value, value: &Value, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    let Value::Object(keywords) = doc.resolve(schema) else {
        return false;
    };
    let all_of = keywords.get("allOf").and_then(Value::as_array);
    if all_of.is_some_and(|all| all.iter().any(|b| unknown_in(doc, b, value, depth + 1))) {
        return true;
    }
    if keywords.contains_key("enum") || keywords.contains_key("const") {
        return false;
    }
    for keyword in ["anyOf", "oneOf"] {
        if let Some(branches) = keywords.get(keyword).and_then(Value::as_array) {
            return union_unknown(doc, branches, value, depth);
        }
    }
    if keywords
        .get("type")
        .is_some_and(|t| !type_matches(t, value))
    {
        return false;
    }
    match value {
        Value::Object(object) => object_unknown(doc, keywords, object, depth),
        Value::Array(items) => items_unknown(doc, keywords, items, depth),
        _ => false,
    }
}

/// A union has an unknown key when every branch the value could be meant for has one; the
/// walk then reports the closest branch's problems.
fn union_unknown<'s>(
    doc: &SchemaDoc<'s>,
    branches: &'s [Value],
    value: &Value,
    depth: usize,
) -> bool {
    if value.is_null() {
        return false;
    }
    let mut candidates = branches
        .iter()
        .map(|branch| doc.resolve(branch))
        .filter(|branch| !is_null_schema(branch) && could_be_meant_for(branch, value))
        .peekable();
    candidates.peek().is_some() && candidates.all(|b| unknown_in(doc, b, value, depth + 1))
}

/// Whether a branch's type admits the value and its fixed properties (an enum's tag) agree.
fn could_be_meant_for(branch: &Value, value: &Value) -> bool {
    if branch.get("type").is_some_and(|t| !type_matches(t, value)) {
        return false;
    }
    let (Some(properties), Value::Object(object)) =
        (branch.get("properties").and_then(Value::as_object), value)
    else {
        return true;
    };
    properties.iter().all(
        |(name, property)| match (property.get("const"), object.get(name)) {
            (Some(fixed), Some(given)) => fixed == given,
            _ => true,
        },
    )
}

fn object_unknown<'s>(
    doc: &SchemaDoc<'s>,
    keywords: &'s Map<String, Value>,
    object: &Map<String, Value>,
    depth: usize,
) -> bool {
    let properties = keywords.get("properties").and_then(Value::as_object);
    let extra = keywords.get("additionalProperties");
    object.iter().any(
        |(key, child)| match (properties.and_then(|p| p.get(key)), extra) {
            (Some(property), _) => unknown_in(doc, property, child, depth + 1),
            (None, Some(Value::Bool(false))) => true,
            (None, Some(schema @ Value::Object(_))) => unknown_in(doc, schema, child, depth + 1),
            (None, _) => false,
        },
    )
}

fn items_unknown<'s>(
    doc: &SchemaDoc<'s>,
    keywords: &'s Map<String, Value>,
    items: &[Value],
    depth: usize,
) -> bool {
    let prefix = keywords.get("prefixItems").and_then(Value::as_array);
    let rest = keywords.get("items");
    items.iter().enumerate().any(|(index, item)| {
        prefix
            .and_then(|p| p.get(index))
            .or(rest)
            .is_some_and(|schema| unknown_in(doc, schema, item, depth + 1))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn finds_unknown_keys_at_any_depth() {
        // A nullable nested struct, an array of it and a map.
        let schema = json!({
            "type": "object",
            "properties": {
                "filter": {"anyOf": [{"$ref": "#/$defs/Filter"}, {"type": "null"}]},
                "lines": {"type": "array", "items": {"$ref": "#/$defs/Filter"}},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}}
            },
            "additionalProperties": false,
            "$defs": {"Filter": {
                "type": "object",
                "properties": {"archived": {"type": "boolean"}},
                "additionalProperties": false
            }}
        });
        for value in [
            json!({"filter": {"archvied": true}}),
            json!({"lines": [{"archived": true}, {"x": 1}]}),
            json!({"other": 1}),
        ] {
            assert!(has_unknown_key(&schema, &value), "{value}");
        }
        for value in [
            json!({"filter": {"archived": true}, "labels": {"any": "x"}}),
            json!({"filter": null, "lines": []}),
            json!({"filter": "not an object"}),
        ] {
            assert!(!has_unknown_key(&schema, &value), "{value}");
        }
    }
}
