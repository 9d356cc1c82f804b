//! The rewrites every profile shares: inlining `$ref`s, number formats as bounds,
//! optional properties without `null`, and walking a schema's sub-schemas.

use std::collections::BTreeSet;

use serde_json::{Map, Number, Value, json};

use super::doc::is_null_schema;

/// Keywords whose values are data, not schemas: never rewritten.
const DATA_KEYWORDS: &[&str] = &["enum", "const", "default", "examples", "required"];

fn def_name(reference: &str) -> Option<&str> {
    reference.strip_prefix("#/$defs/")
}

/// The name of the definition a node's local `$ref` points at.
pub(super) fn ref_name(object: &Map<String, Value>) -> Option<&str> {
    object
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(def_name)
}

/// Calls `visit` on every value directly below `node` that may hold a schema: the members
/// of an object other than data keywords, the items of a list (`anyOf` and the like).
pub(super) fn visit_schema_children(node: &mut Value, visit: &mut dyn FnMut(&mut Value)) {
    match node {
        Value::Object(object) => {
            for (key, child) in object.iter_mut() {
                if !DATA_KEYWORDS.contains(&key.as_str()) {
                    visit(child);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(visit),
        _ => {}
    }
}

/// Replaces every non-recursive `$ref` below `node` by its definition; records the names of
/// definitions that are part of a cycle in `recursive`.
fn inline_refs(
    node: &mut Value,
    defs: &Map<String, Value>,
    stack: &mut Vec<String>,
    recursive: &mut BTreeSet<String>,
) {
    if let Value::Object(object) = node
        && let Some(name) = ref_name(object).map(str::to_string)
    {
        if stack.contains(&name) {
            recursive.insert(name);
            return;
        }
        if let Some(definition) = defs.get(&name) {
            let mut expanded = definition.clone();
            stack.push(name);
            inline_refs(&mut expanded, defs, stack, recursive);
            stack.pop();
            object.remove("$ref");
            if let Value::Object(expanded) = expanded {
                for (key, value) in expanded {
                    // Keywords beside the `$ref` (a description, a default) win.
                    object.entry(key).or_insert(value);
                }
            }
            // The expansion is already inlined up to any cycle: walking it again
            // with the cycle's name off the stack would never end.
            return;
        }
    }
    visit_schema_children(node, &mut |child| {
        inline_refs(child, defs, stack, recursive)
    });
}

/// Bounds implied by schemars's number formats: the Rust type's range.
fn format_bounds(format: &str) -> Option<(Option<Number>, Option<Number>)> {
    let integers = |min: i64, max: u64| (Some(Number::from(min)), Some(Number::from(max)));
    Some(match format {
        "int8" => integers(i8::MIN.into(), i8::MAX.unsigned_abs().into()),
        "int16" => integers(i16::MIN.into(), i16::MAX.unsigned_abs().into()),
        "int32" => integers(i32::MIN.into(), i32::MAX.unsigned_abs().into()),
        "uint8" => integers(0, u8::MAX.into()),
        "uint16" => integers(0, u16::MAX.into()),
        "uint32" => integers(0, u32::MAX.into()),
        // What serde_json can hold: a JSON number the runtime takes for an `i128` or `u128`
        // is still an `i64` or a `u64`.
        "uint64" | "uint" | "uint128" => integers(0, u64::MAX),
        "int64" | "int" => integers(i64::MIN, i64::MAX.unsigned_abs()),
        "int128" => integers(i64::MIN, u64::MAX),
        // serde reads a larger number into an `f32` as infinity: the range is f32's.
        "float" => {
            let max = Number::from_f64(f64::from(f32::MAX));
            (
                max.as_ref().and_then(|m| Number::from_f64(-m.as_f64()?)),
                max,
            )
        }
        "double" => (None, None),
        _ => return None,
    })
}

/// The largest magnitude up to which every integer has an exact JSON number in clients that
/// read numbers as IEEE doubles (JavaScript, most JSON libraries): 2^53.
const JSON_EXACT_INTEGER: u64 = 1 << 53;

/// True when a bound a number format implies is worth publishing. An integer bound beyond
/// ±2^53 only restates the Rust type's width (`i64`, `u64`, …) in digits such clients
/// cannot even hold, at about a dozen tokens each; the runtime still rejects values outside
/// the type with its range error. `f32`'s bounds are kept: they are what makes `1e308`
/// schema-invalid for an `f32`.
fn published_bound(bound: &Number) -> bool {
    match (bound.as_u64(), bound.as_i64()) {
        (Some(unsigned), _) => unsigned <= JSON_EXACT_INTEGER,
        (None, Some(signed)) => signed.unsigned_abs() <= JSON_EXACT_INTEGER,
        (None, None) => true,
    }
}

/// The numeric bounds a number `format` implies (the Rust type's range), for the validator.
pub(crate) fn format_range(format: &str) -> (Option<Number>, Option<Number>) {
    format_bounds(format).unwrap_or((None, None))
}

/// Sets `keyword` to `bound` unless the schema already states a tighter one.
fn tighten(object: &mut Map<String, Value>, keyword: &str, bound: Number, lower: bool) {
    let current = object.get(keyword).and_then(Value::as_f64);
    let tighter = match (current, bound.as_f64()) {
        (None, _) => true,
        (Some(current), Some(bound)) if lower => bound > current,
        (Some(current), Some(bound)) => bound < current,
        (Some(_), None) => false,
    };
    if tighter {
        object.insert(keyword.into(), Value::Number(bound));
    }
}

/// Rewrites an optional property's schema so that it no longer admits `null`.
pub(super) fn drop_null(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    if let Some(Value::Array(types)) = object.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let single = types.remove(0);
            object.insert("type".into(), single);
        }
    }
    for keyword in ["anyOf", "oneOf"] {
        let Some(Value::Array(branches)) = object.get(keyword) else {
            continue;
        };
        if branches.len() == 2 && branches.iter().any(is_null_schema) {
            let kept = branches.iter().find(|b| !is_null_schema(b)).cloned();
            object.remove(keyword);
            if let Some(Value::Object(kept)) = kept {
                for (key, value) in kept {
                    object.entry(key).or_insert(value);
                }
            }
        }
    }
    if let Some(Value::Array(values)) = object.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
}

/// Replaces a schemars number `format` (`uint32`, `float`, …) by the bounds it implies.
pub(super) fn number_format_as_bounds(object: &mut Map<String, Value>) {
    let format = object
        .get("format")
        .and_then(Value::as_str)
        .map(str::to_string);
    if let Some((min, max)) = format.as_deref().and_then(format_bounds) {
        object.remove("format");
        if let Some(min) = min.filter(published_bound) {
            tighten(object, "minimum", min, true);
        }
        if let Some(max) = max.filter(published_bound) {
            tighten(object, "maximum", max, false);
        }
    }
}

/// Standard-only keywords: integer formats become bounds; optional properties lose `null`.
pub(super) fn normalize(node: &mut Value) {
    if let Value::Object(object) = node {
        fold_constant_union(object);
        number_format_as_bounds(object);
        let required = owned_required_names(object);
        if let Some(Value::Object(properties)) = object.get_mut("properties") {
            for (name, property) in properties.iter_mut() {
                if !required.contains(name) {
                    drop_null(property);
                }
            }
        }
    }
    visit_schema_children(node, &mut normalize);
}

/// A branch of a union that is one constant, possibly typed and described: a unit enum's
/// variant as schemars writes it when the variant has a doc comment.
struct Constant {
    value: Value,
    json_type: Option<String>,
    description: Option<String>,
}

fn as_constant(branch: &Value) -> Option<Constant> {
    let branch = branch.as_object()?;
    let plain = branch
        .keys()
        .all(|key| matches!(key.as_str(), "const" | "type" | "description" | "title"));
    let text = |key: &str| branch.get(key).and_then(Value::as_str).map(str::to_string);
    plain
        .then(|| Constant {
            value: branch.get("const").cloned().unwrap_or(Value::Null),
            json_type: text("type"),
            description: text("description"),
        })
        .filter(|_| branch.contains_key("const"))
}

/// A union of constants as one `enum`, the variants' descriptions folded into the schema's
/// own: the form every client and model handles, and shorter than `oneOf` of `const`s.
fn fold_constant_union(object: &mut Map<String, Value>) {
    for keyword in ["oneOf", "anyOf"] {
        let Some(Value::Array(branches)) = object.get(keyword) else {
            continue;
        };
        let Some(constants) = branches.iter().map(as_constant).collect::<Option<Vec<_>>>() else {
            continue;
        };
        if constants.is_empty() || object.contains_key("enum") {
            continue;
        }
        object.remove(keyword);
        let types: BTreeSet<&str> = constants
            .iter()
            .filter_map(|c| c.json_type.as_deref())
            .collect();
        if let ([single], true) = (
            types.iter().collect::<Vec<_>>().as_slice(),
            constants.iter().all(|c| c.json_type.is_some()),
        ) {
            object.entry("type").or_insert_with(|| json!(single));
        }
        let notes: Vec<String> = constants
            .iter()
            .filter_map(|c| {
                let name = c
                    .value
                    .as_str()
                    .map_or_else(|| c.value.to_string(), str::to_string);
                Some(format!("{name}: {}", c.description.as_deref()?))
            })
            .collect();
        if !notes.is_empty() {
            let own = object.get("description").and_then(Value::as_str);
            let folded = own.into_iter().chain(notes.iter().map(String::as_str));
            let folded: Vec<&str> = folded.collect();
            object.insert("description".into(), json!(folded.join(" ")));
        }
        let values: Vec<Value> = constants.into_iter().map(|c| c.value).collect();
        object.insert("enum".into(), Value::Array(values));
        return;
    }
}

/// Inlines every `$ref` that is not part of a cycle. Returns the root and the definitions
/// that must stay because they are recursive, each itself inlined up to its cycle.
pub(super) fn inline_document(canonical: &Value) -> (Value, Map<String, Value>) {
    let mut root = canonical.clone();
    let Some(object) = root.as_object_mut() else {
        return (root, Map::new());
    };
    object.remove("$schema");
    let defs = match object.remove("$defs") {
        Some(Value::Object(defs)) => defs,
        _ => Map::new(),
    };
    let mut recursive = BTreeSet::new();
    inline_refs(&mut root, &defs, &mut Vec::new(), &mut recursive);

    let mut kept = Map::new();
    let mut pending: Vec<String> = recursive.iter().cloned().collect();
    while let Some(name) = pending.pop() {
        if kept.contains_key(&name) {
            continue;
        }
        let Some(definition) = defs.get(&name) else {
            continue;
        };
        let mut definition = definition.clone();
        let mut found = BTreeSet::new();
        inline_refs(&mut definition, &defs, &mut vec![name.clone()], &mut found);
        kept.insert(name, definition);
        pending.extend(found.into_iter().filter(|n| !kept.contains_key(n)));
    }
    (root, kept)
}

/// Keywords that only annotate: a schema with nothing else accepts any value.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
];

