//! Turning a call's JSON arguments into typed arguments, or into every violation at once.
//!
//! Three paths, tried in order:
//! 1. **Fast:** what hand-written code would do. serde deserializes the arguments and
//!    `validator` checks the constraints; a valid call pays for nothing else, except, for
//!    a tool with nested objects, a look at their keys (see [`keys`]), which serde ignores.
//! 2. **Repair:** when serde fails, values the schema says can be read otherwise are
//!    repaired (see [`repair`]) and serde tries once more.
//! 3. **Slow:** when serde still fails, the canonical schema is walked over the arguments
//!    to find *every* problem with its path (see [`walk`]), since serde stops at the first;
//!    the rules only `validator` knows are run on what did deserialize (see [`each`]).
//!
//! Paths name what the model sent: `validator`'s Rust field names are mapped (see [`wire`]).

mod dynamic;
mod each;
mod formats;
mod keys;
mod limits;
mod narrow;
mod parts;
mod placeholder;
mod repair;
mod spec;
mod suggest;
mod validator;
mod walk;
mod wire;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::error::{ArgPath, Found, ToolError, Violation, ViolationKind};
pub(crate) use dynamic::{SchemaProblem, check_schema, parse_value};
pub use each::check_argument;
pub use limits::InputLimits;
pub(crate) use limits::{Measure, Oversized, Step};
pub use repair::InputMode;
pub(crate) use spec::InputSpec;
pub(crate) use suggest::ranked;

/// How many JSON values make an input large: a few milliseconds of checking when it is bad.
const LARGE_INPUT_VALUES: usize = 10_000;

/// Whether `arguments` holds more than `LARGE_INPUT_VALUES` values; stops counting there, so
/// a small input costs a few nanoseconds.
pub(crate) fn is_large(arguments: &Value) -> bool {
    let mut budget = LARGE_INPUT_VALUES;
    exceeds(arguments, &mut budget)
}

/// Counts `value`'s values down from `budget`; true once it runs out (which bounds the
/// recursion too).
fn exceeds(value: &Value, budget: &mut usize) -> bool {
    let Some(left) = budget.checked_sub(1) else {
        return true;
    };
    *budget = left;
    match value {
        Value::Array(items) => items.iter().any(|item| exceeds(item, budget)),
        Value::Object(members) => members.values().any(|member| exceeds(member, budget)),
        _ => false,
    }
}

/// What one typed reading of the arguments found.
pub(super) enum Attempt {
    /// They deserialized and hold every `validator` rule.
    Valid,
    /// They deserialized, and these rules failed.
    Invalid(::validator::ValidationErrors),
    /// They deserialized, but a large input broke rules its schema states, or its long
    /// lists' items broke theirs ([`before_validator`]), so `validator` did not check it whole.
    Refused(Found),
    /// serde refused them.
    Unreadable(serde_json::Error),
}

/// Adds to what the walk `found` in `value` the problems only `validator` sees, unless the
/// input is large (see [`before_validator`]): then the walk's problems are the answer.
fn add_validator_findings(
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

/// The problems of a large input that deserialized, if any, found before `validator`
/// checks it whole: `validator` keeps the errors of every failing item of a list (about
/// 1.6 KB each, 98 MB for 60,000 bad lines of an order) until it has checked the list,
/// while these records are bounded (`Found`). First the schema's rules, by a walk; then,
/// for a tool with rules the schema cannot state, the items of its long lists a part at a
/// time ([`parts`]). The rules only the whole can be checked against (a custom rule of a
/// list) are then reported once these are fixed.
fn before_validator(
    value: &Value,
    spec: &InputSpec,
    large: bool,
    check: &mut parts::Check<'_>,
) -> Option<Found> {
    if !large {
        return None;
    }
    let mut found = walk::violations(&spec.schema, value);
    if found.is_empty() && (spec.whole_input || spec.check_each.is_some()) {
        found = parts::item_problems(value, spec, check);
    }
    (!found.is_empty()).then_some(found)
}

/// Reads the arguments type from a value: the only part of parsing instantiated per tool,
/// so that a crate with many tools compiles the rest once, in this crate.
pub(super) type Reader<'r> = dyn FnMut(&Value) -> Attempt + 'r;

/// Parses and validates the arguments of one call to the tool `spec` describes.
///
/// `arguments` is what the client sent: `None` when it sent no `arguments` member; `large`
/// says whether they are large ([`is_large`], which the caller knows already).
pub(crate) fn parse<A>(
    arguments: Option<&Value>,
    spec: &InputSpec,
    mode: InputMode,
    limits: &InputLimits,
    large: bool,
) -> Result<A, ToolError>
where
    A: DeserializeOwned + ::validator::Validate,
{
    let mut parsed = None;
    let mut read = |value: &Value| match A::deserialize(value) {
        Err(error) => Attempt::Unreadable(error),
        Ok(arguments) => {
            let mut check = |part: &Value| A::deserialize(part).ok()?.validate().err();
            if let Some(found) = before_validator(value, spec, large, &mut check) {
                return Attempt::Refused(found);
            }
            let errors = arguments.validate().err();
            parsed = Some(arguments);
            errors.map_or(Attempt::Valid, Attempt::Invalid)
        }
    };
    parse_with(arguments, spec, mode, limits, &mut read)?;
    // `parse_with` is `Ok` only right after a reading that kept its value.
    parsed.ok_or_else(|| ToolError::internal(NothingParsed))
}

/// A successful parse that kept no value: a bug of this crate, masked like any other.
#[derive(Debug)]
struct NothingParsed;

impl std::fmt::Display for NothingParsed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the arguments parsed, but no value was kept")
    }
}

impl std::error::Error for NothingParsed {}

/// [`parse`] with the typed reading behind `read`: `Ok` when its last reading was valid.
fn parse_with(
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
        each::merge(&mut violations, overflows.into_iter().collect(), spec);
    }
    if violations.is_empty() {
        return Ok(());
    }
    Err(ToolError::invalid_arguments_found(&spec.tool, violations))
}

/// Every problem the schema finds, or serde's own words when it finds none (the type's
/// deserializer is stricter than its schema says; its words describe types, never server
/// internals); and beside them what the arguments that did deserialize break.
fn slow_path(
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
