//! Turning a call's JSON arguments into typed arguments, or into every violation at once.
//!
//! Each path has its folder, tried in this order:
//! 1. **Fast** (`fast/`): what hand-written code would do. serde deserializes the arguments
//!    and `validator` checks the constraints; a valid call pays for nothing else, except,
//!    for a tool with nested objects, a look at their keys (`fast/keys.rs`), which serde
//!    ignores, and at numbers past an `f32` (`fast/narrow.rs`). `fast/mod.rs` also holds
//!    the order of the paths below.
//! 2. **Repair** (`repair/`): when serde fails, values the schema says can be read
//!    otherwise are repaired and serde tries once more.
//! 3. **Slow** (`slow/`): when serde still fails, the canonical schema is walked over the
//!    arguments to find *every* problem with its path (`slow/walk.rs`), since serde stops at
//!    the first; the rules only `validator` knows are run on what did deserialize
//!    (`slow/each.rs`).
//! 4. **Large** (`large/`): an input of many values that deserialized is checked against
//!    its schema, and its long lists' items a part at a time, before `validator` checks it
//!    whole (see [`crate::large`] for what "large" means).
//!
//! Before any of them, `limits/` refuses a message with an array or object over the
//! [`InputLimits`], from its raw bytes. Shared by the paths: `spec.rs` (what validation
//! knows of a tool's input), `reading.rs` (what one typed reading found), `validator.rs`
//! and `wire.rs` (`validator`'s errors as violations, with the paths the model sent),
//! `suggest.rs` (the closest names). `dynamic.rs` is the entry of a tool whose schema is
//! given at run time.

mod dynamic;
mod fast;
mod large;
mod limits;
mod reading;
mod repair;
mod slow;
mod spec;
mod suggest;
mod validator;
mod wire;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::ToolError;
pub(crate) use dynamic::{SchemaProblem, check_schema, parse_value};
use fast::parse_with;
use large::before_validator;
pub(crate) use large::is_large;
pub use limits::InputLimits;
#[cfg(feature = "http")]
pub(crate) use limits::SizeBound;
pub(crate) use limits::{Measure, Oversized, Step};
use reading::{Attempt, nothing_parsed, read_object};
pub use repair::InputMode;
pub use slow::check_argument;
pub(crate) use spec::InputSpec;
pub(crate) use suggest::ranked;

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
    let mut read = |value: &Value| match read_object::<A>(value) {
        Err(error) => Attempt::Unreadable(error),
        Ok(arguments) => {
            if let Some(found) = before_validator(value, spec, large, &mut check_part::<A>) {
                return Attempt::Refused(found);
            }
            let errors = arguments.validate().err();
            parsed = Some(arguments);
            errors.map_or(Attempt::Valid, Attempt::Invalid)
        }
    };
    parse_with(arguments, spec, mode, limits, &mut read)?;
    // `parse_with` is `Ok` only right after a reading that kept its value. A `match` with
    // the error made apart, not `ok_or_else` and a closure, each compiled for every tool.
    match parsed {
        Some(arguments) => Ok(arguments),
        None => Err(nothing_parsed()),
    }
}

/// The `validator` errors of a part of large arguments: `None` when it holds or does not
/// deserialize (the schema's walk says why).
fn check_part<A>(part: &Value) -> Option<::validator::ValidationErrors>
where
    A: DeserializeOwned + ::validator::Validate,
{
    match read_object::<A>(part) {
        Ok(arguments) => arguments.validate().err(),
        Err(_) => None,
    }
}
