//! Repairs of arguments that serde rejected, guided by the tool's canonical schema. Only
//! called when serde has failed, so a valid call pays nothing.
//!
//! Two kinds of repair:
//! - **Agreement** (always on): values the published schemas accept must be accepted. `5.0`
//!   is an integer in JSON Schema; `null` for an optional property means "absent" (the strict
//!   profile publishes optional properties as nullable); a list of `{key, value}` pairs is a
//!   map (the strict profile publishes maps that way).
//! - **Leniency** ([`InputMode::Lenient`], the default): what language models send. A JSON
//!   string holding an array or object given for an array or object; a numeric string for a
//!   number (`"5"` → 5); `"true"`/`"false"` for a boolean. Nothing else: `"five"` is still
//!   reported as not an integer. Where the schema also accepts a string, a string is kept.

use serde_json::{Map, Number, Value};

use super::limits::InputLimits;
use super::slow::walk;
use crate::error::JsonType;
use crate::schema::{
    MAP_PAIR_KEY, MAP_PAIR_VALUE, SchemaDoc, declared_types, is_map, required_names,
};

/// How forgiving argument parsing is. Set per server
/// ([`ServerBuilder::input_mode`](crate::ServerBuilder::input_mode)).
///
/// This is about the values a call sends, not the `strict` schema profile. Repairs run only
/// after serde has rejected the arguments, so a valid call pays nothing.
///
/// Two kinds of repair:
/// - **Agreement** (always on): values the published schemas accept must be accepted. `5.0`
///   is an integer in JSON Schema; `null` for an optional property means "absent" (the strict
///   profile publishes optional properties as nullable); a list of `{key, value}` pairs is a
///   map (the strict profile publishes maps that way).
/// - **Leniency** ([`InputMode::Lenient`], the default): what language models send. A JSON
///   string holding an array or object given for an array or object; a numeric string for a
///   number (`"5"` → 5); `"true"`/`"false"` for a boolean. Nothing else: `"five"` is still
///   reported as not an integer. Where the schema also accepts a string, a string is kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum InputMode {
    /// Accept JSON text for arrays and objects, numeric strings for numbers and
    /// `"true"`/`"false"` for booleans (the default).
    #[default]
    Lenient,
    /// Accept exactly what the schema says, nothing coerced.
    Strict,
}

/// Deepest nesting a repair follows.
const MAX_DEPTH: usize = 64;

/// The repaired arguments, or `None` when nothing could be repaired.
pub(crate) fn repair(
    value: &Value,
    schema: &Value,
    mode: InputMode,
    limits: &InputLimits,
) -> Option<Value> {
    let lenient = mode == InputMode::Lenient;
    // Most failed calls hold no value of a kind any repair changes ("five" for an integer):
    // a look at the values alone spares them the walk over the schema.
    if !may_need_repair(value, lenient) {
        return None;
    }
    let repairer = Repairer {
        doc: SchemaDoc::new(schema),
        lenient,
        limits,
    };
    repairer.node(schema, value, 0)
}

/// False when no repair can change anything in `value`, whatever the schema says: there is
/// no `null`, no non-integer number, no array, and no string [`lenient_parse`] would read.
fn may_need_repair(value: &Value, lenient: bool) -> bool {
    match value {
        Value::Null | Value::Array(_) => true,
        Value::Number(number) => !(number.is_i64() || number.is_u64()),
        Value::String(text) => lenient && may_be_parsed(text.trim()),
        Value::Bool(_) => false,
        Value::Object(object) => object.values().any(|v| may_need_repair(v, lenient)),
    }
}

/// Whether a (trimmed) string is one [`lenient_parse`] may read as something else: JSON text
/// of an array or object, a boolean, or a number (which starts with a digit or '-').
fn may_be_parsed(trimmed: &str) -> bool {
    trimmed.starts_with(['[', '{', '-'])
        || trimmed.starts_with(|c: char| c.is_ascii_digit())
        || trimmed == "true"
        || trimmed == "false"
}

struct Repairer<'s> {
    doc: SchemaDoc<'s>,
    lenient: bool,
    limits: &'s InputLimits,
}

/// An integral float (`5.0`) as an integer.
fn integral(number: &Number) -> Option<Number> {
    if number.is_i64() || number.is_u64() {
        return None;
    }
    let float = number.as_f64()?;
    if float.fract() != 0.0 {
        return None;
    }
    // Within i64/u64 the conversion is exact; beyond, serde cannot take it anyway.
    if float >= -(2f64.powi(63)) && float < 2f64.powi(63) {
        Some(Number::from(float as i64))
    } else if float >= 0.0 && float < 2f64.powi(64) {
        Some(Number::from(float as u64))
    } else {
        None
    }
}

