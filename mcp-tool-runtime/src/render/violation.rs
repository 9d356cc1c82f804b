//! The sentence of one argument problem, and its entry in the envelope.

use std::fmt;

use serde_json::Value;

use super::phrases::{
    MAX_ENVELOPE_RECEIVED_CHARS, PathWords, envelope_received, expected_phrase, format_name,
    length_bounds, one_of, pattern_phrase, quoted_list, range_bounds, received, unit_words,
};
use crate::error::{ArgPath, LengthUnit, Violation, ViolationEntry, ViolationKind};

/// The envelope's `expected` for an unknown argument.
const UNKNOWN_EXPECTED: &str = "no such argument";

/// The sentence the model reads, e.g.
/// `Argument 'quantity' expected an integer, but received 'five'.`
impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&sentence(self))
    }
}

/// "Argument 'items[2].quantity'", or "The arguments" for the arguments object itself.
fn subject(path: &ArgPath) -> String {
    if path.is_root() {
        "The arguments".into()
    } else {
        format!("Argument '{}'", PathWords::in_sentence(path))
    }
}

/// The verb for [`subject`]: "The arguments are", "Argument 'x' is".
fn is_or_are(path: &ArgPath) -> &'static str {
    if path.is_root() { "are" } else { "is" }
}

/// "The arguments have", "Argument 'x' has".
fn has_or_have(path: &ArgPath) -> &'static str {
    if path.is_root() { "have" } else { "has" }
}

/// ", but received 'five'", or nothing when no value arrived.
fn but_received(value: Option<&Value>) -> String {
    value.map_or_else(String::new, |value| {
        format!(", but received {}", received(value))
    })
}

fn sentence(violation: &Violation) -> String {
    let path = &violation.path;
    let who = subject(path);
    let got = but_received(violation.received.as_ref());
    match &violation.kind {
        ViolationKind::TypeMismatch { expected } => {
            format!("{who} expected {}{got}.", expected_phrase(expected))
        }
        ViolationKind::Missing { expected } => format!(
            "Missing required argument '{path}': expected {}.",
            expected_phrase(expected)
        ),
        ViolationKind::Unknown { suggestion, valid } => unknown(path, suggestion, valid),
        ViolationKind::Range(range) => format!("{who} must be {}{got}.", range_bounds(range)),
        ViolationKind::Length {
            min,
            max,
            unit,
            actual,
        } => {
            let size = format!("{actual} {}", unit_words(*unit, *actual));
            let detail = match &violation.received {
                Some(text @ Value::String(_)) => format!("{} ({size})", received(text)),
                _ => size,
            };
            let bounds = length_bounds(*min, *max, *unit);
            format!("{who} must {bounds}, but received {detail}.")
        }
        ViolationKind::Pattern { pattern, example } => format!(
            "{who} must {}{got}.",
            pattern_phrase(pattern, example.as_ref())
        ),
        ViolationKind::Format { format } => format!("{who} must be {}{got}.", format_name(format)),
        ViolationKind::Enum {
            allowed,
            suggestion,
        } => {
            let mut text = format!("{who} must be one of {}{got}.", quoted_list(allowed));
            if let Some(suggestion) = suggestion {
                text.push_str(&format!(" Did you mean {}?", received(suggestion)));
            }
            text
        }
        ViolationKind::NotUnique => format!("{who} must not contain duplicate items{got}."),
        ViolationKind::TooLarge {
            unit,
            actual,
            limit,
        } => {
            let (words, container) = (unit_words(*unit, *actual), container(*unit));
            format!(
                "{who} {} {actual} {words}, more than the {limit} this server accepts in one {container}. Send at most {limit} {}, or split the work over several calls.",
                has_or_have(path),
                unit_words(*unit, *limit)
            )
        }
        ViolationKind::NotAnObject => {
            format!("The arguments must be a JSON object of named arguments{got}.")
        }
        ViolationKind::TooManyValues { limit } => {
            let verb = if path.is_root() { "take" } else { "takes" };
            format!(
                "{who} {verb} the call past {limit} values in all, the most this server accepts in one call. Send fewer values, or split the work over several calls."
            )
        }
        ViolationKind::Custom { code, message } => {
            let why = message
                .clone()
                .unwrap_or_else(|| format!("failed the '{code}' check"));
            // The author's own sentence keeps its words but not its full stop, so that the
            // received value follows it as one sentence.
            let why = why.trim_end().trim_end_matches('.');
            format!("{who} {} invalid: {why}{got}.", is_or_are(path))
        }
        ViolationKind::ExtraItem
        | ViolationKind::TooDeep { .. }
        | ViolationKind::Invalid { .. } => {
            let reason = invalid_reason(&violation.kind);
            format!("{who} {} invalid: {reason}.", is_or_are(path))
        }
    }
}

