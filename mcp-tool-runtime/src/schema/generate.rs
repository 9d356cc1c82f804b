//! The canonical schemas of a tool's arguments and results, as schemars writes them.

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, SchemaGenerator};
use serde_json::{Map, Value, json};

use crate::render::WRAPPED_RESULT_KEY;

/// The schema generator every tool uses: JSON Schema 2020-12.
fn generator() -> SchemaGenerator {
    SchemaSettings::draft2020_12().into_generator()
}

/// The canonical input schema of an arguments type. The root `title` (the name of a
/// generated struct) is dropped: it says nothing to a model.
pub(crate) fn input_schema<T: JsonSchema>() -> Value {
    without_title(generator().into_root_schema_for::<T>())
}

/// Apart from [`input_schema`] so that its code is compiled once, not once per tool (P6).
fn without_title(schema: schemars::Schema) -> Value {
    let mut schema = schema.to_value();
    if let Some(root) = schema.as_object_mut() {
        root.remove("title");
    }
    schema
}

/// True when a schema has `type: "object"` at its root, as MCP requires of input and output
/// schemas.
pub(crate) fn is_object_schema(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("object")
}

/// The canonical output schema of a result type, and whether results must be wrapped as
/// `{"result": value}` because the type's own schema is not an object.
///
/// Results are serialized, so the schema follows serde's serialize contract: a field that
/// is always written is required, a skipped `None` is not.
///
/// An enum whose every variant is written as an object (internally or adjacently tagged,
/// or with struct variants only) is an object too: it is not wrapped, and its schema gets
/// the root `type: "object"` that MCP asks of an output schema.
pub(crate) fn output_schema<T: JsonSchema>() -> (Value, bool) {
    let schema = SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value();
    if is_object_schema(&schema) {
        return (schema, false);
    }
    let schema = match schema {
        Value::Object(root) if every_branch_is_an_object(&root) => {
            return (typed_object(root), false);
        }
        other => other,
    };
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

/// True when a schema without a `type` is a union (`oneOf`/`anyOf`) of object schemas only,
/// `$ref`s to its own `$defs` resolved.
fn every_branch_is_an_object(root: &Map<String, Value>) -> bool {
    let Some(branches) = ["oneOf", "anyOf"]
        .into_iter()
        .find_map(|keyword| root.get(keyword)?.as_array())
    else {
        return false;
    };
    !root.contains_key("type")
        && !branches.is_empty()
        && branches
            .iter()
            .all(|branch| is_object_schema(resolved(root, branch)))
}

/// A branch, or the definition its local `$ref` names.
fn resolved<'s>(root: &'s Map<String, Value>, branch: &'s Value) -> &'s Value {
    branch
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|reference| reference.strip_prefix("#/$defs/"))
        .and_then(|name| root.get("$defs")?.get(name))
        .unwrap_or(branch)
}

/// `root` with `type: "object"` first after any `$schema`, where a reader looks for it.
fn typed_object(root: Map<String, Value>) -> Value {
    let mut typed = Map::new();
    let (dialect, rest): (Vec<_>, Vec<_>) = root.into_iter().partition(|(key, _)| key == "$schema");
    typed.extend(dialect);
    typed.insert("type".into(), json!("object"));
    typed.extend(rest);
    Value::Object(typed)
}