impl<'s> Repairer<'s> {
    /// The repaired copy of `value`, or `None` when nothing needs repair. Only what changes
    /// is copied: most failed calls have nothing to repair, and copying the arguments up
    /// front would cost them all.
    fn node(&self, schema: &'s Value, value: &Value, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH || value.is_null() {
            return None;
        }
        let schema = match value {
            Value::Object(object) => self.tagged_branch(schema, object),
            _ => self.doc.non_null(schema),
        };
        let types = declared_types(schema);
        if let Value::Number(number) = value
            && types.contains(&JsonType::Integer)
            && !types.contains(&JsonType::Number)
            && let Some(whole) = integral(number)
        {
            return Some(Value::Number(whole));
        }
        let mut replaced = None;
        if self.lenient
            && let Value::String(text) = value
            && !types.is_empty()
            && !types.contains(&JsonType::String)
        {
            replaced = lenient_parse(text, &types, self.limits);
        }
        if let Value::Array(items) = replaced.as_ref().unwrap_or(value)
            && schema.as_object().is_some_and(is_map)
            && let Some(map) = pairs_to_map(items)
        {
            replaced = Some(Value::Object(map));
        }
        let inner = match replaced.as_ref().unwrap_or(value) {
            Value::Object(object) => self.object(schema, object, depth).map(Value::Object),
            Value::Array(items) => self.array(schema, items, depth).map(Value::Array),
            _ => None,
        };
        inner.or(replaced)
    }

    /// `schema`, or, for an internally or adjacently tagged enum, the branch `object`'s tag
    /// names (the walk's choice), so that its values are repaired as that branch says (`5.0`
    /// in `{"type": "Number", "data": 5.0}`). A schema with properties of its own is left
    /// whole.
    fn tagged_branch(&self, schema: &'s Value, object: &Map<String, Value>) -> &'s Value {
        let schema = self.doc.non_null(schema);
        if schema.get("properties").is_some() {
            return schema;
        }
        ["oneOf", "anyOf"]
            .into_iter()
            .filter_map(|keyword| schema.get(keyword)?.as_array())
            .find_map(|branches| walk::tagged_branch(&self.doc, branches, object))
            .unwrap_or(schema)
    }

    fn object(
        &self,
        schema: &'s Value,
        object: &Map<String, Value>,
        depth: usize,
    ) -> Option<Map<String, Value>> {
        let mut repaired: Option<Map<String, Value>> = None;
        let properties = schema.get("properties").and_then(Value::as_object);
        let required = required_names(schema);
        if let Some(properties) = properties {
            for (name, property) in properties {
                let Some(child) = object.get(name) else {
                    continue;
                };
                if child.is_null() && !required.contains(&name.as_str()) {
                    repaired.get_or_insert_with(|| object.clone()).remove(name);
                } else if let Some(child) = self.node(property, child, depth + 1) {
                    repaired
                        .get_or_insert_with(|| object.clone())
                        .insert(name.clone(), child);
                }
            }
        }
        if let Some(extra @ Value::Object(_)) = schema.get("additionalProperties") {
            for (key, child) in object {
                if properties.is_none_or(|p| p.get(key).is_none())
                    && let Some(child) = self.node(extra, child, depth + 1)
                {
                    repaired
                        .get_or_insert_with(|| object.clone())
                        .insert(key.clone(), child);
                }
            }
        }
        repaired
    }

    fn array(&self, schema: &'s Value, items: &[Value], depth: usize) -> Option<Vec<Value>> {
        let prefix = schema.get("prefixItems").and_then(Value::as_array);
        let rest = schema.get("items").filter(|s| s.is_object());
        let mut repaired: Option<Vec<Value>> = None;
        for (index, item) in items.iter().enumerate() {
            if let Some(item_schema) = prefix.and_then(|p| p.get(index)).or(rest)
                && let Some(item) = self.node(item_schema, item, depth + 1)
            {
                repaired.get_or_insert_with(|| items.to_vec())[index] = item;
            }
        }
        repaired
    }
}

/// The value a model meant by a string, if the schema's types say what it must be. JSON
/// text over the `limits` is left a string: the limits were checked on the message, where
/// this text was one value, and parsing it would build what they exist to prevent (3 MB
/// of `[0,0,…]` is a 100 MiB tree).
fn lenient_parse(text: &str, types: &[JsonType], limits: &InputLimits) -> Option<Value> {
    let trimmed = text.trim();
    if !may_be_parsed(trimmed) {
        return None;
    }
    let wants = |name: &str| JsonType::from_name(name).is_some_and(|t| types.contains(&t));
    if (wants("array") || wants("object")) && (trimmed.starts_with('[') || trimmed.starts_with('{'))
    {
        if limits.check_bytes(trimmed.as_bytes()).is_some() {
            return None;
        }
        let parsed: Value = serde_json::from_str(trimmed).ok()?;
        let fits = (parsed.is_array() && wants("array")) || (parsed.is_object() && wants("object"));
        return fits.then_some(parsed);
    }
    if wants("boolean") {
        match trimmed {
            "true" => return Some(Value::Bool(true)),
            "false" => return Some(Value::Bool(false)),
            _ => {}
        }
    }
    if wants("integer") || wants("number") {
        let number: Number = serde_json::from_str(trimmed).ok()?;
        if wants("integer") && !wants("number") {
            return match integral(&number) {
                Some(whole) => Some(Value::Number(whole)),
                None if number.is_i64() || number.is_u64() => Some(Value::Number(number)),
                None => None,
            };
        }
        return Some(Value::Number(number));
    }
    None
}

/// `[{"key": k, "value": v}, …]` as `{k: v, …}`, if the list is exactly that.
fn pairs_to_map(items: &[Value]) -> Option<Map<String, Value>> {
    let mut map = Map::new();
    for item in items {
        let pair = item.as_object()?;
        if pair.len() != 2 {
            return None;
        }
        let key = pair.get(MAP_PAIR_KEY)?.as_str()?;
        let value = pair.get(MAP_PAIR_VALUE)?;
        map.insert(key.to_string(), value.clone());
    }
    Some(map)
}
