//! The strict profile: OpenAI strict mode.

use serde_json::{Map, Value, json};

use super::doc::is_map;
use super::rewrite::{
    accepts_anything, annotations_of, collapse_tuple, for_each_subschema, inline_document,
    merge_all_of, normalize, owned_required_names, ref_name, single_types, stub_refs,
    substitute_refs,
};

/// The keywords OpenAI strict mode supports; everything else is left out of a strict schema.
pub(crate) const STRICT_KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "$ref",
    "$defs",
    "description",
    "title",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
];

/// The string formats OpenAI strict mode supports.
pub(crate) const STRICT_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// True when a schema admits `null`.
fn admits_null(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) if t == "null" => return true,
        Some(Value::Array(types)) if types.iter().any(|t| t == "null") => return true,
        _ => {}
    }
    if let Some(Value::Array(values)) = schema.get("enum")
        && values.iter().any(Value::is_null)
    {
        return true;
    }
    ["anyOf", "oneOf"].iter().any(|k| {
        schema
            .get(*k)
            .and_then(Value::as_array)
            .is_some_and(|branches| branches.iter().any(admits_null))
    })
}

/// Makes a schema admit `null` as well, as OpenAI strict mode spells an optional property.
fn make_nullable(schema: &mut Value) {
    if admits_null(schema) {
        return;
    }
    let Value::Object(object) = schema else {
        return;
    };
    if let Some(Value::String(single)) = object.get("type").cloned()
        && !object.contains_key("$ref")
    {
        object.insert("type".into(), json!([single, "null"]));
        if let Some(constant) = object.remove("const") {
            object.insert("enum".into(), json!([constant]));
        }
        if let Some(Value::Array(values)) = object.get_mut("enum") {
            values.push(Value::Null);
        }
        return;
    }
    let description = object.remove("description");
    let inner = std::mem::take(object);
    object.insert(
        "anyOf".into(),
        json!([Value::Object(inner), { "type": "null" }]),
    );
    if let Some(description) = description {
        object.insert("description".into(), description);
    }
}

/// A map (`additionalProperties` a schema, no fixed properties) as a list of key/value
/// pairs: strict mode closes every object, so a map has no other spelling. The runtime
/// turns such a list back into the map.
fn map_as_pairs(value_schema: Value) -> Value {
    json!({
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                MAP_PAIR_KEY: { "type": "string" },
                MAP_PAIR_VALUE: value_schema
            },
            "required": [MAP_PAIR_KEY, MAP_PAIR_VALUE],
            "additionalProperties": false
        }
    })
}

/// The property that holds a map entry's key in the strict profile's key/value pairs.
pub(crate) const MAP_PAIR_KEY: &str = "key";
/// The property that holds a map entry's value in the strict profile's key/value pairs.
pub(crate) const MAP_PAIR_VALUE: &str = "value";

/// The strict (OpenAI) form of a canonical schema. See [`SchemaProfile`](super::SchemaProfile).
pub(super) fn strict(canonical: &Value) -> Value {
    let (mut root, kept) = inline_document(canonical);
    // No `$ref`: openai-agents converts an MCP tool to strict mode only when it has checked
    // every target itself, which it never does for a `$ref` it keeps (a recursive type).
    for _ in 0..STRICT_RECURSION_DEPTH {
        substitute_refs(&mut root, &kept);
    }
    drop_recursive_properties(&mut root, &kept);
    stub_refs(&mut root, &kept);
    normalize(&mut root);
    strict_node(&mut root);
    root
}

/// How many levels of a recursive type the strict profile unrolls; below that, a level
/// has no recursive properties.
pub(crate) const STRICT_RECURSION_DEPTH: usize = 3;

/// Leaves out, at every depth, each property whose schema still refers to one of `defs`:
/// where unrolling stops, a tree node has no `children` and a list link no `next`. Strict
/// mode has no open object to stand for them.
fn drop_recursive_properties(node: &mut Value, defs: &Map<String, Value>) {
    let Value::Object(object) = node else {
        return;
    };
    // Deepest first: a level whose deeper levels were pruned keeps its properties.
    for_each_subschema(object, &mut |child| drop_recursive_properties(child, defs));
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        let dropped: Vec<String> = properties
            .iter()
            .filter(|(_, schema)| refers_to(schema, defs))
            .map(|(name, _)| name.clone())
            .collect();
        for name in &dropped {
            properties.remove(name);
        }
        if let Some(Value::Array(required)) = object.get_mut("required") {
            required.retain(|name| !dropped.iter().any(|d| name == d.as_str()));
        }
    }
}

/// True when `schema` holds a `$ref` to one of `defs` at any depth.
fn refers_to(schema: &Value, defs: &Map<String, Value>) -> bool {
    match schema {
        Value::Object(object) => {
            ref_name(object).is_some_and(|name| defs.contains_key(name))
                || object.values().any(|child| refers_to(child, defs))
        }
        Value::Array(items) => items.iter().any(|child| refers_to(child, defs)),
        _ => false,
    }
}

fn strict_node(node: &mut Value) {
    if accepts_anything(node) {
        // Strict mode has no open object; any scalar is the closest it can say.
        let mut object = annotations_of(node);
        object.insert(
            "anyOf".into(),
            Value::Array(single_types(&["string", "number", "boolean", "null"])),
        );
        *node = Value::Object(object);
    }
    let Value::Object(object) = node else {
        return;
    };
    merge_all_of(object);
    if let Some(one_of) = object.remove("oneOf") {
        object.insert("anyOf".into(), one_of);
    }
    collapse_tuple(object);
    if is_map(object) {
        let value_schema = match object.remove("additionalProperties") {
            Some(schema @ Value::Object(_)) => schema,
            _ => json!(true),
        };
        let mut pairs = map_as_pairs(value_schema);
        if let (Some(description), Value::Object(pairs)) =
            (object.remove("description"), &mut pairs)
        {
            pairs.insert("description".into(), description);
        }
        *node = pairs;
        return strict_node(node);
    }
    let is_object = object.get("type").and_then(Value::as_str) == Some("object")
        || object.contains_key("properties");
    if is_object {
        object.insert("additionalProperties".into(), Value::Bool(false));
        let required = owned_required_names(object);
        let properties = object
            .entry("properties")
            .or_insert_with(|| Value::Object(Map::new()));
        let mut all = Vec::new();
        if let Value::Object(properties) = properties {
            for (name, property) in properties.iter_mut() {
                if !required.contains(name) {
                    make_nullable(property);
                }
                all.push(Value::String(name.clone()));
            }
        }
        object.insert("required".into(), Value::Array(all));
    }
    object.retain(|key, _| STRICT_KEYWORDS.contains(&key.as_str()));
    let unsupported_format = object
        .get("format")
        .and_then(Value::as_str)
        .is_some_and(|f| !STRICT_FORMATS.contains(&f));
    if unsupported_format {
        object.remove("format");
    }
    for_each_subschema(object, &mut strict_node);
}
