//! Schema generation and the profiles that shape what clients are shown.
//!
//! A tool's *canonical* schema is what schemars writes (JSON Schema 2020-12, with `$defs`).
//! The runtime validates against the canonical schema. Clients are shown a *published*
//! schema, derived from the canonical one by a [`SchemaProfile`] once per server, never per
//! call or per listing.
//!
//! # The portable profile
//! Clients disagree about JSON Schema, and one rejected schema can make a client drop every
//! tool of a server. The default profile therefore publishes the subset that all of them
//! accept:
//! - sub-schemas are inlined: no `$ref`, no `$defs`;
//! - integer formats such as `uint32` are replaced by `minimum`/`maximum`;
//! - an optional property is simply left out of `required` rather than typed `["T","null"]`;
//! - the arguments object has `additionalProperties: false`;
//! - there is no `$schema` keyword (2020-12 is the MCP default).
//!
//! ## Recursive types
//! A recursive type cannot be inlined: it would never end. For those, and only those, the
//! portable schema keeps a `$defs` entry per recursive type and refers to it with `$ref`.
//! Everything that is not part of a cycle is still inlined.

use std::collections::BTreeSet;

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, SchemaGenerator};
use serde_json::{Map, Value, json};

/// How published schemas are shaped. Set once per server.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SchemaProfile {
    /// Inlined, standard-only schemas every client accepts (the default).
    #[default]
    Portable,
    /// JSON Schema 2020-12 exactly as schemars writes it, with `$schema` and `$defs`.
    Full,
}

/// Which side of a tool a schema describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SchemaRole {
    /// The arguments the client sends.
    Input,
    /// The structured result the server returns.
    Output,
}

/// A profile name that is none of `portable`, `strict`, `gemini`, `full`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownProfile(pub String);

impl std::fmt::Display for UnknownProfile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = SchemaProfile::ALL.iter().map(|p| p.name()).collect();
        write!(
            f,
            "unknown schema profile '{}' (expected one of {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownProfile {}

impl std::str::FromStr for SchemaProfile {
    type Err = UnknownProfile;

    /// Parses a profile name as `#[mcp_tool(schema_profile = "...")]` and the examples'
    /// `--schema-profile` take it.
    ///
    /// ```
    /// use mcp_tool_runtime::SchemaProfile;
    /// assert_eq!("full".parse::<SchemaProfile>(), Ok(SchemaProfile::Full));
    /// assert!("draft7".parse::<SchemaProfile>().is_err());
    /// ```
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|profile| profile.name() == name)
            .ok_or_else(|| UnknownProfile(name.to_string()))
    }
}

impl std::fmt::Display for SchemaProfile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl SchemaProfile {
    /// Every profile, in the order the documentation lists them.
    pub const ALL: [SchemaProfile; 2] = [Self::Portable, Self::Full];

    /// The profile's name: `portable`, `full`, …
    pub fn name(self) -> &'static str {
        match self {
            Self::Portable => "portable",
            Self::Full => "full",
        }
    }

    /// The published form of a canonical schema under this profile.
    pub fn publish(self, canonical: &Value, role: SchemaRole) -> Value {
        match self {
            Self::Portable => portable(canonical, role),
            Self::Full => canonical.clone(),
        }
    }
}

/// The schema generator every tool uses: JSON Schema 2020-12.
pub fn generator() -> SchemaGenerator {
    SchemaSettings::draft2020_12().into_generator()
}

/// The canonical input schema of an arguments type. The root `title` (the name of a
/// generated struct) is dropped: it says nothing to a model.
pub fn input_schema<T: JsonSchema>() -> Value {
    let mut schema = generator().into_root_schema_for::<T>().to_value();
    if let Some(root) = schema.as_object_mut() {
        root.remove("title");
    }
    schema
}

/// True when a schema has `type: "object"` at its root, as MCP requires of input and output
/// schemas.
pub fn is_object_schema(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("object")
}

/// The property that carries a structured result whose own schema is not an object.
pub const WRAPPED_RESULT_KEY: &str = "result";

