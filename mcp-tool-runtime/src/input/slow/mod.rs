//! The slow path: when serde refuses the arguments even after the repair, the canonical
//! schema is walked over them to find *every* problem with its path ([`walk`]), since
//! serde stops at the first; the rules only `validator` knows are run on what did
//! deserialize ([`each`]).

mod each;
mod formats;
mod placeholder;
pub(crate) mod walk;

use serde_json::Value;

use super::large::is_large;
use super::reading::Reader;
use super::spec::InputSpec;
use crate::error::{ArgPath, Found, ToolError, Violation, ViolationKind};
pub use each::check_argument;
pub(crate) use each::merge;

/// Adds to what the walk `found` in `value` the problems only `validator` sees, unless the
/// input is large (see [`before_validator`]): then the walk's problems are the answer.
pub(crate) fn add_validator_findings(
    found: &mut Found,
    value: &Value,
    spec: &InputSpec,
    read: &mut Reader<'_>,
) {
    if is_large(value) {
        return;
    }
    each::add_checked(found, value, spec);
    each::add_validated(found, value, spec, read);
}

/// Every problem the schema finds, or serde's own words when it finds none (the type's
/// deserializer is stricter than its schema says; its words describe types, never server
/// internals); and beside them what the arguments that did deserialize break.
pub(crate) fn slow_path(
    value: &Value,
    spec: &InputSpec,
    serde_error: Option<serde_json::Error>,
    read: &mut Reader<'_>,
) -> ToolError {
    let mut violations = walk::violations(&spec.schema, value);
    if violations.is_empty() {
        let reason = serde_error.map(|error| error.to_string());
        violations.push(Violation::new(
            ArgPath::root(),
            ViolationKind::Invalid { reason },
            None,
        ));
    }
    add_validator_findings(&mut violations, value, spec, read);
    ToolError::invalid_arguments_found(&spec.tool, violations)
}
