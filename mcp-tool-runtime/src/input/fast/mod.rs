//! The fast path, and the order of the others: serde and `validator` alone, as
//! hand-written code would do; on serde's refusal, the repair retry ([`repair`](super::repair)),
//! then the slow path ([`slow`](super::slow)). A valid call pays only for a look at its
//! nested objects' keys ([`keys`]), which serde ignores, and at numbers past an `f32`
//! ([`narrow`]).

mod keys;
mod narrow;

use serde_json::{Map, Value};

use super::limits::InputLimits;
use super::reading::{Attempt, Reader};
use super::repair::{self, InputMode};
use super::slow::{self, add_validator_findings, slow_path, walk};
use super::spec::InputSpec;
use super::validator;
use crate::error::{ArgPath, ToolError, Violation, ViolationKind};

/// [`parse`] with the typed reading behind `read`: `Ok` when its last reading was valid.
pub(crate) fn parse_with(
    arguments: Option<&Value>,
    spec: &InputSpec,
    mode: InputMode,
    limits: &InputLimits,
    read: &mut Reader<'_>,
) -> Result<(), ToolError> {
    let value = match arguments {
        None | Some(Value::Null) => return parse_absent(&Value::Object(Map::new()), spec, read),
        Some(object @ Value::Object(_)) => object,
        Some(other) => {
            let violation = Violation::about(ArgPath::root(), ViolationKind::NotAnObject, other);
            return Err(ToolError::invalid_arguments(&spec.tool, vec![violation]));
        }
    };
    if let Some(error) = unknown_keys(value, spec, read) {
        return Err(error);
    }
    match read(value) {
        Attempt::Unreadable(error) => match repair::repair(value, &spec.schema, mode, limits) {
            Some(repaired) => match read(&repaired) {
                // Reported on the repaired value: what was repaired is not a problem.
                Attempt::Unreadable(error) => Err(slow_path(&repaired, spec, Some(error), read)),
                _ if let Some(error) = unknown_keys(&repaired, spec, read) => Err(error),
                attempt => validated(attempt, spec, &repaired, read),
            },
            None => Err(slow_path(value, spec, Some(error), read)),
        },
        attempt => validated(attempt, spec, value, read),
    }
}

/// Every problem of arguments that hold a key no closed object names, which serde may
/// have ignored; `None` when there is none (or the walk, which says which, finds none).
fn unknown_keys(value: &Value, spec: &InputSpec, read: &mut Reader<'_>) -> Option<ToolError> {
    if !spec.checks_unknown_keys || !keys::has_unknown_key(&spec.schema, value) {
        return None;
    }
    let mut violations = walk::violations(&spec.schema, value);
    if violations.is_empty() {
        return None;
    }
    add_validator_findings(&mut violations, value, spec, read);
    Some(ToolError::invalid_arguments_found(&spec.tool, violations))
}

/// A call that sent no arguments: fine for a tool whose arguments are all optional;
/// otherwise one headline names what it must send.
fn parse_absent(empty: &Value, spec: &InputSpec, read: &mut Reader<'_>) -> Result<(), ToolError> {
    let error = match read(empty) {
        Attempt::Unreadable(error) => slow_path(empty, spec, Some(error), read),
        attempt => return validated(attempt, spec, empty, read),
    };
    let required: Vec<String> = error
        .violations()
        .iter()
        .filter(|v| matches!(v.kind, ViolationKind::Missing { .. }) && v.path.segments().len() == 1)
        .filter_map(|v| v.path.top_level())
        .map(str::to_string)
        .collect();
    if required.is_empty() {
        return Err(error);
    }
    Err(ToolError::arguments_absent(
        &spec.tool,
        required,
        error.violations().to_vec(),
    ))
}

/// The outcome of a reading of `sent`: `Ok` when its `validator` rules held and no number
/// was narrowed out of its range, every problem otherwise.
fn validated(
    attempt: Attempt,
    spec: &InputSpec,
    sent: &Value,
    read: &mut Reader<'_>,
) -> Result<(), ToolError> {
    let found = match attempt {
        Attempt::Valid => None,
        Attempt::Invalid(errors) => Some(validator::violations(&errors, spec, sent)),
        Attempt::Refused(found) => Some(found),
        Attempt::Unreadable(error) => return Err(slow_path(sent, spec, Some(error), read)),
    };
    let overflows = narrow::f32_overflows(spec, sent);
    // The path of every valid call: nothing to gather.
    if found.is_none() && overflows.is_empty() {
        return Ok(());
    }
    let mut violations = found.unwrap_or_default();
    if !overflows.is_empty() {
        slow::merge(&mut violations, overflows.into_iter().collect(), spec);
    }
    if violations.is_empty() {
        return Ok(());
    }
    Err(ToolError::invalid_arguments_found(&spec.tool, violations))
}