/// The canonical output schema of a result type, and whether results must be wrapped as
/// `{"result": value}` because the type's own schema is not an object.
pub fn output_schema<T: JsonSchema>() -> (Value, bool) {
    let schema = generator().into_root_schema_for::<T>().to_value();
    if is_object_schema(&schema) {
        return (schema, false);
    }
    let Value::Object(mut inner) = schema else {
        // `true` or `false`: any value, or none; wrap it as it is.
        return (wrap_result(schema, None, None), true);
    };
    let dialect = inner.remove("$schema");
    let defs = inner.remove("$defs");
    (wrap_result(Value::Object(inner), dialect, defs), true)
}

fn wrap_result(inner: Value, dialect: Option<Value>, defs: Option<Value>) -> Value {
    let mut wrapped = Map::new();
    if let Some(dialect) = dialect {
        wrapped.insert("$schema".into(), dialect);
    }
    wrapped.insert("type".into(), json!("object"));
    wrapped.insert("properties".into(), json!({ WRAPPED_RESULT_KEY: inner }));
    wrapped.insert("required".into(), json!([WRAPPED_RESULT_KEY]));
    if let Some(defs) = defs {
        wrapped.insert("$defs".into(), defs);
    }
    Value::Object(wrapped)
}

/// Keywords whose values are data, not schemas: never rewritten.
const DATA_KEYWORDS: &[&str] = &["enum", "const", "default", "examples", "required"];

fn def_name(reference: &str) -> Option<&str> {
    reference.strip_prefix("#/$defs/")
}

