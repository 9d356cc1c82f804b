//! Arguments with their failing values swapped for values that deserialize, so that a
//! user's own arguments type can still be validated and its custom rules reported beside
//! the failures; what the swapped values lead to is not reported.

use serde_json::{Map, Value};

use crate::error::{ArgPath, PathSegment, Violation, ViolationKind};
use crate::schema::{SchemaDoc, find, member, required_names};

/// Deepest schema nesting a placeholder is built for.
const MAX_DEPTH: usize = 16;

/// A fixed value of each string format a common type parses (`chrono`, `uuid`, `url`).
const FORMATTED: &[(&str, &str)] = &[
    ("date-time", "1970-01-01T00:00:00Z"),
    ("date", "1970-01-01"),
    ("time", "00:00:00"),
    ("uuid", "00000000-0000-0000-0000-000000000000"),
    ("uri", "https://example.com/"),
    ("email", "a@example.com"),
];

/// `arguments` with the value at each violation's path replaced by a placeholder (an
/// unknown key removed), and the paths whose values were replaced; `None` when one cannot be
/// replaced.
pub(super) fn patched(
    schema: &Value,
    arguments: &Value,
    violations: &[Violation],
) -> Option<(Value, Vec<ArgPath>)> {
    let doc = SchemaDoc::new(schema);
    let mut patched = arguments.clone();
    let mut paths: Vec<ArgPath> = Vec::with_capacity(violations.len());
    // Outermost first: a value inside one already replaced needs nothing more.
    let mut ordered: Vec<&Violation> = violations.iter().collect();
    ordered.sort_by_key(|violation| violation.path.segments().len());
    for violation in ordered {
        let inside = |path: &ArgPath| violation.path.segments().starts_with(path.segments());
        if paths.iter().any(inside) {
            continue;
        }
        let (last, parent) = violation.path.segments().split_last()?;
        let container = value_at_mut(&mut patched, parent)?;
        match (last, &violation.kind) {
            // Removing a key the type does not have changes no value a rule can read, so it
            // is not a swap: a struct-level rule over its parent is still reported.
            (PathSegment::Key(key), ViolationKind::Unknown { .. }) => {
                container.as_object_mut()?.remove(key);
            }
            _ => {
                let replacement = placeholder(&doc, doc.at(&violation.path)?, 0)?;
                put(container, last, replacement)?;
                paths.push(violation.path.clone());
            }
        }
    }
    Some((patched, paths))
}

/// Whether two paths overlap: one is the other or lies inside it.
pub(super) fn overlaps(a: &ArgPath, b: &ArgPath) -> bool {
    let (a, b) = (a.segments(), b.segments());
    a.starts_with(b) || b.starts_with(a)
}

fn value_at_mut<'v>(value: &'v mut Value, path: &[PathSegment]) -> Option<&'v mut Value> {
    path.iter().try_fold(value, |node, segment| match segment {
        PathSegment::Key(key) => node.as_object_mut()?.get_mut(key),
        PathSegment::Index(index) => node.as_array_mut()?.get_mut(*index),
    })
}

fn put(container: &mut Value, segment: &PathSegment, value: Value) -> Option<()> {
    match segment {
        PathSegment::Key(key) => {
            container.as_object_mut()?.insert(key.clone(), value);
        }
        PathSegment::Index(index) => *container.as_array_mut()?.get_mut(*index)? = value,
    }
    Some(())
}

