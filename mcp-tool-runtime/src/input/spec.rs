//! What validation needs to know about a tool's input.

use serde_json::Value;

/// A tool's input as validation sees it: the canonical schema, the top-level argument
/// names, and whether the runtime itself must reject unknown keys.
#[derive(Debug)]
pub(crate) struct InputSpec {
    /// The tool, for the headline of an invalid-arguments error.
    pub(crate) tool: &'static str,
    /// The canonical input schema.
    pub(crate) schema: Value,
    /// The top-level argument names, in declaration order.
    pub(crate) argument_names: Vec<String>,
    /// The arguments are a user's own type, which may accept keys its schema does not name.
    pub(crate) checks_unknown_keys: bool,
}

impl InputSpec {
    /// The spec of `tool`'s input with the canonical `schema`.
    pub(crate) fn new(tool: &'static str, schema: Value) -> Self {
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
        }
    }

    /// Whether `arguments` holds a top-level key that is not an argument.
    pub(crate) fn has_unknown_key(&self, arguments: &Value) -> bool {
        arguments.as_object().is_some_and(|object| {
            object
                .keys()
                .any(|key| !self.argument_names.iter().any(|known| known == key))
        })
    }

    /// The position of a top-level argument in declaration order.
    pub(crate) fn position(&self, name: &str) -> Option<usize> {
        self.argument_names.iter().position(|known| known == name)
    }
}