/// True for `true`, `{}` and a schema with annotations only: any JSON value.
pub(super) fn accepts_anything(schema: &Value) -> bool {
    match schema {
        Value::Bool(accepts) => *accepts,
        Value::Object(object) => object.keys().all(|k| ANNOTATIONS.contains(&k.as_str())),
        _ => false,
    }
}

/// The annotations of an any-value schema, kept when it is spelled out.
pub(super) fn annotations_of(schema: &Value) -> Map<String, Value> {
    schema.as_object().cloned().unwrap_or_default()
}

pub(super) fn single_types(types: &[&str]) -> Vec<Value> {
    types.iter().map(|t| json!({ "type": t })).collect()
}

/// Calls `visit` on every sub-schema directly below a schema object.
pub(super) fn for_each_subschema(
    object: &mut Map<String, Value>,
    visit: &mut dyn FnMut(&mut Value),
) {
    for (key, child) in object.iter_mut() {
        match key.as_str() {
            "properties" | "$defs" | "patternProperties" => {
                if let Value::Object(map) = child {
                    map.values_mut().for_each(&mut *visit);
                }
            }
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                if let Value::Array(list) = child {
                    list.iter_mut().for_each(&mut *visit);
                }
            }
            "items" | "not" | "contains" | "propertyNames" => visit(child),
            "additionalProperties" if child.is_object() => visit(child),
            _ => {}
        }
    }
}

