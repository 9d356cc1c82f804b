//! Every sentence a language model can read comes from this module.
//!
//! Keeping the wording in one place keeps the voice consistent: each message says what
//! happened, why, and what a valid call looks like. Tests pin the exact sentences that the
//! contract fixes, such as `Argument 'quantity' expected an integer, but received 'five'.`

use std::fmt::Write as _;

use serde_json::Value;

use crate::violation::{ArgPath, LengthUnit, StringFormat, Violation, ViolationKind};

/// Longest rendering of a received value, in characters, before it is cut with `…`.
pub const MAX_RECEIVED_CHARS: usize = 80;

/// "an integer", "a string", … for a JSON Schema type name.
pub fn type_phrase(json_type: &str) -> String {
    match json_type {
        "integer" => "an integer".into(),
        "number" => "a number".into(),
        "string" => "a string".into(),
        "boolean" => "a boolean".into(),
        "array" => "an array".into(),
        "object" => "an object".into(),
        "null" => "null".into(),
        other => format!("a value of type {other}"),
    }
}

/// Several type names joined: "an integer or a string". `null` is dropped when others remain,
/// because an optional argument is better left out than sent as null.
pub fn types_phrase<'a>(json_types: impl IntoIterator<Item = &'a str>) -> String {
    let mut types = json_types.into_iter();
    let (first, second) = (types.next(), types.next());
    if let (Some(only), None) = (first, second) {
        return type_phrase(only);
    }
    let all: Vec<&str> = first.into_iter().chain(second).chain(types).collect();
    let without_null: Vec<&str> = all.iter().copied().filter(|t| *t != "null").collect();
    let shown = if without_null.is_empty() {
        all
    } else {
        without_null
    };
    join_or(shown.into_iter().map(type_phrase).collect())
}

fn join_or(mut parts: Vec<String>) -> String {
    parts.dedup();
    match parts.len() {
        0 => "a value".into(),
        1 => parts.remove(0),
        _ => {
            let last = parts.pop().unwrap_or_default();
            format!("{} or {last}", parts.join(", "))
        }
    }
}

/// Appends `text`, cut to `max_chars` characters with an ellipsis.
fn push_truncated(out: &mut String, text: &str, max_chars: usize) {
    // A string of at most `max_chars` bytes has at most that many characters.
    if text.len() <= max_chars || text.chars().count() <= max_chars {
        out.push_str(text);
        return;
    }
    let cut = text
        .char_indices()
        .nth(max_chars.saturating_sub(1))
        .map_or(text.len(), |(at, _)| at);
    out.push_str(&text[..cut]);
    out.push('…');
}

/// A received value as the model reads it: strings in single quotes, everything else as
/// compact JSON, cut at [`MAX_RECEIVED_CHARS`].
pub fn received(value: &Value) -> String {
    let mut out = String::new();
    push_received(&mut out, value);
    out
}

fn push_received(out: &mut String, value: &Value) {
    match value {
        Value::String(text) => {
            out.push('\'');
            push_truncated(out, text, MAX_RECEIVED_CHARS);
            out.push('\'');
        }
        other => push_truncated(out, &other.to_string(), MAX_RECEIVED_CHARS),
    }
}

/// Largest received value, as compact JSON, that the envelope echoes as it is.
pub const MAX_ENVELOPE_RECEIVED_CHARS: usize = 1024;

/// A received value for the envelope: the value itself, or its cut rendering when it is too
/// large to echo back.
pub fn envelope_received(value: Value) -> Value {
    let small = match &value {
        Value::String(text) => text.len() <= MAX_ENVELOPE_RECEIVED_CHARS,
        Value::Array(_) | Value::Object(_) => {
            value.to_string().len() <= MAX_ENVELOPE_RECEIVED_CHARS
        }
        _ => true,
    };
    if small {
        value
    } else {
        Value::String(received(&value))
    }
}

fn quoted_list(values: &[Value]) -> String {
    values.iter().map(received).collect::<Vec<_>>().join(", ")
}

