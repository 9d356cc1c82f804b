//! The small phrases sentences are made of: a received value, a type, a range, a length.

use std::borrow::Cow;
use std::fmt;

use serde_json::Value;

use crate::error::{
    ArgPath, Expected, JsonType, LengthUnit, NumberRange, PathSegment, StringFormat,
};

/// Longest rendering of a received value, in characters, before it is cut with `…`.
pub(crate) const MAX_RECEIVED_CHARS: usize = 80;

/// Largest received value, as compact JSON, that the envelope echoes as it is.
pub(crate) const MAX_ENVELOPE_RECEIVED_CHARS: usize = 1024;

// A violation keeps more of a value than is echoed, so that a value it cut is never echoed.
const _: () = assert!(MAX_ENVELOPE_RECEIVED_CHARS < crate::error::KEPT_RECEIVED_CHARS);

/// Longest rendering of an argument's path in a sentence, in characters. Its keys are the
/// model's own text: an unknown argument's name can be megabytes long.
pub(crate) const MAX_PATH_CHARS: usize = 120;

/// A path as the model reads it: as written (`items[2].quantity`), or cut at `max_chars`
/// characters with `…`.
pub(crate) struct PathWords<'p> {
    path: &'p ArgPath,
    max_chars: usize,
}

impl<'p> PathWords<'p> {
    /// `path` as a sentence names it, within [`MAX_PATH_CHARS`].
    pub(crate) fn in_sentence(path: &'p ArgPath) -> Self {
        Self::within(path, MAX_PATH_CHARS)
    }

    /// `path` within `max_chars` characters.
    pub(crate) fn within(path: &'p ArgPath, max_chars: usize) -> Self {
        Self { path, max_chars }
    }
}

impl fmt::Display for PathWords<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // An upper bound of the written length, in bytes (a quoted key escapes a control
        // character as six): most paths are far within it and are written without a copy.
        let most: usize = self
            .path
            .segments()
            .iter()
            .map(|segment| match segment {
                PathSegment::Key(key) => 6 * key.len() + 4,
                PathSegment::Index(_) => 22,
            })
            .sum();
        if most <= self.max_chars {
            return write!(f, "{}", self.path);
        }
        f.write_str(&truncated(&self.path.to_string(), self.max_chars))
    }
}

/// A name the client sent (a tool's, a method's) as a sentence quotes it: cut at
/// [`MAX_PATH_CHARS`] characters, so that a megabyte-long name gets a short answer.
pub(crate) fn echoed_name(name: &str) -> Cow<'_, str> {
    echoed(name, MAX_PATH_CHARS)
}

/// A name the client sent as the data of an answer carries it, for a program to match:
/// whole, unless it is longer than [`MAX_ENVELOPE_RECEIVED_CHARS`].
pub(crate) fn echoed_datum(name: &str) -> Cow<'_, str> {
    echoed(name, MAX_ENVELOPE_RECEIVED_CHARS)
}

fn echoed(name: &str, max_chars: usize) -> Cow<'_, str> {
    // A name of at most `max_chars` bytes has at most as many characters.
    if name.len() <= max_chars {
        Cow::Borrowed(name)
    } else {
        Cow::Owned(truncated(name, max_chars))
    }
}

/// `text`, cut to `max_chars` characters with an ellipsis.
pub(crate) fn truncated(text: &str, max_chars: usize) -> String {
    let mut out = String::with_capacity(text.len().min(4 * max_chars) + 3);
    push_truncated(&mut out, text, max_chars);
    out
}

/// Appends `text`, cut to `max_chars` characters with an ellipsis.
fn push_truncated(out: &mut String, text: &str, max_chars: usize) {
    match text.char_indices().nth(max_chars.saturating_sub(1)) {
        Some((cut, _)) if text[cut..].chars().nth(1).is_some() => {
            out.push_str(&text[..cut]);
            out.push('…');
        }
        _ => out.push_str(text),
    }
}

/// A received value as the model reads it: strings in single quotes, everything else as
/// compact JSON, cut at [`MAX_RECEIVED_CHARS`]. Written into one buffer: every violation
/// renders one, and a failed call's cost is mostly its answer (P3 in BENCHMARKS.md).
pub(crate) fn received(value: &Value) -> String {
    match value {
        Value::String(text) => {
            let mut out = String::with_capacity(text.len().min(4 * MAX_RECEIVED_CHARS) + 5);
            out.push('\'');
            push_truncated(&mut out, text, MAX_RECEIVED_CHARS);
            out.push('\'');
            out
        }
        Value::Number(number) => number.to_string(),
        other => truncated(&other.to_string(), MAX_RECEIVED_CHARS),
    }
}

/// A received value for the envelope: the value itself, or its cut rendering when it is too
/// large to echo back.
pub(crate) fn envelope_received(value: &Value) -> Value {
    let small = match value {
        Value::String(text) => text.len() <= MAX_ENVELOPE_RECEIVED_CHARS,
        Value::Array(_) | Value::Object(_) => {
            value.to_string().len() <= MAX_ENVELOPE_RECEIVED_CHARS
        }
        _ => true,
    };
    if small {
        value.clone()
    } else {
        Value::String(received(value))
    }
}

