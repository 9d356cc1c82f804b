//! The gemini profile: the OpenAPI 3.0 subset of Gemini function declarations.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use super::doc::is_null_schema;
use super::rewrite::{
    collapse_tuple, inline_document, merge_all_of, normalize, single_types, stub_refs,
    substitute_refs,
};

/// The keywords of Gemini's OpenAPI 3.0 schema subset.
pub(crate) const GEMINI_KEYWORDS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "anyOf",
    "items",
    "minimum",
    "maximum",
    "default",
];

/// How many levels of a recursive type the Gemini profile unrolls before it stops
/// describing deeper levels.
pub(crate) const GEMINI_RECURSION_DEPTH: usize = 3;

/// The Gemini (OpenAPI 3.0 subset) form of a canonical schema. See [`SchemaProfile`](super::SchemaProfile).
pub(super) fn gemini(canonical: &Value) -> Value {
    let (mut root, kept) = inline_document(canonical);
    // No `$ref` at all: recursive types are unrolled a few levels, then left open.
    for _ in 0..GEMINI_RECURSION_DEPTH {
        substitute_refs(&mut root, &kept);
    }
    stub_refs(&mut root, &kept);
    normalize(&mut root);
    gemini_node(&mut root, false);
    root
}

/// One schema for the branches of a union inside `items`, where Gemini takes no `anyOf`:
/// the union of string enums, or one object with every branch's properties (required only
/// when every branch requires them), or the common type. The runtime still checks the
/// exact union.
fn collapse_union(branches: Vec<Value>) -> Value {
    let enums: Option<Vec<Value>> = branches.iter().try_fold(Vec::new(), |mut all, b| {
        all.extend(b.get("enum")?.as_array()?.iter().cloned());
        Some(all)
    });
    if let Some(values) = enums
        && values.iter().all(Value::is_string)
    {
        return json!({ "type": "string", "enum": values });
    }
    let all_objects = branches
        .iter()
        .all(|b| b.get("type").and_then(Value::as_str) == Some("object"));
    if all_objects {
        let mut properties = Map::new();
        let mut required: Option<Vec<Value>> = None;
        for branch in &branches {
            if let Some(Value::Object(theirs)) = branch.get("properties") {
                for (name, schema) in theirs {
                    properties.entry(name.clone()).or_insert(schema.clone());
                }
            }
            let theirs = branch
                .get("required")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            required = Some(match required {
                None => theirs,
                Some(mine) => mine.into_iter().filter(|n| theirs.contains(n)).collect(),
            });
        }
        let mut merged = Map::new();
        merged.insert("type".into(), json!("object"));
        merged.insert("properties".into(), Value::Object(properties));
        if let Some(required) = required.filter(|r| !r.is_empty()) {
            merged.insert("required".into(), Value::Array(required));
        }
        return Value::Object(merged);
    }
    let types: BTreeSet<&str> = branches
        .iter()
        .filter_map(|b| b.get("type").and_then(Value::as_str))
        .collect();
    match (types.len(), types.iter().next()) {
        (1, Some(single)) if branches.iter().all(|b| b.get("type").is_some()) => {
            json!({ "type": single })
        }
        _ => json!({}),
    }
}

fn gemini_node(node: &mut Value, in_items: bool) {
    if let Value::Bool(_) = node {
        *node = json!({});
    }
    let Value::Object(object) = node else {
        return;
    };
    merge_all_of(object);
    if let Some(one_of) = object.remove("oneOf") {
        object.insert("anyOf".into(), one_of);
    }
    if let Some(constant) = object.remove("const") {
        object.insert("enum".into(), json!([constant]));
    }
    collapse_tuple(object);
    spell_null_as_nullable(object);
    if let Some(Value::Array(types)) = object.get("type").cloned() {
        object.remove("type");
        let names: Vec<&str> = types.iter().filter_map(Value::as_str).collect();
        let branches = single_types(&names);
        object.insert("anyOf".into(), Value::Array(branches));
    }
    make_bounds_inclusive(object);
    let keep_format = object.get("format").and_then(Value::as_str) == Some("date-time");
    if !keep_format {
        object.remove("format");
    }
    object.retain(|key, _| GEMINI_KEYWORDS.contains(&key.as_str()));
    gemini_children(object, in_items);
}

/// `nullable: true` is OpenAPI's spelling of a `null` type or branch.
fn spell_null_as_nullable(object: &mut Map<String, Value>) {
    let mut nullable = false;
    if let Some(Value::Array(types)) = object.get_mut("type") {
        nullable = types.iter().any(|t| t == "null");
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let single = types.remove(0);
            object.insert("type".into(), single);
        }
    }
    if let Some(Value::Array(branches)) = object.get_mut("anyOf") {
        if branches.iter().any(is_null_schema) {
            nullable = true;
            branches.retain(|b| !is_null_schema(b));
        }
        if branches.len() == 1 {
            let kept = branches.remove(0);
            object.remove("anyOf");
            if let Value::Object(kept) = kept {
                for (key, value) in kept {
                    object.entry(key).or_insert(value);
                }
            }
        }
    }
    if nullable {
        if let Some(Value::Array(values)) = object.get_mut("enum") {
            values.retain(|v| !v.is_null());
        }
        object.insert("nullable".into(), Value::Bool(true));
    }
}

/// Exclusive bounds as inclusive ones: exact for integers; for other numbers the runtime
/// keeps the bound exclusive.
fn make_bounds_inclusive(object: &mut Map<String, Value>) {
    let integer = object.get("type").and_then(Value::as_str) == Some("integer");
    for (exclusive, inclusive, step) in [
        ("exclusiveMinimum", "minimum", 1),
        ("exclusiveMaximum", "maximum", -1),
    ] {
        if let Some(bound) = object.remove(exclusive) {
            let bound = match bound.as_i64() {
                Some(n) if integer => json!(n + step),
                _ => bound,
            };
            object.insert(inclusive.into(), bound);
        }
    }
}

/// The sub-schemas below a node; a union inside `items` is collapsed into one schema.
fn gemini_children(object: &mut Map<String, Value>, in_items: bool) {
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        properties
            .values_mut()
            .for_each(|property| gemini_node(property, in_items));
    }
    if let Some(items) = object.get_mut("items") {
        gemini_node(items, true);
    }
    if let Some(Value::Array(branches)) = object.get_mut("anyOf") {
        branches.iter_mut().for_each(|b| gemini_node(b, in_items));
        if in_items {
            let branches = std::mem::take(branches);
            object.remove("anyOf");
            if let Value::Object(collapsed) = collapse_union(branches) {
                for (key, value) in collapsed {
                    object.entry(key).or_insert(value);
                }
            }
        }
    }
}