/// Merges `allOf` branches that are all objects into the node (a flattened struct).
pub(super) fn merge_all_of(object: &mut Map<String, Value>) {
    let Some(Value::Array(branches)) = object.get("allOf") else {
        return;
    };
    if !branches.iter().all(Value::is_object) {
        return;
    }
    let Some(Value::Array(branches)) = object.remove("allOf") else {
        return;
    };
    for branch in branches {
        let Value::Object(branch) = branch else {
            continue;
        };
        for (key, value) in branch {
            match (key.as_str(), object.get_mut(&key)) {
                ("properties", Some(Value::Object(mine))) => {
                    if let Value::Object(theirs) = value {
                        for (name, schema) in theirs {
                            mine.entry(name).or_insert(schema);
                        }
                    }
                }
                ("required", Some(Value::Array(mine))) => {
                    if let Value::Array(theirs) = value {
                        for name in theirs {
                            if !mine.contains(&name) {
                                mine.push(name);
                            }
                        }
                    }
                }
                (_, Some(_)) => {}
                (_, None) => {
                    object.insert(key, value);
                }
            }
        }
    }
}

/// A tuple's `prefixItems` as one `items` schema (the profiles below have no tuples) and a
/// fixed length.
pub(super) fn collapse_tuple(object: &mut Map<String, Value>) {
    let Some(Value::Array(prefix)) = object.remove("prefixItems") else {
        return;
    };
    let length = prefix.len();
    let mut distinct: Vec<Value> = Vec::new();
    for item in prefix {
        if !distinct.contains(&item) {
            distinct.push(item);
        }
    }
    let items = if distinct.len() == 1 {
        distinct.remove(0)
    } else {
        json!({ "anyOf": distinct })
    };
    object.insert("items".into(), items);
    object.insert("minItems".into(), json!(length));
    object.insert("maxItems".into(), json!(length));
}

