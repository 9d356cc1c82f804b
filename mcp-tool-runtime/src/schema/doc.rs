//! Reading a canonical schema: `$ref`s, optional values, types, required names, maps. Every
//! module that reads a schema reads it through here.

use serde_json::{Map, Value};

use crate::error::{ArgPath, JsonType, PathSegment};

/// Deepest `$ref` chain followed; a longer one is taken to be a cycle.
const MAX_REF_CHAIN: usize = 64;

/// Objects up to this many members are searched by comparing names (see [`member`]).
const SCANNED_MEMBERS: usize = 8;

/// The member `name` of `value` when it is an object. serde_json's map (`preserve_order`)
/// hashes the name with SipHash on every lookup; a schema's objects hold a few keywords,
/// whose names a scan compares for less. Reading the schema for an error's sentences
/// hashed about 9,000 instructions' worth of names in P3b's three violations (callgrind,
/// `profile ours_invalid_constraints`).
pub(crate) fn member<'v>(value: &'v Value, name: &str) -> Option<&'v Value> {
    find(value.as_object()?, name)
}

/// [`member`] of an object already known to be one.
pub(crate) fn find<'m>(object: &'m Map<String, Value>, name: &str) -> Option<&'m Value> {
    if object.len() > SCANNED_MEMBERS {
        return object.get(name);
    }
    object
        .iter()
        .find_map(|(key, value)| (key == name).then_some(value))
}

/// A canonical schema (JSON Schema 2020-12, local `$ref`s only) and its definitions.
#[derive(Clone, Copy)]
pub(crate) struct SchemaDoc<'s> {
    root: &'s Value,
    defs: Option<&'s Map<String, Value>>,
}

impl<'s> SchemaDoc<'s> {
    /// The document whose root schema is `root`.
    pub(crate) fn new(root: &'s Value) -> Self {
        Self {
            root,
            defs: member(root, "$defs").and_then(Value::as_object),
        }
    }

    /// The root schema, `$ref` followed.
    pub(crate) fn root(&self) -> &'s Value {
        self.resolve(self.root)
    }

    /// Follows `$ref` chains to the schema they name.
    pub(crate) fn resolve(&self, mut schema: &'s Value) -> &'s Value {
        for _ in 0..MAX_REF_CHAIN {
            let Some(reference) = member(schema, "$ref").and_then(Value::as_str) else {
                return schema;
            };
            let target = match reference {
                "#" => Some(self.root),
                _ => reference
                    .strip_prefix("#/$defs/")
                    .and_then(|name| find(self.defs?, name)),
            };
            match target {
                Some(target) => schema = target,
                None => return schema,
            }
        }
        schema
    }

    /// The schema of the value at `path` (optional values seen through), if the schema
    /// names that path.
    pub(crate) fn at(&self, path: &ArgPath) -> Option<&'s Value> {
        let mut node = self.non_null(self.root());
        for segment in path.segments() {
            let next = match segment {
                PathSegment::Key(key) => member(member(node, "properties")?, key)?,
                PathSegment::Index(index) => item_schema(node, *index)?,
            };
            node = self.non_null(next);
        }
        Some(node)
    }

    /// `schema` resolved, and for an optional value's `anyOf: [T, null]` the `T`.
    pub(crate) fn non_null(&self, schema: &'s Value) -> &'s Value {
        let schema = self.resolve(schema);
        for keyword in ["anyOf", "oneOf"] {
            if let Some([first, second]) = member(schema, keyword)
                .and_then(Value::as_array)
                .map(Vec::as_slice)
            {
                match (is_null_schema(first), is_null_schema(second)) {
                    (true, false) => return self.resolve(second),
                    (false, true) => return self.resolve(first),
                    _ => {}
                }
            }
        }
        schema
    }
}

/// The schema of the item at `index` of an array schema: its `prefixItems` entry, else
/// its `items`.
pub(crate) fn item_schema(array: &Value, index: usize) -> Option<&Value> {
    member(array, "prefixItems")
        .and_then(|items| items.get(index))
        .or_else(|| member(array, "items"))
}

/// True for `{"type": "null"}`.
pub(crate) fn is_null_schema(schema: &Value) -> bool {
    member(schema, "type").and_then(Value::as_str) == Some("null")
}

/// True for an object type with no fixed properties whose other keys take values of one
/// schema: a `HashMap` or `BTreeMap`.
pub(crate) fn is_map(object: &Map<String, Value>) -> bool {
    let open = matches!(
        find(object, "additionalProperties"),
        Some(Value::Object(_) | Value::Bool(true))
    );
    let no_properties = find(object, "properties")
        .and_then(Value::as_object)
        .is_none_or(Map::is_empty);
    open && no_properties && find(object, "type").and_then(Value::as_str) == Some("object")
}

/// The names in a schema's `required` member.
pub(crate) fn required_names(schema: &Value) -> Vec<&str> {
    member(schema, "required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// The JSON types a schema's `type` names (a name or a list of names); unknown names are
/// left out.
pub(crate) fn declared_types(schema: &Value) -> Vec<JsonType> {
    match member(schema, "type") {
        Some(Value::String(name)) => JsonType::from_name(name).into_iter().collect(),
        Some(Value::Array(names)) => names
            .iter()
            .filter_map(Value::as_str)
            .filter_map(JsonType::from_name)
            .collect(),
        _ => Vec::new(),
    }
}

/// The values a schema allows when it is a fixed set (`const` or `enum`).
pub(crate) fn constants_of(schema: &Value) -> Option<Vec<Value>> {
    if let Some(constant) = member(schema, "const") {
        return Some(vec![constant.clone()]);
    }
    member(schema, "enum").and_then(Value::as_array).cloned()
}