/// Why a value is invalid, for the kinds that have no phrase of their own.
fn invalid_reason(kind: &ViolationKind) -> String {
    match kind {
        ViolationKind::ExtraItem => "the array has more items than allowed".into(),
        ViolationKind::TooDeep { limit } => format!("it is nested deeper than {limit} levels"),
        ViolationKind::Invalid {
            reason: Some(reason),
        } => reason.clone(),
        _ => "the arguments do not match the schema".into(),
    }
}

/// The kind of value whose size `unit` counts.
fn container(unit: LengthUnit) -> &'static str {
    match unit {
        LengthUnit::Items => "array",
        LengthUnit::Properties => "object",
        LengthUnit::Characters => "string",
    }
}

fn unknown(path: &ArgPath, suggestion: &Option<String>, valid: &[String]) -> String {
    let mut text = format!("Unknown argument '{}'.", PathWords::in_sentence(path));
    if let Some(suggestion) = suggestion {
        text.push_str(&format!(" Did you mean '{suggestion}'?"));
    }
    if valid.is_empty() {
        text.push_str(" This tool takes no arguments.");
    } else {
        text.push_str(&format!(" Valid arguments here: {}.", valid.join(", ")));
    }
    text
}

/// What a violation expected, as a phrase for the envelope's `expected` field.
fn expected_for_envelope(kind: &ViolationKind) -> Option<String> {
    Some(match kind {
        ViolationKind::TypeMismatch { expected } | ViolationKind::Missing { expected } => {
            expected_phrase(expected)
        }
        ViolationKind::Unknown { .. } => UNKNOWN_EXPECTED.into(),
        ViolationKind::Range(range) => format!("a number {}", range_bounds(range)),
        ViolationKind::Length { min, max, unit, .. } => {
            format!("a value that must {}", length_bounds(*min, *max, *unit))
        }
        ViolationKind::Pattern { pattern, example } => format!(
            "a string that must {}",
            pattern_phrase(pattern, example.as_ref())
        ),
        ViolationKind::Format { format } => format_name(format),
        ViolationKind::Enum { allowed, .. } => one_of(allowed),
        ViolationKind::NotUnique => "an array without duplicate items".into(),
        ViolationKind::TooLarge { unit, limit, .. } => {
            format!("at most {limit} {}", unit_words(*unit, *limit))
        }
        ViolationKind::TooManyValues { limit } => {
            format!("at most {limit} values in the whole call")
        }
        ViolationKind::NotAnObject => "an object of named arguments".into(),
        ViolationKind::Custom { .. }
        | ViolationKind::Invalid { .. }
        | ViolationKind::ExtraItem
        | ViolationKind::TooDeep { .. } => return None,
    })
}

/// The violation's entry in the error envelope.
pub(crate) fn entry(violation: &Violation) -> ViolationEntry {
    let (allowed, suggestion) = match &violation.kind {
        ViolationKind::Enum {
            allowed,
            suggestion,
        } => (Some(allowed.clone()), suggestion.clone()),
        // The valid names are in the text's sentence, and in the schema.
        ViolationKind::Unknown { suggestion, .. } => (None, suggestion.clone().map(Value::String)),
        _ => (None, None),
    };
    ViolationEntry {
        path: PathWords::within(&violation.path, MAX_ENVELOPE_RECEIVED_CHARS).to_string(),
        problem: violation.kind.problem(),
        expected: expected_for_envelope(&violation.kind),
        received: violation.received.as_ref().map(envelope_received),
        allowed,
        suggestion,
        message: sentence(violation),
    }
}
