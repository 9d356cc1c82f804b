//! String checks the schema names: `pattern`, and the formats serde types enforce.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use regex::Regex;
use validator::{ValidateEmail, ValidateUrl};

use crate::error::StringFormat;

/// Compiled patterns, shared through `Arc`: a cloned `Regex` starts with an empty match
/// cache, which costs more to fill than the match itself.
static PATTERNS: LazyLock<Mutex<HashMap<String, Option<Arc<Regex>>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// Whether `text` matches the schema `pattern`, compiled once per process. A pattern this
/// engine cannot compile is not held against the caller.
pub(super) fn matches_pattern(pattern: &str, text: &str) -> bool {
    let compiled = {
        let mut cache = PATTERNS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        cache
            .entry(pattern.to_string())
            .or_insert_with(|| Regex::new(pattern).ok().map(Arc::new))
            .clone()
    };
    compiled.is_none_or(|regex| regex.is_match(text))
}

/// The format `text` fails, if it fails the schema's `format`. Formats that serde types
/// (uuid, chrono) enforce are checked too, so that the problem is reported at its path
/// rather than as serde's words at the root.
pub(super) fn format_problem(format: &str, text: &str) -> Option<StringFormat> {
    match format {
        "email" if !text.validate_email() => Some(StringFormat::Email),
        "uri" | "url" if !text.validate_url() => Some(StringFormat::Url),
        "uuid" if uuid::Uuid::parse_str(text).is_err() => Some(StringFormat::Other("uuid".into())),
        "date" if !is_full_date(text) => Some(StringFormat::Other("date".into())),
        "date-time" if !is_date_time(text) => Some(StringFormat::Other("date-time".into())),
        _ => None,
    }
}

/// RFC 3339 `full-date`: `YYYY-MM-DD` with a real day of that month.
fn is_full_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    let digits = |range: std::ops::Range<usize>| -> Option<u32> {
        let part = text.get(range)?;
        part.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| part.parse().ok())
            .flatten()
    };
    if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) = (digits(0..4), digits(5..7), digits(8..10)) else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// RFC 3339 `date-time`: a full date, `T`, a time, and an offset.
fn is_date_time(text: &str) -> bool {
    static TIME: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"^[Tt]([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$").ok()
    });
    let (Some(date), Some(time)) = (text.get(..10), text.get(10..)) else {
        return false;
    };
    is_full_date(date) && TIME.as_ref().is_none_or(|re| re.is_match(time))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_real_days() {
        assert!(is_full_date("2024-02-29"));
        assert!(!is_full_date("2023-02-29"));
        assert!(!is_full_date("2024-13-01"));
        assert!(is_date_time("2024-01-31T12:00:00Z"));
        assert!(is_date_time("2024-01-31T12:00:00.5+02:00"));
        assert!(!is_date_time("2024-01-31 12:00"));
    }
}