pub(super) fn is_object_type(object: &Map<String, Value>) -> bool {
    object.get("type").and_then(Value::as_str) == Some("object")
}

/// The names a schema object requires, owned: for the rewrites that change the schema while
/// they read them.
pub(super) fn owned_required_names(schema: &Map<String, Value>) -> BTreeSet<String> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| {
            names
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// Replaces every `$ref` to one of `defs` with the definition it names: one level of
/// unrolling of a recursive type.
pub(super) fn substitute_refs(node: &mut Value, defs: &Map<String, Value>) {
    if let Value::Object(object) = node
        && let Some(Value::Object(definition)) = ref_name(object).and_then(|name| defs.get(name))
    {
        let definition = definition.clone();
        object.remove("$ref");
        for (key, value) in definition {
            object.entry(key).or_insert(value);
        }
        return;
    }
    visit_schema_children(node, &mut |child| substitute_refs(child, defs));
}

/// Replaces the `$ref`s left after unrolling with the bare type of what they name.
pub(super) fn stub_refs(node: &mut Value, defs: &Map<String, Value>) {
    if let Value::Object(object) = node
        && let Some(definition) = ref_name(object).and_then(|name| defs.get(name))
    {
        let kind = definition.get("type").cloned().unwrap_or(json!("object"));
        object.remove("$ref");
        object.insert("type".into(), kind);
        return;
    }
    visit_schema_children(node, &mut |child| stub_refs(child, defs));
}