/// A value that the schema's type deserializes: its default, its first allowed value, or
/// the simplest value of its type.
fn placeholder(doc: &SchemaDoc<'_>, schema: &Value, depth: usize) -> Option<Value> {
    if depth > MAX_DEPTH {
        return None;
    }
    let schema = doc.non_null(schema);
    if let Some(value) = member(schema, "default").or_else(|| member(schema, "const")) {
        return Some(value.clone());
    }
    if let Some(first) = member(schema, "enum").and_then(|e| e.as_array()?.first()) {
        return Some(first.clone());
    }
    if let Some(first) = ["anyOf", "oneOf"]
        .iter()
        .find_map(|k| member(schema, k)?.as_array()?.first())
    {
        return placeholder(doc, first, depth + 1);
    }
    match member(schema, "type").and_then(Value::as_str)? {
        "null" => Some(Value::Null),
        "boolean" => Some(Value::Bool(false)),
        "integer" | "number" => Some(number(schema)),
        "string" => Some(string(schema)),
        "array" => array(doc, schema, depth),
        "object" => object(doc, schema, depth),
        _ => None,
    }
}

/// Zero, or the bound nearest to it.
fn number(schema: &Value) -> Value {
    let bound = |key: &str| member(schema, key).filter(|b| b.is_number()).cloned();
    let above_zero = member(schema, "minimum")
        .and_then(Value::as_f64)
        .is_some_and(|min| min > 0.0);
    let below_zero = member(schema, "maximum")
        .and_then(Value::as_f64)
        .is_some_and(|max| max < 0.0);
    match (above_zero, below_zero) {
        (true, _) => bound("minimum"),
        (_, true) => bound("maximum"),
        _ => None,
    }
    .unwrap_or(Value::from(0))
}

fn string(schema: &Value) -> Value {
    let format = member(schema, "format").and_then(Value::as_str);
    let text = FORMATTED
        .iter()
        .find(|(name, _)| Some(*name) == format)
        .map_or("", |(_, text)| text);
    Value::String(text.to_string())
}

fn array(doc: &SchemaDoc<'_>, schema: &Value, depth: usize) -> Option<Value> {
    let items = match member(schema, "prefixItems").and_then(Value::as_array) {
        Some(prefix) => prefix
            .iter()
            .map(|item| placeholder(doc, item, depth + 1))
            .collect::<Option<Vec<_>>>()?,
        None => Vec::new(),
    };
    Some(Value::Array(items))
}

fn object(doc: &SchemaDoc<'_>, schema: &Value, depth: usize) -> Option<Value> {
    let mut object = Map::new();
    let properties = member(schema, "properties").and_then(Value::as_object);
    for name in required_names(schema) {
        let property = find(properties?, name)?;
        object.insert(name.to_string(), placeholder(doc, property, depth + 1)?);
    }
    Some(Value::Object(object))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn failing_values_are_replaced_and_unknown_keys_removed() {
        let schema = json!({
            "type": "object",
            "properties": {
                "count": {"type": "integer", "minimum": 1},
                "when": {"type": "string", "format": "date"},
                "pair": {"type": "array", "prefixItems": [{"type": "boolean"}, {"enum": ["a"]}]}
            }
        });
        let arguments = json!({"count": "x", "pair": 1, "extra": 2});
        let kinds = [
            ("count", false),
            ("when", false),
            ("pair", false),
            ("extra", true),
        ];
        let violations: Vec<Violation> = kinds
            .iter()
            .map(|(name, unknown)| {
                let kind = if *unknown {
                    ViolationKind::Unknown {
                        suggestion: None,
                        valid: Vec::new(),
                    }
                } else {
                    ViolationKind::NotUnique
                };
                Violation::new(ArgPath::argument(*name), kind, None)
            })
            .collect();
        let (patched, paths) = patched(&schema, &arguments, &violations).expect("patched");
        assert_eq!(
            patched,
            json!({"count": 1, "pair": [false, "a"], "when": "1970-01-01"})
        );
        // The unknown key was removed, not swapped: no rule can have read it.
        let swapped: Vec<&str> = paths.iter().filter_map(ArgPath::top_level).collect();
        assert_eq!(swapped, ["count", "when", "pair"]);
        assert!(overlaps(&ArgPath::root(), &paths[0]));
        assert!(!overlaps(&ArgPath::argument("when"), &paths[0]));
    }
}