/// Replaces every non-recursive `$ref` below `node` by its definition; records the names of
/// definitions that are part of a cycle in `recursive`.
fn inline_refs(
    node: &mut Value,
    defs: &Map<String, Value>,
    stack: &mut Vec<String>,
    recursive: &mut BTreeSet<String>,
) {
    match node {
        Value::Object(object) => {
            let target = object
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(def_name)
                .map(str::to_string);
            if let Some(name) = target {
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
            for (key, child) in object.iter_mut() {
                if !DATA_KEYWORDS.contains(&key.as_str()) {
                    inline_refs(child, defs, stack, recursive);
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                inline_refs(item, defs, stack, recursive);
            }
        }
        _ => {}
    }
}

/// Bounds implied by schemars's integer formats.
fn format_bounds(format: &str) -> Option<(Option<i128>, Option<i128>)> {
    Some(match format {
        "int8" => (Some(i8::MIN.into()), Some(i8::MAX.into())),
        "int16" => (Some(i16::MIN.into()), Some(i16::MAX.into())),
        "int32" => (Some(i32::MIN.into()), Some(i32::MAX.into())),
        "uint8" => (Some(0), Some(u8::MAX.into())),
        "uint16" => (Some(0), Some(u16::MAX.into())),
        "uint32" => (Some(0), Some(u32::MAX.into())),
        "uint64" | "uint" | "uint128" => (Some(0), None),
        "int64" | "int" | "int128" | "float" | "double" => (None, None),
        _ => return None,
    })
}

/// The numeric bounds an integer `format` implies, for the validator.
pub(crate) fn integer_format_bounds(format: &str) -> (Option<i128>, Option<i128>) {
    format_bounds(format).unwrap_or((None, None))
}

fn tighten(object: &mut Map<String, Value>, keyword: &str, bound: i128, lower: bool) {
    let current = object.get(keyword).and_then(Value::as_f64);
    let tighter = match current {
        None => true,
        Some(current) if lower => (bound as f64) > current,
        Some(current) => (bound as f64) < current,
    };
    if tighter {
        let number = i64::try_from(bound)
            .map(Value::from)
            .or_else(|_| u64::try_from(bound).map(Value::from))
            .unwrap_or(Value::Null);
        if !number.is_null() {
            object.insert(keyword.into(), number);
        }
    }
}

fn is_null_schema(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("null")
}

/// Rewrites an optional property's schema so that it no longer admits `null`.
fn drop_null(schema: &mut Value) {
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

/// Standard-only keywords: integer formats become bounds; optional properties lose `null`.
fn normalize(node: &mut Value) {
    match node {
        Value::Object(object) => {
            let format = object
                .get("format")
                .and_then(Value::as_str)
                .map(str::to_string);
            if let Some((min, max)) = format.as_deref().and_then(format_bounds) {
                object.remove("format");
                if let Some(min) = min {
                    tighten(object, "minimum", min, true);
                }
                if let Some(max) = max {
                    tighten(object, "maximum", max, false);
                }
            }
            let required: BTreeSet<String> = object
                .get("required")
                .and_then(Value::as_array)
                .map(|names| {
                    names
                        .iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default();
            if let Some(Value::Object(properties)) = object.get_mut("properties") {
                for (name, property) in properties.iter_mut() {
                    if !required.contains(name) {
                        drop_null(property);
                    }
                }
            }
            for (key, child) in object.iter_mut() {
                if !DATA_KEYWORDS.contains(&key.as_str()) {
                    normalize(child);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(normalize),
        _ => {}
    }
}

/// The portable form of a canonical schema. See the module documentation.
///
/// Only an input schema is closed with `additionalProperties: false` at its root: that is
/// the server's promise to reject unknown arguments. An output schema makes no such promise.
pub fn portable(canonical: &Value, role: SchemaRole) -> Value {
    let mut root = canonical.clone();
    let Some(object) = root.as_object_mut() else {
        return root;
    };
    object.remove("$schema");
    let defs = match object.remove("$defs") {
        Some(Value::Object(defs)) => defs,
        _ => Map::new(),
    };
    let mut recursive = BTreeSet::new();
    inline_refs(&mut root, &defs, &mut Vec::new(), &mut recursive);

    // Definitions that are part of a cycle stay, themselves inlined up to the cycle.
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
        normalize(&mut definition);
        kept.insert(name, definition);
        pending.extend(found.into_iter().filter(|n| !kept.contains_key(n)));
    }

    normalize(&mut root);
    if let Some(object) = root.as_object_mut() {
        if role == SchemaRole::Input && is_object_type(object) {
            object
                .entry("additionalProperties")
                .or_insert(Value::Bool(false));
        }
        if !kept.is_empty() {
            object.insert("$defs".into(), Value::Object(kept));
        }
    }
    root
}

fn is_object_type(object: &Map<String, Value>) -> bool {
    object.get("type").and_then(Value::as_str) == Some("object")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Inner {
        value: u8,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Outer {
        inner: Inner,
        maybe: Option<Inner>,
        count: Option<u32>,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Tree {
        label: String,
        children: Vec<Tree>,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Forest {
        trees: Vec<Tree>,
    }

    fn contains_key(value: &Value, key: &str) -> bool {
        match value {
            Value::Object(object) => {
                object.contains_key(key) || object.values().any(|v| contains_key(v, key))
            }
            Value::Array(items) => items.iter().any(|v| contains_key(v, key)),
            _ => false,
        }
    }

    #[test]
    fn portable_inlines_and_drops_formats_and_nulls() {
        let schema = portable(&input_schema::<Outer>(), SchemaRole::Input);
        assert!(!contains_key(&schema, "$ref"), "{schema:#}");
        assert!(!contains_key(&schema, "$defs"));
        assert!(!contains_key(&schema, "$schema"));
        assert!(!contains_key(&schema, "format"));
        assert_eq!(schema["additionalProperties"], false);
        assert_eq!(schema["properties"]["count"]["type"], "integer");
        assert_eq!(schema["properties"]["count"]["maximum"], u32::MAX);
        assert_eq!(schema["properties"]["maybe"]["type"], "object");
        assert_eq!(
            schema["properties"]["inner"]["properties"]["value"]["maximum"],
            255
        );
        assert_eq!(schema["required"], json!(["inner"]));
    }

    #[test]
    fn portable_keeps_defs_only_for_recursion() {
        let schema = portable(&input_schema::<Forest>(), SchemaRole::Input);
        let defs = schema["$defs"].as_object().expect("recursive defs kept");
        assert_eq!(defs.keys().collect::<Vec<_>>(), ["Tree"]);
        // The first level is still inlined.
        assert_eq!(
            schema["properties"]["trees"]["items"]["properties"]["label"]["type"],
            "string"
        );
    }

    #[test]
    fn non_object_outputs_are_wrapped() {
        let (schema, wrapped) = output_schema::<Vec<String>>();
        assert!(wrapped);
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["required"], json!(["result"]));
        let (_, wrapped) = output_schema::<Outer>();
        assert!(!wrapped);
    }
}
