//! The rules that only `validator` can check (custom functions, struct-level `schema`
//! functions, nested `Validate` types), run on what did deserialize, so that they are
//! reported beside the type errors of other arguments instead of after the model fixes
//! those: argument by argument for generated arguments, with placeholders for a user's own
//! arguments type.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use validator::{Validate, ValidationErrors};

use super::placeholder;
use crate::error::{Found, Violation, ViolationKind};
use crate::input::reading::{Attempt, Reader, read_object};
use crate::input::spec::InputSpec;
use crate::input::validator::violations;
use crate::input::wire::declared_order;
use crate::schema::SchemaDoc;

/// The `validator` errors of one argument, checked alone: `S` is a one-field struct with
/// the argument's type and rules. `None` when the argument is absent, does not
/// deserialize (the walk reports why), or holds.
pub fn check_argument<S: DeserializeOwned + Validate>(
    arguments: &Value,
    property: &str,
) -> Option<ValidationErrors> {
    let value = arguments.get(property)?;
    let alone = Value::Object(Map::from_iter([(property.to_string(), value.clone())]));
    read_object::<S>(&alone).ok()?.validate().err()
}

/// Adds to the walk's `found` what the per-argument checks find and the walk could not.
pub(super) fn add_checked(found: &mut Found, arguments: &Value, spec: &InputSpec) {
    let Some(check_each) = spec.check_each else {
        return;
    };
    let mut checked = Found::default();
    for errors in check_each(arguments) {
        checked.append(violations(&errors, spec, arguments));
    }
    merge(found, checked, spec);
}

/// For a user's own arguments type, which cannot be checked field by field: adds what the
/// type's rules find once the values that broke deserialization are swapped for
/// placeholders, leaving out whatever the swapped values touch.
pub(super) fn add_validated(
    found: &mut Found,
    arguments: &Value,
    spec: &InputSpec,
    read: &mut Reader<'_>,
) {
    if !spec.whole_input {
        return;
    }
    let breaking: Vec<Violation> = found
        .kept
        .iter()
        .filter(|v| breaks_deserialization(&v.kind))
        .cloned()
        .collect();
    let Some((patched, swapped)) = placeholder::patched(&spec.schema, arguments, &breaking) else {
        return;
    };
    let Attempt::Invalid(errors) = read(&patched) else {
        return;
    };
    // Past the kept violations, those the placeholders caused cannot be told apart; a call
    // with that many problems gets a summary, which may then count a few too many.
    let mut untouched = violations(&errors, spec, &patched);
    untouched.kept.retain(|v| {
        !swapped
            .iter()
            .any(|path| placeholder::overlaps(&v.path, path))
    });
    merge(found, untouched, spec);
}

/// The kinds of problem that can make serde refuse a value; the others (a length, a
/// pattern) leave it readable.
fn breaks_deserialization(kind: &ViolationKind) -> bool {
    !matches!(
        kind,
        ViolationKind::Length { .. }
            | ViolationKind::Pattern { .. }
            | ViolationKind::Format { .. }
            | ViolationKind::NotUnique
            | ViolationKind::Custom { .. }
    )
}

/// Adds the violations of `more` not yet in `found` (same path and problem), then orders
/// the kept ones as declared.
pub(crate) fn merge(found: &mut Found, more: Found, spec: &InputSpec) {
    let before = found.total();
    found.add_new(more);
    if found.total() > before {
        let doc = SchemaDoc::new(&spec.schema);
        found
            .kept
            .sort_by_cached_key(|violation| declared_order(&doc, &violation.path));
    }
}
