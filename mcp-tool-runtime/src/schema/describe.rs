//! What a schema accepts, as a typed [`Expected`]: for a missing argument, and for each
//! argument of the "Valid call" line.

use serde_json::{Map, Number, Value};

use super::doc::{SchemaDoc, constants_of, declared_types, required_names};
use super::rewrite::format_range;
use crate::error::{Expected, JsonType, NumberRange};
use crate::render::SignatureEntry;

/// What `schema` (in `doc`) accepts.
pub(crate) fn describe(doc: &SchemaDoc<'_>, schema: &Value) -> Expected {
    let schema = doc.non_null(schema);
    if let Some(allowed) = fixed_values(doc, schema) {
        return Expected::OneOf(allowed);
    }
    let types = types_of(schema);
    if types.is_empty() {
        return Expected::Types(union_types(doc, branches(schema)));
    }
    let non_null: Vec<JsonType> = types
        .iter()
        .copied()
        .filter(|t| *t != JsonType::Null)
        .collect();
    if non_null == [JsonType::Array]
        && let Some(items) = schema.get("items")
    {
        let items = doc.non_null(items);
        let mut item_types = types_of(items);
        if item_types.is_empty() {
            item_types = union_types(doc, branches(items));
        }
        return Expected::ArrayOf(item_types);
    }
    let Some(keywords) = schema.as_object() else {
        return Expected::Types(types);
    };
    if non_null == [JsonType::Object]
        && let Some(properties) = keywords.get("properties").and_then(Value::as_object)
        && !properties.is_empty()
    {
        let required = required_names(schema);
        let fields = properties
            .keys()
            .map(|name| (name.clone(), required.contains(&name.as_str())))
            .collect();
        return Expected::ObjectWith(fields);
    }
    if let Some(range) = described_range(keywords) {
        return Expected::InRange(types, range);
    }
    if let Some(pattern) = keywords.get("pattern").and_then(Value::as_str) {
        return Expected::Matching(types, pattern.to_string());
    }
    let (min, max) = (
        keywords.get("minLength").and_then(Value::as_u64),
        keywords.get("maxLength").and_then(Value::as_u64),
    );
    if min.is_some() || max.is_some() {
        return Expected::OfLength(types, min, max);
    }
    Expected::Types(types)
}

/// The values a schema allows when it, or every branch of its union, is a fixed set.
fn fixed_values(doc: &SchemaDoc<'_>, schema: &Value) -> Option<Vec<Value>> {
    constants_of(schema).or_else(|| {
        let branches = schema.get("oneOf").or(schema.get("anyOf"))?.as_array()?;
        branches.iter().try_fold(Vec::new(), |mut all, branch| {
            all.extend(constants_of(doc.resolve(branch))?);
            Some(all)
        })
    })
}

/// The branches of a schema's `oneOf` and `anyOf`.
fn branches(schema: &Value) -> impl Iterator<Item = &Value> {
    ["oneOf", "anyOf"]
        .into_iter()
        .filter_map(|keyword| schema.get(keyword)?.as_array())
        .flatten()
}

/// The types a schema declares, or those of its fixed values.
fn types_of(schema: &Value) -> Vec<JsonType> {
    if schema.get("type").is_some() {
        return declared_types(schema);
    }
    constants_of(schema)
        .map(|values| values.iter().map(JsonType::of).collect())
        .unwrap_or_default()
}

/// The types of every branch of a union, in order.
pub(crate) fn union_types<'s>(
    doc: &SchemaDoc<'s>,
    branches: impl IntoIterator<Item = &'s Value>,
) -> Vec<JsonType> {
    branches
        .into_iter()
        .flat_map(|branch| types_of(doc.resolve(branch)))
        .collect()
}

/// The bounds a number schema sets, its number format's included, if it sets any.
pub(crate) fn number_range(keywords: &Map<String, Value>) -> Option<NumberRange> {
    let format = keywords.get("format").and_then(Value::as_str).unwrap_or("");
    let (format_min, format_max) = format_range(format);
    let min = tighter_bound(keywords, "minimum", "exclusiveMinimum", format_min, true);
    let max = tighter_bound(keywords, "maximum", "exclusiveMaximum", format_max, false);
    range_of(min, max)
}

/// The bounds worth saying in words: those the schema states, and the lower bound 0 of an
/// unsigned integer. The other bounds a number format implies only restate the Rust type's
/// width (`between 0 and 18446744073709551615`): noise to a model.
fn described_range(keywords: &Map<String, Value>) -> Option<NumberRange> {
    let format = keywords.get("format").and_then(Value::as_str).unwrap_or("");
    let unsigned = format_range(format)
        .0
        .is_some_and(|min| min.as_u64() == Some(0));
    let min = stated_bound(keywords, "minimum", "exclusiveMinimum")
        .or_else(|| unsigned.then(|| (Number::from(0), false)));
    let max = stated_bound(keywords, "maximum", "exclusiveMaximum");
    range_of(min, max)
}

/// A range of two bounds, each with whether it is exclusive; `None` when neither is set.
fn range_of(min: Option<(Number, bool)>, max: Option<(Number, bool)>) -> Option<NumberRange> {
    if min.is_none() && max.is_none() {
        return None;
    }
    Some(NumberRange {
        exclusive_min: min.as_ref().is_some_and(|(_, exclusive)| *exclusive),
        exclusive_max: max.as_ref().is_some_and(|(_, exclusive)| *exclusive),
        min: min.map(|(bound, _)| bound),
        max: max.map(|(bound, _)| bound),
    })
}

/// The bound a schema states (the exclusive keyword first), with whether it is exclusive.
fn stated_bound(
    keywords: &Map<String, Value>,
    inclusive: &str,
    exclusive: &str,
) -> Option<(Number, bool)> {
    let bound = |keyword: &str| keywords.get(keyword).and_then(as_number);
    bound(exclusive)
        .map(|n| (n, true))
        .or_else(|| bound(inclusive).map(|n| (n, false)))
}

/// The tighter of the bound a schema states and the one its number format implies, with
/// whether it is exclusive.
fn tighter_bound(
    keywords: &Map<String, Value>,
    inclusive: &str,
    exclusive: &str,
    implied: Option<Number>,
    lower: bool,
) -> Option<(Number, bool)> {
    let stated = stated_bound(keywords, inclusive, exclusive);
    let implied = implied.map(|n| (n, false));
    match (stated, implied) {
        (Some(stated), Some(implied)) => {
            let stated_value = stated.0.as_f64().unwrap_or(0.0);
            let implied_value = implied.0.as_f64().unwrap_or(0.0);
            Some(if (stated_value >= implied_value) == lower {
                stated
            } else {
                implied
            })
        }
        (stated, implied) => stated.or(implied),
    }
}

fn as_number(value: &Value) -> Option<Number> {
    match value {
        Value::Number(number) => Some(number.clone()),
        _ => None,
    }
}

/// Each top-level argument of an input schema with what it accepts, for the "Valid call"
/// line.
pub(crate) fn signature(schema: &Value) -> Vec<SignatureEntry<'_>> {
    let doc = SchemaDoc::new(schema);
    let root = doc.root();
    let required = required_names(root);
    let Some(properties) = root.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    properties
        .iter()
        .map(|(name, property)| SignatureEntry {
            name,
            expected: describe(&doc, property),
            required: required.contains(&name.as_str()),
            // An optional argument's `null` default says nothing a model can use.
            default: property.get("default").filter(|default| !default.is_null()),
        })
        .collect()
}
