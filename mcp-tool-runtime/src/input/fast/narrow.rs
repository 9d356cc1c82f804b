//! Numbers serde reads without complaint into something else: a JSON number past `f32`'s
//! range becomes infinity in an `f32`. The fast path looks for them only in the input of a
//! tool that has an `f32` somewhere, and only walks the schema when such a number is there.

use serde_json::Value;

use crate::error::{Violation, ViolationKind};
use crate::input::slow::walk;
use crate::input::spec::InputSpec;

/// The range violations of numbers in `sent` that an `f32` of the input cannot hold. Empty,
/// without a walk, unless the tool has an `f32` and `sent` holds a number past its range.
pub(super) fn f32_overflows(spec: &InputSpec, sent: &Value) -> Vec<Violation> {
    if !spec.has_f32 || !holds_number_past_f32(sent) {
        return Vec::new();
    }
    walk::violations(&spec.schema, sent)
        .kept
        .into_iter()
        .filter(|violation| matches!(violation.kind, ViolationKind::Range(_)))
        .filter(|violation| violation.received.as_ref().is_some_and(is_past_f32))
        .collect()
}

fn holds_number_past_f32(value: &Value) -> bool {
    match value {
        Value::Array(items) => items.iter().any(holds_number_past_f32),
        Value::Object(object) => object.values().any(holds_number_past_f32),
        other => is_past_f32(other),
    }
}

/// A number larger in magnitude than `f32::MAX`. Every JSON integer serde_json keeps as an
/// integer is below it; larger ones it reads as floats.
fn is_past_f32(value: &Value) -> bool {
    value
        .as_number()
        .filter(|number| number.is_f64())
        .and_then(serde_json::Number::as_f64)
        .is_some_and(|float| float.abs() > f64::from(f32::MAX))
}
