//! The input of a tool built at run time: a JSON Schema instead of a Rust type. The schema
//! walk is the only reader, so the schema may use only the keywords the walk checks; the
//! arguments go through the same repair and produce the same violations as a typed tool's.

use serde::de::Error as _;
use serde_json::{Map, Value};

use super::fast::parse_with;
use super::limits::InputLimits;
use super::reading::{Attempt, nothing_parsed};
use super::repair::InputMode;
use super::slow::walk;
use super::spec::InputSpec;
use crate::error::ToolError;
use crate::schema::is_object_schema;

/// Assertion keywords the walk does not check. A schema using one is refused: the client
/// would read a rule that the server does not enforce.
const UNCHECKED: &[&str] = &[
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "patternProperties",
    "propertyNames",
    "contains",
    "minContains",
    "maxContains",
    "unevaluatedProperties",
    "unevaluatedItems",
    "multipleOf",
    "$dynamicRef",
    "$recursiveRef",
];

/// Keywords the walk ignores beside `anyOf`/`oneOf`: it checks the value against the
/// branches alone, so a rule written beside them must go into every branch.
const BESIDE_UNION: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minProperties",
    "maxProperties",
];

/// What is wrong with a run-time tool's input schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SchemaProblem {
    /// The root does not say `"type": "object"`.
    NotAnObject,
    /// A keyword the walk does not check, at a JSON pointer (`#/properties/a/not`).
    Unsupported { keyword: String, at: String },
    /// An assertion beside `anyOf`/`oneOf` (`union`) in the schema at `at`.
    BesideUnion {
        keyword: String,
        union: &'static str,
        at: String,
    },
    /// A `$ref` to something other than `#` or one of the root's `$defs`.
    Unresolved { reference: String, at: String },
}

/// Whether the walk can check everything `schema` says.
pub(crate) fn check_schema(schema: &Value) -> Result<(), SchemaProblem> {
    if !is_object_schema(schema) {
        return Err(SchemaProblem::NotAnObject);
    }
    let defs = schema.get("$defs").and_then(Value::as_object);
    visit(schema, "#", defs)
}

fn visit(schema: &Value, at: &str, defs: Option<&Map<String, Value>>) -> Result<(), SchemaProblem> {
    let Value::Object(keywords) = schema else {
        return Ok(());
    };
    let unsupported = |keyword: &str| SchemaProblem::Unsupported {
        keyword: keyword.to_string(),
        at: format!("{at}/{keyword}"),
    };
    if let Some(keyword) = UNCHECKED.iter().find(|k| keywords.contains_key(**k)) {
        return Err(unsupported(keyword));
    }
    let union = ["anyOf", "oneOf"]
        .into_iter()
        .find(|k| keywords.contains_key(*k));
    if let Some(union) = union
        && let Some(keyword) = BESIDE_UNION.iter().find(|k| keywords.contains_key(**k))
    {
        return Err(SchemaProblem::BesideUnion {
            keyword: keyword.to_string(),
            union,
            at: at.to_string(),
        });
    }
    if let Some(reference) = keywords.get("$ref") {
        let local = reference.as_str().is_some_and(|reference| {
            reference == "#"
                || reference
                    .strip_prefix("#/$defs/")
                    .is_some_and(|name| defs.is_some_and(|defs| defs.contains_key(name)))
        });
        if !local {
            return Err(SchemaProblem::Unresolved {
                reference: reference
                    .as_str()
                    .map_or_else(|| reference.to_string(), str::to_string),
                at: format!("{at}/$ref"),
            });
        }
    }
    if keywords.get("items").is_some_and(Value::is_array) {
        return Err(unsupported("items"));
    }
    for keyword in ["items", "additionalProperties"] {
        if let Some(child) = keywords.get(keyword) {
            visit(child, &format!("{at}/{keyword}"), defs)?;
        }
    }
    for keyword in ["properties", "$defs"] {
        for (name, child) in keywords
            .get(keyword)
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            visit(child, &format!("{at}/{keyword}/{name}"), defs)?;
        }
    }
    for keyword in ["prefixItems", "allOf", "anyOf", "oneOf"] {
        let branches = keywords.get(keyword).and_then(Value::as_array);
        for (index, child) in branches.into_iter().flatten().enumerate() {
            visit(child, &format!("{at}/{keyword}/{index}"), defs)?;
        }
    }
    Ok(())
}

/// The arguments of one call to a run-time tool, checked against its schema (repaired as a
/// typed tool's would be), or every violation.
pub(crate) fn parse_value(
    arguments: Option<&Value>,
    spec: &InputSpec,
    mode: InputMode,
    limits: &InputLimits,
) -> Result<Value, ToolError> {
    let mut kept = None;
    let mut read = |value: &Value| {
        if walk::violations(&spec.schema, value).is_empty() {
            kept = Some(value.clone());
            Attempt::Valid
        } else {
            // Never shown: the slow path walks again and reports what it finds.
            Attempt::Unreadable(serde_json::Error::custom("does not match the input schema"))
        }
    };
    parse_with(arguments, spec, mode, limits, &mut read)?;
    kept.ok_or_else(nothing_parsed)
}
