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
//!
//! Portable also spells two things the Inspector 2.x `--strict` lint and single-type clients
//! flag: an any-value schema (`serde_json::Value`, a bare `true`) becomes an `anyOf` of every
//! single type, and a `type` array becomes an `anyOf` of single types.
//!
//! # The strict profile (OpenAI strict mode)
//! - every object has `additionalProperties: false` and lists every property in `required`;
//!   an optional property is made nullable (`type: ["T","null"]`, or `anyOf` with `null`),
//!   and the runtime treats `null` for it as absent;
//! - only [`STRICT_KEYWORDS`] stay (`oneOf` becomes `anyOf`, `allOf` is merged); other
//!   constraints (`maxLength`, `uniqueItems`, `default`, …) are left out of the schema but
//!   still enforced at run time;
//! - a map has no closed-object spelling, so it is published as a list of
//!   `{"key": …, "value": …}` pairs, which the runtime turns back into the map; a tuple is
//!   an array of a fixed length whose items are the union of its element types; a
//!   `serde_json::Value` is any scalar (strict mode has no open object);
//! - recursive types keep `$defs`/`$ref`, as strict mode supports them;
//! - tool names must match `^[a-zA-Z0-9_-]{1,64}$`: a server with a tool published under
//!   this profile whose name does not fit refuses to build
//!   ([`RegistryError::NameNotAccepted`](crate::registry::RegistryError::NameNotAccepted)),
//!   because OpenAI rejects the whole request, not one tool.
//!
//! # The gemini profile (OpenAPI 3.0 subset of function declarations)
//! - no `additionalProperties`, `$schema`, `$defs` or `$ref`; only [`GEMINI_KEYWORDS`];
//!   `const` becomes `enum`, a `null` branch becomes `nullable: true`, exclusive bounds
//!   become inclusive ones (exact for integers);
//! - no `anyOf` inside `items`: a union there is collapsed into one schema (the union of
//!   string enums, or one object with every branch's properties, or the common type), so
//!   the schema is looser than the type and the runtime does the exact check;
//! - recursive types are unrolled [`GEMINI_RECURSION_DEPTH`] levels; below that the schema
//!   only says "an object";
//! - names must start with a letter or `_` and have at most 64 characters, checked like
//!   strict's.
//!
//! # The full profile
//! schemars's 2020-12 output unchanged, with `$schema`, `$defs` and its integer formats.
//!
//! # Output schemas
//! Output schemas follow the serialize contract. The portable and full profiles shape them
//! like input schemas (without closing the root). OpenAI and Gemini never show an output
//! schema to the model; the MCP client validates `structuredContent` with a JSON Schema
//! validator, so servers under strict and gemini publish output schemas in the portable
//! form.
//!
//! # Integers
//! Integer formats become the bounds the Rust type takes, including `i64`/`u64` (and
//! `i128`/`u128`, which serde_json can only fill from an `i64` or `u64`), so that a value
//! the schema accepts is one the runtime accepts.

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
    /// OpenAI strict mode: every object closed, every property required (optional ones
    /// nullable), only the keywords strict mode supports. See the module documentation.
    Strict,
    /// The OpenAPI 3.0 subset of Gemini function declarations: no `additionalProperties`,
    /// `$schema`, `$defs`/`$ref`, or `anyOf` inside `items`. See the module documentation.
    Gemini,
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
    pub const ALL: [SchemaProfile; 4] = [Self::Portable, Self::Strict, Self::Gemini, Self::Full];

    /// The profile's name: `portable`, `full`, …
    pub fn name(self) -> &'static str {
        match self {
            Self::Portable => "portable",
            Self::Strict => "strict",
            Self::Gemini => "gemini",
            Self::Full => "full",
        }
    }

    /// Why `name` cannot be a tool name under this profile, if it cannot: OpenAI accepts
    /// `^[a-zA-Z0-9_-]{1,64}$`, Gemini a letter or underscore first and 64 characters at most.
    ///
    /// ```
    /// use mcp_tool_runtime::SchemaProfile;
    /// assert!(SchemaProfile::Strict.name_problem("cart.add").is_some());
    /// assert!(SchemaProfile::Portable.name_problem("cart.add").is_none());
    /// ```
    pub fn name_problem(self, name: &str) -> Option<&'static str> {
        let length = name.chars().count();
        match self {
            Self::Strict => {
                let fits = (1..=64).contains(&length)
                    && name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
                (!fits).then_some("OpenAI strict mode takes 1 to 64 of `a-z A-Z 0-9 _ -`")
            }
            Self::Gemini => {
                let first_ok = name
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
                let rest_ok = name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
                (!(first_ok && rest_ok && length <= 64)).then_some(
                    "Gemini takes a letter or `_` first, then `a-z A-Z 0-9 _ - .`, 64 characters at most",
                )
            }
            Self::Portable | Self::Full => None,
        }
    }

    /// The published form of a canonical schema under this profile.
    pub fn publish(self, canonical: &Value, role: SchemaRole) -> Value {
        match (self, role) {
            (Self::Portable, _) => portable(canonical, role),
            (Self::Full, _) => canonical.clone(),
            (Self::Strict, SchemaRole::Input) => strict(canonical),
            (Self::Gemini, SchemaRole::Input) => gemini(canonical),
            // Neither OpenAI nor Gemini shows an output schema to the model; the MCP client
            // validates `structuredContent` with a JSON Schema validator, for which the
            // portable form is the right one.
            (Self::Strict | Self::Gemini, SchemaRole::Output) => portable(canonical, role),
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
///
/// Results are serialized, so the schema follows serde's serialize contract: a field that
/// is always written is required, a skipped `None` is not.
pub fn output_schema<T: JsonSchema>() -> (Value, bool) {
    let schema = SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value();
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

/// The name of the definition a node's local `$ref` points at.
fn ref_name(object: &Map<String, Value>) -> Option<&str> {
    object
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(def_name)
}

/// Calls `visit` on every value directly below `node` that may hold a schema: the members
/// of an object other than data keywords, the items of a list (`anyOf` and the like).
fn visit_schema_children(node: &mut Value, visit: &mut dyn FnMut(&mut Value)) {
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

/// Bounds implied by schemars's integer formats.
fn format_bounds(format: &str) -> Option<(Option<i128>, Option<i128>)> {
    Some(match format {
        "int8" => (Some(i8::MIN.into()), Some(i8::MAX.into())),
        "int16" => (Some(i16::MIN.into()), Some(i16::MAX.into())),
        "int32" => (Some(i32::MIN.into()), Some(i32::MAX.into())),
        "uint8" => (Some(0), Some(u8::MAX.into())),
        "uint16" => (Some(0), Some(u16::MAX.into())),
        "uint32" => (Some(0), Some(u32::MAX.into())),
        // What serde_json can hold: a JSON number the runtime takes for an `i128` or `u128`
        // is still an `i64` or a `u64`, so the schema says so.
        "uint64" | "uint" | "uint128" => (Some(0), Some(u64::MAX.into())),
        "int64" | "int" => (Some(i64::MIN.into()), Some(i64::MAX.into())),
        "int128" => (Some(i64::MIN.into()), Some(u64::MAX.into())),
        "float" | "double" => (None, None),
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
    if let Value::Object(object) = node {
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

/// Inlines every `$ref` that is not part of a cycle. Returns the root and the definitions
/// that must stay because they are recursive, each itself inlined up to its cycle.
fn inline_document(canonical: &Value) -> (Value, Map<String, Value>) {
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

/// The portable form of a canonical schema. See the module documentation.
///
/// Only an input schema is closed with `additionalProperties: false` at its root: that is
/// the server's promise to reject unknown arguments. An output schema makes no such promise.
pub fn portable(canonical: &Value, role: SchemaRole) -> Value {
    let (mut root, mut kept) = inline_document(canonical);
    if !root.is_object() {
        return root;
    }
    for definition in kept.values_mut() {
        normalize(definition);
        spell_portably(definition);
    }
    normalize(&mut root);
    spell_portably(&mut root);
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
fn accepts_anything(schema: &Value) -> bool {
    match schema {
        Value::Bool(accepts) => *accepts,
        Value::Object(object) => object.keys().all(|k| ANNOTATIONS.contains(&k.as_str())),
        _ => false,
    }
}

/// The annotations of an any-value schema, kept when it is spelled out.
fn annotations_of(schema: &Value) -> Map<String, Value> {
    schema.as_object().cloned().unwrap_or_default()
}

fn single_types(types: &[&str]) -> Vec<Value> {
    types.iter().map(|t| json!({ "type": t })).collect()
}

/// Calls `visit` on every sub-schema directly below a schema object.
fn for_each_subschema(object: &mut Map<String, Value>, visit: &mut dyn FnMut(&mut Value)) {
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
                .filter(|v| json_type_name(v) == *name || (*name == "number" && v.is_number()))
                .cloned()
                .collect();
            branch.insert("enum".into(), Value::Array(mine));
        }
    }
    branches.into_iter().map(Value::Object).collect()
}

/// The JSON Schema type name of a value, telling integers from other numbers.
pub(crate) fn json_type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Entry lookup in schema objects and in arguments. Both hold a handful of entries, and
/// comparing a few names costs less than hashing the wanted one with SipHash, as
/// `Map::get` does (under `preserve_order`); large maps still hash.
pub(crate) trait Lookup {
    /// The entry named `name`, if this is an object that has it.
    fn lookup(&self, name: &str) -> Option<&Value>;
}

/// Up to this many entries, a scan beats hashing.
const SCAN_LIMIT: usize = 12;

impl Lookup for Map<String, Value> {
    #[inline]
    fn lookup(&self, name: &str) -> Option<&Value> {
        if self.len() <= SCAN_LIMIT {
            self.iter()
                .find_map(|(key, value)| (key == name).then_some(value))
        } else {
            self.get(name)
        }
    }
}

impl Lookup for Value {
    #[inline]
    fn lookup(&self, name: &str) -> Option<&Value> {
        self.as_object()?.lookup(name)
    }
}

/// The names in a schema's `required` member (pass `schema.get("required")`).
pub(crate) fn required_names(required: Option<&Value>) -> Vec<&str> {
    required
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Whether `name` is in a schema's `required` member (pass `schema.get("required")`).
pub(crate) fn is_required(required: Option<&Value>, name: &str) -> bool {
    required
        .and_then(Value::as_array)
        .is_some_and(|names| names.iter().any(|n| n.as_str() == Some(name)))
}

/// [`required_names`], owned: for the rewrites that change the schema while they read them.
fn owned_required_names(schema: &Map<String, Value>) -> BTreeSet<String> {
    required_names(schema.get("required"))
        .into_iter()
        .map(str::to_string)
        .collect()
}

/// The keywords OpenAI strict mode supports; everything else is left out of a strict schema.
pub const STRICT_KEYWORDS: &[&str] = &[
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
pub const STRICT_FORMATS: &[&str] = &[
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

/// The keywords of Gemini's OpenAPI 3.0 schema subset.
pub const GEMINI_KEYWORDS: &[&str] = &[
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
pub const GEMINI_RECURSION_DEPTH: usize = 3;

/// Merges `allOf` branches that are all objects into the node (a flattened struct).
fn merge_all_of(object: &mut Map<String, Value>) {
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
fn collapse_tuple(object: &mut Map<String, Value>) {
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
pub const MAP_PAIR_KEY: &str = "key";
/// The property that holds a map entry's value in the strict profile's key/value pairs.
pub const MAP_PAIR_VALUE: &str = "value";

fn is_map(object: &Map<String, Value>) -> bool {
    let open = matches!(
        object.get("additionalProperties"),
        Some(Value::Object(_) | Value::Bool(true))
    );
    let no_properties = object
        .get("properties")
        .and_then(Value::as_object)
        .is_none_or(Map::is_empty);
    open && no_properties && object.get("type").and_then(Value::as_str) == Some("object")
}

/// The strict (OpenAI) form of a canonical schema. See the module documentation.
pub fn strict(canonical: &Value) -> Value {
    let (mut root, mut kept) = inline_document(canonical);
    for definition in kept.values_mut() {
        normalize(definition);
        strict_node(definition);
    }
    normalize(&mut root);
    strict_node(&mut root);
    if let Some(object) = root.as_object_mut()
        && !kept.is_empty()
    {
        object.insert("$defs".into(), Value::Object(kept));
    }
    root
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

/// The Gemini (OpenAPI 3.0 subset) form of a canonical schema. See the module documentation.
pub fn gemini(canonical: &Value) -> Value {
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

fn substitute_refs(node: &mut Value, defs: &Map<String, Value>) {
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
fn stub_refs(node: &mut Value, defs: &Map<String, Value>) {
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
    // `nullable: true` is OpenAPI's spelling of a `null` branch.
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
    if let Some(Value::Array(types)) = object.get("type").cloned() {
        object.remove("type");
        let names: Vec<&str> = types.iter().filter_map(Value::as_str).collect();
        let branches = single_types(&names);
        object.insert("anyOf".into(), Value::Array(branches));
    }
    let integer = object.get("type").and_then(Value::as_str) == Some("integer");
    for (exclusive, inclusive, step) in [
        ("exclusiveMinimum", "minimum", 1),
        ("exclusiveMaximum", "maximum", -1),
    ] {
        if let Some(bound) = object.remove(exclusive) {
            // Exact for integers; for other numbers the runtime keeps the bound exclusive.
            let bound = match bound.as_i64() {
                Some(n) if integer => json!(n + step),
                _ => bound,
            };
            object.insert(inclusive.into(), bound);
        }
    }
    let keep_format = object.get("format").and_then(Value::as_str) == Some("date-time");
    if !keep_format {
        object.remove("format");
    }
    object.retain(|key, _| GEMINI_KEYWORDS.contains(&key.as_str()));
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
