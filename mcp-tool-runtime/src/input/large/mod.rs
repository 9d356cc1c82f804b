//! The large-input path: an input of more than [`LARGE_INPUT_VALUES`] values (see
//! [`crate::large`]) that
//! deserialized is checked against its schema, and its long lists' items a part at a time
//! ([`parts`]), before `validator` checks it whole.

mod parts;

use serde_json::Value;

use super::slow::walk;
use super::spec::InputSpec;
use crate::error::Found;
use crate::large::LARGE_INPUT_VALUES;
use parts::Check;

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

/// The problems of a large input that deserialized, if any, found before `validator`
/// checks it whole: `validator` keeps the errors of every failing item of a list (about
/// 1.6 KB each, 98 MB for 60,000 bad lines of an order) until it has checked the list,
/// while these records are bounded (`Found`). First the schema's rules, by a walk; then,
/// for a tool with rules the schema cannot state, the items of its long lists a part at a
/// time ([`parts`]). The rules only the whole can be checked against (a custom rule of a
/// list) are then reported once these are fixed.
// In line in each call (`Arguments::checked` says why).
#[inline]
pub(crate) fn before_validator(
    value: &Value,
    spec: &InputSpec,
    large: bool,
    check: &mut Check<'_>,
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
