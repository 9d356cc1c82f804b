//! The portable profile: the subset of JSON Schema every client accepts.

use serde_json::{Map, Value, json};

use super::rewrite::{
    accepts_anything, annotations_of, for_each_subschema, inline_document, normalize, single_types,
};
use crate::error::JsonType;

/// The portable form of a canonical schema. See [`SchemaProfile`](super::SchemaProfile).
///
/// No object says `additionalProperties: true` or `false`: google-genai's MCP conversion
/// (`mcp_to_gemini_tool`) fails on every tool with a boolean there, and the runtime rejects
/// unknown keys at every depth against the canonical schema whatever the published one says.
/// A map keeps its value schema.
///
/// A `default` of `null`, `[]` or `{}` is left out: leaving the argument out already means
/// "none" or "empty" to a model, and serde fills the default in whatever the schema says.
pub(super) fn portable(canonical: &Value) -> Value {
    let (mut root, mut kept) = inline_document(canonical);
    if !root.is_object() {
        return root;
    }
    for definition in kept.values_mut() {
        open_objects(definition);
        drop_empty_defaults(definition);
        normalize(definition);
        spell_portably(definition);
    }
    open_objects(&mut root);
    drop_empty_defaults(&mut root);
    normalize(&mut root);
    spell_portably(&mut root);
    if let Some(object) = root.as_object_mut()
        && !kept.is_empty()
    {
        object.insert("$defs".into(), Value::Object(kept));
    }
    root
}

/// Leaves out every boolean `additionalProperties`, at every depth.
fn open_objects(node: &mut Value) {
    let Value::Object(object) = node else {
        return;
    };
    if object
        .get("additionalProperties")
        .is_some_and(Value::is_boolean)
    {
        object.remove("additionalProperties");
    }
    for_each_subschema(object, &mut open_objects);
}

/// Leaves out every `default` that is `null`, `[]` or `{}`, at every depth.
fn drop_empty_defaults(node: &mut Value) {
    let Value::Object(object) = node else {
        return;
    };
    let empty = match object.get("default") {
        Some(Value::Null) => true,
        Some(Value::Array(items)) => items.is_empty(),
        Some(Value::Object(entries)) => entries.is_empty(),
        _ => false,
    };
    if empty {
        object.remove("default");
    }
    for_each_subschema(object, &mut drop_empty_defaults);
}

/// The spellings that Inspector 2.x `--strict` and single-type clients accept: a bare `true`
/// or an annotation-only schema becomes an `anyOf` of every single type, and a `type` array
/// (`["string","null"]`) becomes an `anyOf` of single types.
fn spell_portably(node: &mut Value) {
    if accepts_anything(node) {
        let mut object = annotations_of(node);
        object.insert(
            "anyOf".into(),
            Value::Array(single_types(&[
                "string", "number", "boolean", "object", "array", "null",
            ])),
        );
        *node = Value::Object(object);
        return;
    }
    let Value::Object(object) = node else {
        return;
    };
    if let Some(Value::Array(types)) = object.get("type") {
        let names: Vec<String> = types
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let branches = split_types(object, &names);
        object.remove("type");
        object.insert("anyOf".into(), Value::Array(branches));
    }
    for_each_subschema(object, &mut spell_portably);
}

/// Keywords that apply to one JSON type only, moved into that type's branch when a `type`
/// array is split.
fn keyword_type(keyword: &str) -> Option<&'static str> {
    Some(match keyword {
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => "number",
        "minLength" | "maxLength" | "pattern" | "format" => "string",
        "items" | "prefixItems" | "minItems" | "maxItems" | "uniqueItems" => "array",
        "properties" | "required" | "additionalProperties" | "minProperties" | "maxProperties" => {
            "object"
        }
        _ => return None,
    })
}

fn split_types(object: &mut Map<String, Value>, names: &[&str]) -> Vec<Value> {
    let mut branches: Vec<Map<String, Value>> = names
        .iter()
        .map(|name| {
            let mut branch = Map::new();
            branch.insert("type".into(), json!(name));
            branch
        })
        .collect();
    let moved: Vec<String> = object
        .keys()
        .filter(|k| keyword_type(k).is_some())
        .cloned()
        .collect();
    for keyword in moved {
        let Some(value) = object.remove(&keyword) else {
            continue;
        };
        let family = keyword_type(&keyword).unwrap_or_default();
        for (branch, name) in branches.iter_mut().zip(names) {
            let applies = *name == family || (family == "number" && *name == "integer");
            if applies {
                branch.insert(keyword.clone(), value.clone());
            }
        }
    }
    if let Some(Value::Array(values)) = object.remove("enum") {
        for (branch, name) in branches.iter_mut().zip(names) {
            let mine: Vec<Value> = values
                .iter()
                .filter(|v| JsonType::of(v).name() == *name || (*name == "number" && v.is_number()))
                .cloned()
                .collect();
            branch.insert("enum".into(), Value::Array(mine));
        }
    }
    branches.into_iter().map(Value::Object).collect()
}