/// Values as a list: `'asc', 'desc'`.
pub(crate) fn quoted_list(values: &[Value]) -> String {
    values.iter().map(received).collect::<Vec<_>>().join(", ")
}

/// "an integer", "a string", …
pub(crate) fn type_phrase(json_type: JsonType) -> &'static str {
    match json_type {
        JsonType::Integer => "an integer",
        JsonType::Number => "a number",
        JsonType::String => "a string",
        JsonType::Boolean => "a boolean",
        JsonType::Array => "an array",
        JsonType::Object => "an object",
        JsonType::Null => "null",
    }
}

/// Several types joined: "an integer or a string". `null` is dropped when others remain,
/// because an optional argument is better left out than sent as null.
pub(crate) fn types_phrase(types: &[JsonType]) -> String {
    if let [only] = types {
        return type_phrase(*only).to_string();
    }
    let without_null: Vec<JsonType> = types
        .iter()
        .copied()
        .filter(|t| *t != JsonType::Null)
        .collect();
    let shown = if without_null.is_empty() {
        types
    } else {
        &without_null
    };
    join_or(shown.iter().map(|t| type_phrase(*t).to_string()).collect())
}

/// "integers", "strings", … for the items of an array.
fn plural_type_phrase(json_type: JsonType) -> &'static str {
    match json_type {
        JsonType::Integer => "integers",
        JsonType::Number => "numbers",
        JsonType::String => "strings",
        JsonType::Boolean => "booleans",
        JsonType::Array => "arrays",
        JsonType::Object => "objects",
        JsonType::Null => "nulls",
    }
}

/// "an array of strings" for an array whose items have the given types.
fn array_of(item_types: &[JsonType]) -> String {
    let plural: Vec<String> = item_types
        .iter()
        .filter(|t| **t != JsonType::Null)
        .map(|t| plural_type_phrase(*t).to_string())
        .collect();
    if plural.is_empty() {
        "an array".into()
    } else {
        format!("an array of {}", join_or(plural))
    }
}

