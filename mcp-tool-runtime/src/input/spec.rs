//! What validation needs to know about a tool's input.

use std::borrow::Cow;

use serde_json::Value;

use super::each::CheckEach;
use super::narrow::has_f32;
use crate::schema::close_nested_objects;

/// A tool's input as validation sees it: the canonical schema, the top-level argument
/// names, and whether the runtime itself must reject unknown keys.
#[derive(Debug)]
pub(crate) struct InputSpec {
    /// The tool, for the headline of an invalid-arguments error.
    pub(crate) tool: Cow<'static, str>,
    /// The canonical input schema.
    pub(crate) schema: Value,
    /// The top-level argument names, in declaration order.
    pub(crate) argument_names: Vec<String>,
    /// Some object of the input may accept keys its schema does not name (a nested struct,
    /// or a user's own arguments type): the runtime checks keys itself.
    pub(crate) checks_unknown_keys: bool,
    /// Top-level arguments whose property is not their Rust name (`#[serde(rename)]`), as
    /// `(field, property)`, for paths that `validator` writes in Rust names.
    pub(crate) renames: Vec<(&'static str, &'static str)>,
    /// Checks the arguments with rules only `validator` knows, one by one (see [`CheckEach`]).
    pub(crate) check_each: Option<CheckEach>,
    /// The arguments are a user's own type (`#[arg(input)]`), checked as a whole.
    pub(crate) whole_input: bool,
    /// Some number of the input is an `f32`, which serde fills with infinity from a number
    /// past its range (see [`narrow`](super::narrow)).
    pub(crate) has_f32: bool,
}

impl InputSpec {
    /// The spec of `tool`'s input with the canonical `schema`, whose nested objects are
    /// closed here (see [`close_nested_objects`]).
    pub(crate) fn new(tool: Cow<'static, str>, mut schema: Value) -> Self {
        let checks_unknown_keys = close_nested_objects(&mut schema);
        let has_f32 = has_f32(&schema);
        Self {
            checks_unknown_keys,
            has_f32,
            ..Self::exact(tool, schema)
        }
    }

    /// The spec of a run-time tool's input, `schema` exactly as its author wrote it: the
    /// schema walk is its only reader, and it rejects what the schema closes by itself.
    pub(crate) fn exact(tool: Cow<'static, str>, schema: Value) -> Self {
        let argument_names = schema
            .get("properties")
            .and_then(Value::as_object)
            .map(|properties| properties.keys().cloned().collect())
            .unwrap_or_default();
        Self {
            tool,
            schema,
            argument_names,
            checks_unknown_keys: false,
            renames: Vec::new(),
            check_each: None,
            whole_input: false,
            has_f32: false,
        }
    }

    /// The property of the top-level argument whose Rust name is `field`, if it was renamed.
    pub(crate) fn renamed(&self, field: &str) -> Option<&'static str> {
        self.renames
            .iter()
            .find(|(rust, _)| *rust == field)
            .map(|(_, property)| *property)
    }
}
