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

mod each;
mod formats;
mod keys;
mod placeholder;
mod repair;
mod spec;
mod suggest;
mod validator;
mod walk;
mod wire;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::error::{ArgPath, ToolError, Violation, ViolationKind};
pub use each::check_argument;
pub use repair::InputMode;
pub(crate) use spec::InputSpec;
pub(crate) use suggest::ranked;

/// Parses and validates the arguments of one call to the tool `spec` describes.
///
/// `arguments` is what the client sent: `None` when it sent no `arguments` member.
pub(crate) fn parse<A>(
    arguments: Option<&Value>,
    spec: &InputSpec,
    mode: InputMode,
) -> Result<A, ToolError>
where
    A: DeserializeOwned + ::validator::Validate,
{
    let value = match arguments {
        None | Some(Value::Null) => return parse_absent(&Value::Object(Map::new()), spec),
        Some(object @ Value::Object(_)) => object,
        Some(other) => {
            let violation = Violation::new(
                ArgPath::root(),
                ViolationKind::NotAnObject,
                Some(other.clone()),
            );
            return Err(ToolError::invalid_arguments(spec.tool, vec![violation]));
        }
    };
    if let Some(error) = unknown_keys::<A>(value, spec) {
        return Err(error);
    }
    match A::deserialize(value) {
        Ok(arguments) => validated(arguments, spec, value),
        Err(error) => match repair::repair(value, &spec.schema, mode) {
            Some(repaired) => match A::deserialize(&repaired) {
                Ok(_) if let Some(error) = unknown_keys::<A>(&repaired, spec) => Err(error),
                Ok(arguments) => validated(arguments, spec, &repaired),
                // Reported on the repaired value: what was repaired is not a problem.
                Err(error) => Err(slow_path::<A>(&repaired, spec, Some(error))),
            },
            None => Err(slow_path::<A>(value, spec, Some(error))),
        },
    }
}

/// Every problem of arguments that hold a key no closed object names, which serde may
/// have ignored; `None` when there is none (or the walk, which says which, finds none).
fn unknown_keys<A>(value: &Value, spec: &InputSpec) -> Option<ToolError>
where
    A: DeserializeOwned + ::validator::Validate,
{
    if !spec.checks_unknown_keys || !keys::has_unknown_key(&spec.schema, value) {
        return None;
    }
    let mut violations = walk::violations(&spec.schema, value);
    if violations.is_empty() {
        return None;
    }
    each::add_checked(&mut violations, value, spec);
    each::add_validated::<A>(&mut violations, value, spec);
    Some(ToolError::invalid_arguments(spec.tool, violations))
}

/// A call that sent no arguments: fine for a tool whose arguments are all optional;
/// otherwise one headline names what it must send.
fn parse_absent<A>(empty: &Value, spec: &InputSpec) -> Result<A, ToolError>
where
    A: DeserializeOwned + ::validator::Validate,
{
    let error = match A::deserialize(empty) {
        Ok(arguments) => return validated(arguments, spec, empty),
        Err(error) => slow_path::<A>(empty, spec, Some(error)),
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
        spec.tool,
        required,
        error.violations().to_vec(),
    ))
}

/// The arguments, once their `validator` constraints hold; `sent` is what they were read
/// from.
fn validated<A: ::validator::Validate>(
    arguments: A,
    spec: &InputSpec,
    sent: &Value,
) -> Result<A, ToolError> {
    match arguments.validate() {
        Ok(()) => Ok(arguments),
        Err(errors) => Err(ToolError::invalid_arguments(
            spec.tool,
            validator::violations(&errors, spec, sent),
        )),
    }
}

/// Every problem the schema finds, or serde's own words when it finds none (the type's
/// deserializer is stricter than its schema says; its words describe types, never server
/// internals); and beside them what the arguments that did deserialize break.
fn slow_path<A>(
    value: &Value,
    spec: &InputSpec,
    serde_error: Option<serde_json::Error>,
) -> ToolError
where
    A: DeserializeOwned + ::validator::Validate,
{
    let mut violations = walk::violations(&spec.schema, value);
    if violations.is_empty() {
        let reason = serde_error.map(|error| error.to_string());
        violations.push(Violation::new(
            ArgPath::root(),
            ViolationKind::Invalid { reason },
            None,
        ));
    }
    each::add_checked(&mut violations, value, spec);
    each::add_validated::<A>(&mut violations, value, spec);
    ToolError::invalid_arguments(spec.tool, violations)
}