fn unit_words(unit: LengthUnit, count: u64) -> &'static str {
    match (unit, count == 1) {
        (LengthUnit::Characters, true) => "character",
        (LengthUnit::Characters, false) => "characters",
        (LengthUnit::Items, true) => "item",
        (LengthUnit::Items, false) => "items",
        (LengthUnit::Properties, true) => "property",
        (LengthUnit::Properties, false) => "properties",
    }
}

fn length_bounds(min: Option<u64>, max: Option<u64>, unit: LengthUnit) -> String {
    let verb = match unit {
        LengthUnit::Characters => "be",
        LengthUnit::Items | LengthUnit::Properties => "have",
    };
    let tail = match unit {
        LengthUnit::Characters => " long",
        LengthUnit::Items | LengthUnit::Properties => "",
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

fn range_bounds(kind: &ViolationKind) -> String {
    let ViolationKind::Range {
        min,
        max,
        exclusive_min,
        exclusive_max,
    } = kind
    else {
        return String::new();
    };
    match (min, max) {
        (Some(min), Some(max)) if !exclusive_min && !exclusive_max => {
            format!("between {min} and {max}")
        }
        (Some(min), Some(max)) => format!(
            "{} {min} and {} {max}",
            if *exclusive_min {
                "greater than"
            } else {
                "at least"
            },
            if *exclusive_max {
                "less than"
            } else {
                "at most"
            }
        ),
        (Some(min), None) if *exclusive_min => format!("greater than {min}"),
        (Some(min), None) => format!("at least {min}"),
        (None, Some(max)) if *exclusive_max => format!("less than {max}"),
        (None, Some(max)) => format!("at most {max}"),
        (None, None) => "in range".into(),
    }
}

fn format_name(format: &StringFormat) -> String {
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

fn push_pattern_phrase(out: &mut String, pattern: &str, example: Option<&Value>) {
    out.push_str("match the pattern `");
    out.push_str(pattern);
    out.push('`');
    if let Some(example) = example {
        out.push_str(" (for example ");
        push_received(out, example);
        out.push(')');
    }
}

/// The envelope's `expected` for an unknown argument.
pub(crate) const UNKNOWN_EXPECTED: &str = "no such argument";

/// The envelope's `expected` for a value outside `allowed`.
pub(crate) fn enum_expected(allowed: &[Value]) -> String {
    format!("one of {}", quoted_list(allowed))
}

/// What a violation expected, as a phrase for the envelope's `expected` field.
pub fn violation_expected(kind: &ViolationKind) -> Option<String> {
    Some(match kind {
        ViolationKind::TypeMismatch { expected } | ViolationKind::Missing { expected } => {
            expected.clone()
        }
        ViolationKind::Unknown { .. } => UNKNOWN_EXPECTED.into(),
        ViolationKind::Range { .. } => format!("a number {}", range_bounds(kind)),
        ViolationKind::Length { min, max, unit, .. } => {
            format!("a value that must {}", length_bounds(*min, *max, *unit))
        }
        ViolationKind::Pattern { pattern, example } => {
            const LEAD: &str = "a string that must ";
            let mut out = String::with_capacity(LEAD.len() + 24 + pattern.len());
            out.push_str(LEAD);
            push_pattern_phrase(&mut out, pattern, example.as_ref());
            out
        }
        ViolationKind::Format { format } => format_name(format),
        ViolationKind::Enum { allowed, .. } => enum_expected(allowed),
        ViolationKind::NotUnique => "an array without duplicate items".into(),
        ViolationKind::NotAnObject => "an object of named arguments".into(),
        ViolationKind::Custom { .. } | ViolationKind::Invalid { .. } => return None,
    })
}

fn subject(path: &ArgPath) -> String {
    let mut out = String::new();
    push_subject(&mut out, path);
    out
}

fn push_subject(out: &mut String, path: &ArgPath) {
    if path.is_root() {
        out.push_str("The arguments");
    } else {
        out.push_str("Argument '");
        path.write_into(out);
        out.push('\'');
    }
}

/// The verb for [`subject`]: "The arguments are", "Argument 'x' is".
fn is_or_are(path: &ArgPath) -> &'static str {
    if path.is_root() { "are" } else { "is" }
}

fn but_received(received_value: Option<&Value>) -> String {
    let mut out = String::new();
    push_but_received(&mut out, received_value);
    out
}

fn push_but_received(out: &mut String, received_value: Option<&Value>) {
    if let Some(value) = received_value {
        out.push_str(", but received ");
        push_received(out, value);
    }
}

/// The one sentence (or two) that explains a violation.
pub fn violation(violation: &Violation) -> String {
    // The commonest problems are written straight into one buffer: the error path formats
    // one message per violation, and each `format!` of parts costs an allocation more.
    let path = &violation.path;
    let mut text = String::with_capacity(128);
    let who = || subject(path);
    let got = || but_received(violation.received.as_ref());
    match &violation.kind {
        ViolationKind::TypeMismatch { expected } => {
            push_subject(&mut text, path);
            text.push_str(" expected ");
            text.push_str(expected);
            push_but_received(&mut text, violation.received.as_ref());
            text.push('.');
            text
        }
        ViolationKind::Pattern { pattern, example } => {
            push_subject(&mut text, path);
            text.push_str(" must ");
            push_pattern_phrase(&mut text, pattern, example.as_ref());
            push_but_received(&mut text, violation.received.as_ref());
            text.push('.');
            text
        }
        ViolationKind::Missing { expected } => {
            text.push_str("Missing required argument '");
            path.write_into(&mut text);
            text.push_str("': expected ");
            text.push_str(expected);
            text.push('.');
            text
        }
        ViolationKind::Unknown { suggestion, valid } => {
            text.push_str("Unknown argument '");
            path.write_into(&mut text);
            text.push_str("'.");
            if let Some(suggestion) = suggestion {
                text.push_str(" Did you mean '");
                text.push_str(suggestion);
                text.push_str("'?");
            }
            if valid.is_empty() {
                text.push_str(" This tool takes no arguments.");
            } else {
                text.push_str(" Valid arguments here: ");
                for (position, name) in valid.iter().enumerate() {
                    if position > 0 {
                        text.push_str(", ");
                    }
                    text.push_str(name);
                }
                text.push('.');
            }
            text
        }
        ViolationKind::Range { .. } => {
            format!(
                "{who} must be {}{got}.",
                range_bounds(&violation.kind),
                who = who(),
                got = got()
            )
        }
        ViolationKind::Length {
            min,
            max,
            unit,
            actual,
        } => {
            let detail = match (&violation.received, unit) {
                (Some(value @ Value::String(_)), _) => format!(
                    "{} ({actual} {})",
                    received(value),
                    unit_words(*unit, *actual)
                ),
                _ => format!("{actual} {}", unit_words(*unit, *actual)),
            };
            format!(
                "{who} must {}, but received {detail}.",
                length_bounds(*min, *max, *unit),
                who = who()
            )
        }
        ViolationKind::Format { format } => format!(
            "{who} must be {}{got}.",
            format_name(format),
            who = who(),
            got = got()
        ),
        ViolationKind::Enum {
            allowed,
            suggestion,
        } => {
            let mut text = format!(
                "{who} must be one of {}{got}.",
                quoted_list(allowed),
                who = who(),
                got = got()
            );
            if let Some(suggestion) = suggestion {
                let _ = write!(text, " Did you mean {}?", received(suggestion));
            }
            text
        }
        ViolationKind::NotUnique => format!(
            "{who} must not contain duplicate items{got}.",
            who = who(),
            got = got()
        ),
        ViolationKind::NotAnObject => {
            format!(
                "The arguments must be a JSON object of named arguments{got}.",
                got = got()
            )
        }
        ViolationKind::Custom { code, message } => {
            let why = message
                .clone()
                .unwrap_or_else(|| format!("failed the '{code}' check"));
            format!(
                "{who} {} invalid: {why}{got}.",
                is_or_are(path),
                who = who(),
                got = got()
            )
        }
        ViolationKind::Invalid { reason } => {
            format!("{who} {} invalid: {reason}.", is_or_are(path), who = who())
        }
    }
}

/// A constraint worth naming when describing what an argument accepts.
pub enum Constraint<'a> {
    /// Numeric bounds (a [`ViolationKind::Range`]).
    Range(&'a ViolationKind),
    /// A regular expression.
    Pattern(&'a str),
    /// String length bounds, in characters.
    Length(Option<u64>, Option<u64>),
}

/// What an argument accepts: "an integer between 1 and 100", "a string of at most 200
/// characters".
pub fn describe_value(types: String, constraint: Option<Constraint<'_>>) -> String {
    match constraint {
        None => types,
        Some(Constraint::Range(range)) => format!("{types} {}", range_bounds(range)),
        Some(Constraint::Pattern(pattern)) => format!("{types} matching `{pattern}`"),
        Some(Constraint::Length(min, max)) => {
            let unit = LengthUnit::Characters;
            let size = match (min, max) {
                (Some(min), Some(max)) if min == max => format!("exactly {min}"),
                (Some(min), Some(max)) => format!("between {min} and {max}"),
                (Some(min), None) => format!("at least {min}"),
                (None, Some(max)) => format!("at most {max}"),
                (None, None) => return types,
            };
            let count = max.or(min).unwrap_or(0);
            format!("{types} of {size} {}", unit_words(unit, count))
        }
    }
}

/// The headline of an invalid-arguments error, which is also its `error` field.
pub fn invalid_arguments_summary(tool: &str, count: usize) -> String {
    // Written into one buffer: every failed call makes this headline.
    const LEAD: &str = "Invalid arguments for tool '";
    let mut text = String::with_capacity(LEAD.len() + tool.len() + 32);
    text.push_str(LEAD);
    text.push_str(tool);
    if count == 1 {
        text.push_str("': 1 problem.");
    } else {
        text.push_str("': ");
        push_count(&mut text, count);
        text.push_str(" problems.");
    }
    text
}

/// Appends `count` in decimal, without the formatting machinery `write!` goes through.
fn push_count(out: &mut String, count: usize) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    let mut rest = count;
    loop {
        start -= 1;
        digits[start] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for &digit in &digits[start..] {
        out.push(char::from(digit));
    }
}

/// The full text of an invalid-arguments result: headline, one line per violation (each
/// message written once, then shared with the envelope), and the shape of a valid call.
pub fn invalid_arguments_text<M: AsRef<str>>(
    summary: &str,
    messages: &[M],
    tool: &str,
    signature: &str,
) -> String {
    const VALID_CALL: &str = "\nValid call: ";
    let size = summary.len()
        + messages.iter().map(|m| 3 + m.as_ref().len()).sum::<usize>()
        + VALID_CALL.len()
        + tool.len()
        + signature.len()
        + 2;
    let mut text = String::with_capacity(size);
    text.push_str(summary);
    for message in messages {
        text.push_str("\n- ");
        text.push_str(message.as_ref());
    }
    if !signature.is_empty() {
        text.push_str(VALID_CALL);
        text.push_str(tool);
        text.push('(');
        text.push_str(signature);
        text.push(')');
    }
    text
}

/// One argument in the "Valid call" line: `quantity: an integer between 1 and 100`, or
/// `sort?: one of 'asc', 'desc' (default 'asc')` for an optional one.
pub fn signature_entry(
    name: &str,
    summary: &str,
    required: bool,
    default: Option<&Value>,
) -> String {
    let mut entry = if required {
        format!("{name}: {summary}")
    } else {
        format!("{name}?: {summary}")
    };
    if let Some(default) = default {
        let _ = write!(entry, " (default {})", received(default));
    }
    entry
}

/// "an array of strings" for an array whose items have the given types.
pub fn array_of<'a>(item_types: impl IntoIterator<Item = &'a str>) -> String {
    let plural: Vec<String> = item_types
        .into_iter()
        .filter(|t| *t != "null")
        .map(|t| match t {
            "integer" => "integers".to_string(),
            "number" => "numbers".to_string(),
            "string" => "strings".to_string(),
            "boolean" => "booleans".to_string(),
            "array" => "arrays".to_string(),
            "object" => "objects".to_string(),
            other => format!("values of type {other}"),
        })
        .collect();
    if plural.is_empty() {
        "an array".into()
    } else {
        format!("an array of {}", join_or(plural))
    }
}

/// The headline when `arguments` was left out (or null) but the tool requires some.
pub fn arguments_absent(tool: &str, required: &[&str]) -> String {
    format!(
        "Tool '{tool}' was called without arguments, but it requires {}.",
        required
            .iter()
            .map(|name| format!("'{name}'"))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// The JSON-RPC error message for a tool name the server does not have.
pub fn unknown_tool(name: &str, suggestions: &[&str], available: &[&str]) -> String {
    let mut text = format!("Unknown tool '{name}'.");
    match suggestions {
        [] => {}
        [one] => {
            let _ = write!(text, " Did you mean '{one}'?");
        }
        many => {
            let quoted: Vec<String> = many.iter().map(|name| format!("'{name}'")).collect();
            let _ = write!(text, " Did you mean one of {}?", quoted.join(", "));
        }
    }
    if available.is_empty() {
        text.push_str(" This server has no tools.");
    } else {
        let _ = write!(text, " Available tools: {}.", available.join(", "));
    }
    text
}

/// What the model reads instead of an internal error or a panic.
pub fn masked_internal_error(tool: &str, correlation_id: &str) -> String {
    format!(
        "Tool '{tool}' failed because of an internal error on the server. The arguments were \
         accepted; the details were logged under correlation id {correlation_id}."
    )
}

/// The default message of a code when the tool author gave none.
pub fn default_message(code: &str) -> String {
    match code {
        "invalid_arguments" => "The arguments are not valid for this tool.".into(),
        "not_found" => "The requested item was not found.".into(),
        "conflict" => "The request conflicts with the current state.".into(),
        "forbidden" => "This operation is not permitted.".into(),
        "unauthenticated" => "This operation needs authentication.".into(),
        "rate_limited" => "Too many calls to this tool in a short time.".into(),
        "at_capacity" => "The server is at capacity right now.".into(),
        "timeout" => "The tool did not finish in time.".into(),
        "unavailable" => "A service this tool needs is unavailable right now.".into(),
        "upstream_error" => "A service this tool depends on returned an error.".into(),
        "cancelled" => "The call was cancelled.".into(),
        "internal_error" => "The tool failed because of an internal error.".into(),
        other => format!("The tool failed ({other})."),
    }
}

/// The text block of a non-argument error: the message, then how to go on.
pub fn error_text(
    message: &str,
    hint: Option<&str>,
    retryable: bool,
    retry_after: Option<u64>,
) -> String {
    let mut text = message.to_string();
    if let Some(hint) = hint {
        let _ = write!(text, "\nHint: {hint}");
    }
    match (retryable, retry_after) {
        (true, Some(1)) => text.push_str("\nThis is temporary: retry after 1 second."),
        (true, Some(seconds)) => {
            let _ = write!(text, "\nThis is temporary: retry after {seconds} seconds.");
        }
        (true, None) => text.push_str("\nThis is temporary: the same call may succeed if retried."),
        (false, _) => {}
    }
    text
}

/// The text of a tool that returns `()`.
pub fn completed(tool: &str) -> String {
    format!("Tool '{tool}' completed.")
}

// ---- Transport and protocol errors (JSON-RPC errors and HTTP rejections) ----

/// A line or body that is not JSON (-32700).
pub fn parse_error(detail: &str) -> String {
    format!(
        "Parse error: the message is not valid JSON ({detail}). Send one JSON-RPC 2.0 object per message."
    )
}

/// A JSON array: JSON-RPC batches are not part of MCP since 2025-06-18.
pub const BATCH_NOT_SUPPORTED: &str = "Invalid request: batches (JSON arrays) are not supported. Send one JSON-RPC 2.0 object per message.";

/// A JSON value that is not an object.
pub fn not_an_object_message(value: &Value) -> String {
    format!(
        "Invalid request: a JSON-RPC message must be a JSON object, but received {}.",
        received(value)
    )
}

/// `jsonrpc` missing or not "2.0".
pub fn not_json_rpc_2(version: Option<&Value>) -> String {
    match version {
        None => {
            "Invalid request: the message has no \"jsonrpc\" member; it must be \"2.0\".".into()
        }
        Some(version) => format!(
            "Invalid request: \"jsonrpc\" must be \"2.0\", but received {}.",
            received(version)
        ),
    }
}

/// An `id` that is neither a string nor an integer.
pub fn invalid_id(id: &Value) -> String {
    format!(
        "Invalid request: \"id\" must be a string or an integer, but received {}.",
        received(id)
    )
}

/// `method` present but not a string.
pub fn method_not_a_string(method: &Value) -> String {
    format!(
        "Invalid request: \"method\" must be a string, but received {}.",
        received(method)
    )
}

/// A request without `method`.
pub const MISSING_METHOD: &str = "Invalid request: the message has no \"method\". A request needs \"jsonrpc\": \"2.0\", an \"id\" and a \"method\".";

/// A response from the client that does not parse.
pub fn malformed_response(detail: &str) -> String {
    format!("Invalid request: the response is malformed ({detail}).")
}

/// A method the server does not implement (-32601).
pub fn method_not_found(method: &str, supported: &[&str]) -> String {
    format!(
        "Method not found: '{method}'. This server implements: {}.",
        supported.join(", ")
    )
}

/// Params that do not fit a known method (-32602).
pub fn invalid_params(method: &str, detail: &str) -> String {
    format!("Invalid params for '{method}': {detail}.")
}

/// `params` present but not an object.
pub fn params_not_an_object(params: &Value) -> String {
    format!(
        "\"params\" must be an object, but received {}",
        received(params)
    )
}

/// `params` missing where members are required.
pub fn params_missing<'a>(required: impl IntoIterator<Item = &'a str>) -> String {
    let names: Vec<String> = required
        .into_iter()
        .map(|name| format!("'{name}'"))
        .collect();
    format!(
        "\"params\" is missing; it must be an object with {}",
        names.join(", ")
    )
}

/// A required member of `params` is missing.
pub fn param_missing(name: &str, expected: &str) -> String {
    format!("'{name}' is required: expected {expected}")
}

/// A member of `params` has the wrong type.
pub fn param_wrong_type(name: &str, expected: &str, value: &Value) -> String {
    format!(
        "'{name}' must be {expected}, but received {}",
        received(value)
    )
}

/// Params that do not fit, for no reason found in the required members.
pub const PARAMS_UNREADABLE: &str = "the params do not match this method's schema";

/// A stdio message over the size limit.
pub fn message_too_large(limit: usize) -> String {
    format!(
        "Message too large: it exceeds the limit of {} and was discarded. Send smaller messages.",
        byte_size(limit)
    )
}

/// "4 MiB (4194304 bytes)", "256 KiB (262144 bytes)", "1000 bytes".
pub fn byte_size(bytes: usize) -> String {
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

/// HTTP 404: a path other than the MCP endpoint.
pub fn http_not_found(path: &str, endpoint: &str) -> String {
    format!("Not found: there is no MCP endpoint at '{path}'. Send MCP requests to '{endpoint}'.")
}

/// HTTP 405 in stateless mode.
pub fn http_method_not_allowed(method: &str) -> String {
    format!(
        "Method not allowed: {method} is not supported because this server is stateless (no sessions, no server-sent event stream). Use POST with a JSON-RPC message."
    )
}

/// HTTP 405 for methods that no mode accepts.
pub fn http_method_never_allowed(method: &str) -> String {
    format!(
        "Method not allowed: {method}. Use POST with a JSON-RPC message (GET and DELETE manage sessions)."
    )
}

/// HTTP 413.
pub fn http_body_too_large(limit: usize, length: Option<u64>) -> String {
    match length {
        Some(length) => format!(
            "Payload too large: the request body has {length} bytes, more than the limit of {}. Send smaller messages.",
            byte_size(limit)
        ),
        None => format!(
            "Payload too large: the request body exceeds the limit of {}. Send smaller messages.",
            byte_size(limit)
        ),
    }
}

/// HTTP 400 for an `MCP-Protocol-Version` header the server does not speak.
pub fn http_unsupported_version(version: &str, supported: &[&str]) -> String {
    format!(
        "Bad request: unsupported MCP-Protocol-Version '{version}'. Supported versions: {}.",
        supported.join(", ")
    )
}

/// HTTP 403 for a `Host` outside the allowlist.
pub fn http_host_forbidden(host: &str, allowed: &[String]) -> String {
    format!(
        "Forbidden: Host '{host}' is not allowed (DNS rebinding protection). Allowed hosts: {}. Configure more with MCP_ALLOWED_HOSTS.",
        allowed.join(", ")
    )
}

/// HTTP 403 for a request without a `Host`.
pub const HTTP_HOST_MISSING: &str = "Forbidden: the request has no Host header (DNS rebinding protection). Send the Host of this server.";

/// HTTP 403 for an `Origin` outside the allowlist.
pub fn http_origin_forbidden(origin: &str, allowed: &[String]) -> String {
    format!(
        "Forbidden: Origin '{origin}' is not allowed (DNS rebinding protection). Allowed origins: {}. Configure more with MCP_ALLOWED_ORIGINS.",
        allowed.join(", ")
    )
}

/// HTTP 401 without a bearer token.
pub const HTTP_TOKEN_MISSING: &str = "Unauthorized: this server requires a bearer token. Send the header 'Authorization: Bearer <token>'.";

/// HTTP 401 with a wrong token.
pub const HTTP_TOKEN_INVALID: &str = "Unauthorized: the bearer token is not valid. Send the header 'Authorization: Bearer <token>' with the token this server was configured with.";

/// The text of a `timeout` result.
pub fn timed_out(tool: &str, limit: std::time::Duration) -> String {
    format!(
        "Tool '{tool}' did not finish within its time limit of {} and was stopped.",
        duration(limit)
    )
}

/// "5 s", "250 ms", "1.5 s".
pub fn duration(limit: std::time::Duration) -> String {
    let millis = limit.as_millis();
    if millis.is_multiple_of(1000) {
        format!("{} s", millis / 1000)
    } else if millis < 1000 {
        format!("{millis} ms")
    } else {
        format!("{:.1} s", limit.as_secs_f64())
    }
}

/// What the log says when a client cancels a call.
pub const CANCELLED_BY_CLIENT: &str = "The client cancelled the call.";

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn headlines_count_problems_in_words_and_digits() {
        assert_eq!(
            invalid_arguments_summary("add_item", 1),
            "Invalid arguments for tool 'add_item': 1 problem."
        );
        for count in [0, 2, 10, 123, usize::MAX] {
            assert_eq!(
                invalid_arguments_summary("t", count),
                format!("Invalid arguments for tool 't': {count} problems.")
            );
        }
    }

    #[test]
    fn received_values_are_quoted_and_cut() {
        assert_eq!(received(&json!("five")), "'five'");
        assert_eq!(received(&json!(5)), "5");
        assert_eq!(received(&json!(null)), "null");
        let long = "x".repeat(200);
        let shown = received(&json!(long));
        assert_eq!(shown.chars().count(), MAX_RECEIVED_CHARS + 2);
        assert!(shown.ends_with("…'"));
    }

    #[test]
    fn types_drop_null_when_others_remain() {
        assert_eq!(types_phrase(["integer", "null"]), "an integer");
        assert_eq!(types_phrase(["null"]), "null");
        assert_eq!(
            types_phrase(["string", "integer", "object"]),
            "a string, an integer or an object"
        );
    }

    #[test]
    fn unknown_tool_lists_and_suggests() {
        assert_eq!(
            unknown_tool("add_iten", &["add_item"], &["add_item", "get_user"]),
            "Unknown tool 'add_iten'. Did you mean 'add_item'? Available tools: add_item, get_user."
        );
    }

    #[test]
    fn error_text_explains_retry() {
        assert_eq!(
            error_text("Slow down.", Some("Wait a bit."), true, Some(3)),
            "Slow down.\nHint: Wait a bit.\nThis is temporary: retry after 3 seconds."
        );
        assert_eq!(error_text("No.", None, false, None), "No.");
    }
}