/// "a, b or c"; repeated neighbours are said once.
pub(crate) fn join_or(mut parts: Vec<String>) -> String {
    parts.dedup();
    match parts.split_last() {
        None => "a value".into(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// What a value should have been: "an integer between 1 and 100", "one of 'asc', 'desc'".
pub(crate) fn expected_phrase(expected: &Expected) -> String {
    match expected {
        Expected::Types(types) => types_phrase(types),
        Expected::OneOf(values) => one_of(values),
        Expected::ArrayOf(items) => array_of(items),
        Expected::InRange(types, range) => {
            // "an integer of at least 1": a lone inclusive bound does not read without "of".
            let lone_inclusive = range.min.is_some() != range.max.is_some()
                && !range.exclusive_min
                && !range.exclusive_max;
            let of = if lone_inclusive { " of" } else { "" };
            format!("{}{of} {}", types_phrase(types), range_bounds(range))
        }
        Expected::ObjectWith(fields) => {
            let names: Vec<String> = fields
                .iter()
                .map(|(name, required)| {
                    if *required {
                        name.clone()
                    } else {
                        format!("{name}?")
                    }
                })
                .collect();
            format!("an object with {}", names.join(", "))
        }
        Expected::Matching(types, pattern) => {
            format!("{} matching `{pattern}`", types_phrase(types))
        }
        Expected::OfLength(types, min, max) => {
            let types = types_phrase(types);
            let size = match (min, max) {
                (Some(min), Some(max)) if min == max => format!("exactly {min}"),
                (Some(min), Some(max)) => format!("between {min} and {max}"),
                (Some(min), None) => format!("at least {min}"),
                (None, Some(max)) => format!("at most {max}"),
                (None, None) => return types,
            };
            let count = max.or(*min).unwrap_or(0);
            let unit = unit_words(LengthUnit::Characters, count);
            format!("{types} of {size} {unit}")
        }
    }
}

/// "one of 'asc', 'desc'".
pub(crate) fn one_of(allowed: &[Value]) -> String {
    format!("one of {}", quoted_list(allowed))
}

/// "character", "items", … for a count of `unit`.
pub(crate) fn unit_words(unit: LengthUnit, count: u64) -> &'static str {
    match (unit, count == 1) {
        (LengthUnit::Characters, true) => "character",
        (LengthUnit::Characters, false) => "characters",
        (LengthUnit::Items, true) => "item",
        (LengthUnit::Items, false) => "items",
        (LengthUnit::Properties, true) => "property",
        (LengthUnit::Properties, false) => "properties",
    }
}

/// "be between 5 and 30 characters long", "have at most 3 items".
pub(crate) fn length_bounds(min: Option<u64>, max: Option<u64>, unit: LengthUnit) -> String {
    let (verb, tail) = match unit {
        LengthUnit::Characters => ("be", " long"),
        LengthUnit::Items | LengthUnit::Properties => ("have", ""),
    };
    match (min, max) {
        (Some(min), Some(max)) if min == max => {
            format!("{verb} exactly {min} {}{tail}", unit_words(unit, min))
        }
        (Some(min), Some(max)) => {
            format!(
                "{verb} between {min} and {max} {}{tail}",
                unit_words(unit, max)
            )
        }
        (Some(min), None) => format!("{verb} at least {min} {}{tail}", unit_words(unit, min)),
        (None, Some(max)) => format!("{verb} at most {max} {}{tail}", unit_words(unit, max)),
        (None, None) => format!("{verb} a valid length"),
    }
}

/// "between 1 and 100", "greater than 0", "at most 10".
pub(crate) fn range_bounds(range: &NumberRange) -> String {
    let lower = if range.exclusive_min {
        "greater than"
    } else {
        "at least"
    };
    let upper = if range.exclusive_max {
        "less than"
    } else {
        "at most"
    };
    match (&range.min, &range.max) {
        (Some(min), Some(max)) if !range.exclusive_min && !range.exclusive_max => {
            format!("between {min} and {max}")
        }
        (Some(min), Some(max)) => format!("{lower} {min} and {upper} {max}"),
        (Some(min), None) => format!("{lower} {min}"),
        (None, Some(max)) => format!("{upper} {max}"),
        (None, None) => "in range".into(),
    }
}

/// "a valid email address", "a date such as '2024-01-31'", …
pub(crate) fn format_name(format: &StringFormat) -> String {
    match format {
        StringFormat::Email => "a valid email address".into(),
        StringFormat::Url => "a valid URL".into(),
        StringFormat::Other(name) => match name.as_str() {
            "ip" => "a valid IP address".into(),
            "ipv4" => "a valid IPv4 address".into(),
            "ipv6" => "a valid IPv6 address".into(),
            "credit_card" => "a valid credit card number".into(),
            "uuid" => "a valid UUID".into(),
            "date-time" => "an RFC 3339 date-time such as '2024-01-31T12:00:00Z'".into(),
            "date" => "a date such as '2024-01-31'".into(),
            other => format!("a valid {other}"),
        },
    }
}

/// "match the pattern `^[A-Z]+$` (for example 'ABC')".
pub(crate) fn pattern_phrase(pattern: &str, example: Option<&Value>) -> String {
    match example {
        Some(example) => format!(
            "match the pattern `{pattern}` (for example {})",
            received(example)
        ),
        None => format!("match the pattern `{pattern}`"),
    }
}

/// "4 MiB (4194304 bytes)", "256 KiB (262144 bytes)", "1000 bytes".
pub(crate) fn byte_size(bytes: usize) -> String {
    const KIB: usize = 1024;
    const MIB: usize = 1024 * 1024;
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB ({bytes} bytes)", bytes / MIB)
    } else if bytes >= KIB && bytes.is_multiple_of(KIB) {
        format!("{} KiB ({bytes} bytes)", bytes / KIB)
    } else {
        format!("{bytes} bytes")
    }
}

/// A count with thousands separators: "119,980".
pub(crate) fn thousands(count: usize) -> String {
    let digits = count.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (position, digit) in digits.chars().enumerate() {
        if position > 0 && (digits.len() - position).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// "5 s", "250 ms", "1.5 s".
pub(crate) fn duration(limit: std::time::Duration) -> String {
    let millis = limit.as_millis();
    if millis.is_multiple_of(1000) {
        format!("{} s", millis / 1000)
    } else if millis < 1000 {
        format!("{millis} ms")
    } else {
        format!("{:.1} s", limit.as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn received_values_are_quoted_and_cut() {
        assert_eq!(received(&json!("five")), "'five'");
        assert_eq!(received(&json!(5)), "5");
        assert_eq!(received(&json!(null)), "null");
        let long = "x".repeat(200);
        let shown = received(&json!(long));
        assert_eq!(shown.chars().count(), MAX_RECEIVED_CHARS + 2);
        assert!(shown.ends_with("…'"));
        let exact = "y".repeat(MAX_RECEIVED_CHARS);
        assert_eq!(received(&json!(exact)), format!("'{exact}'"));
    }

    #[test]
    fn counts_have_thousands_separators() {
        for (count, written) in [
            (0, "0"),
            (999, "999"),
            (1000, "1,000"),
            (119_980, "119,980"),
            (1_000_000, "1,000,000"),
        ] {
            assert_eq!(thousands(count), written);
        }
    }

    #[test]
    fn types_drop_null_when_others_remain() {
        use JsonType::*;
        assert_eq!(types_phrase(&[Integer, Null]), "an integer");
        assert_eq!(types_phrase(&[Null]), "null");
        assert_eq!(
            types_phrase(&[String, Integer, Object]),
            "a string, an integer or an object"
        );
        assert_eq!(types_phrase(&[]), "a value");
    }
}
