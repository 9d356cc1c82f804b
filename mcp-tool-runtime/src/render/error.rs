//! The words of a [`ToolError`]: its message, its envelope, and the text block of its result.

use std::borrow::Cow;
use std::fmt;

use super::phrases::{echoed_name, thousands};
use super::violation::entry;
use crate::error::{
    ArgPath, ErrorCode, ErrorEnvelope, Message, PathSegment, Tally, ToolError, Violation,
};

/// How many argument problems an answer spells out. The rest are summarised in one line and
/// counted in the envelope, so that a huge bad call gets a bounded answer.
pub(crate) const MAX_REPORTED_VIOLATIONS: usize = 20;

impl ToolError {
    /// The message the model reads (for a masked error, the generic one: the masked message
    /// that names the correlation id is written into the envelope).
    pub fn message(&self) -> Cow<'_, str> {
        match self.message_fact() {
            Message::Given(text) => Cow::Borrowed(text),
            Message::CodeDefault => Cow::Owned(default_message(self.code())),
            Message::InvalidArguments { tool } => {
                Cow::Owned(invalid_arguments_summary(tool, self.violations_total()))
            }
            Message::ArgumentsAbsent { tool, required } => {
                Cow::Owned(arguments_absent(tool, required))
            }
        }
    }

    /// The machine-readable envelope the model's client receives for this error from `tool`,
    /// logged under `correlation_id`.
    pub fn envelope(&self, tool: &str, correlation_id: &str) -> ErrorEnvelope {
        let error = if self.is_masked() {
            masked_internal_error(tool, correlation_id)
        } else {
            self.message().into_owned()
        };
        ErrorEnvelope {
            code: self.code().as_str().to_string(),
            class: self.code().class(),
            error,
            retryable: self.is_retryable(),
            retry_after: self.retry_after(),
            hint: self.hint().map(str::to_string),
            correlation_id: correlation_id.to_string(),
            violations: self
                .violations()
                .iter()
                .take(MAX_REPORTED_VIOLATIONS)
                .map(entry)
                .collect(),
            violations_total: (self.violations_total() > MAX_REPORTED_VIOLATIONS)
                .then_some(self.violations_total()),
            details: self.details().cloned(),
        }
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.message())?;
        if let Some(internal) = self.internal_detail() {
            write!(f, " ({internal})")?;
        }
        Ok(())
    }
}

/// The default message of a code when the tool author gave none.
fn default_message(code: &ErrorCode) -> String {
    match code.as_str() {
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

/// The headline of an invalid-arguments error, which is also its `error` field.
fn invalid_arguments_summary(tool: &str, count: usize) -> String {
    let problems = if count == 1 { "problem" } else { "problems" };
    format!("Invalid arguments for tool '{tool}': {count} {problems}.")
}

/// The headline when `arguments` was left out (or null) but the tool requires some.
fn arguments_absent(tool: &str, required: &[String]) -> String {
    let quoted: Vec<String> = required.iter().map(|name| format!("'{name}'")).collect();
    format!(
        "Tool '{tool}' was called without arguments, but it requires {}.",
        quoted.join(", ")
    )
}

/// What the model reads instead of an internal error or a panic.
fn masked_internal_error(tool: &str, correlation_id: &str) -> String {
    format!(
        "Tool '{tool}' failed because of an internal error on the server. The arguments were \
         accepted; the details were logged under correlation id {correlation_id}."
    )
}

/// The text block of `error`'s result: for argument problems the headline, one line per
/// problem (at most [`MAX_REPORTED_VIOLATIONS`], then a summary of the rest) and the shape of
/// a valid call; otherwise the message and how to go on.
pub(crate) fn error_text(
    error: &ToolError,
    envelope: &ErrorEnvelope,
    tool: &str,
    valid_call: &str,
) -> String {
    if envelope.violations.is_empty() {
        return message_and_next_step(envelope);
    }
    // Sized once: grown line by line, the text was copied four times on a call with three
    // problems (about 2,100 instructions, P3b).
    let lines: usize = envelope
        .violations
        .iter()
        .map(|v| v.message.len() + 3)
        .sum();
    let valid_call_line = "\nValid call: ()".len() + tool.len() + valid_call.len();
    let mut text = String::with_capacity(envelope.error.len() + lines + valid_call_line);
    text.push_str(&envelope.error);
    for violation in &envelope.violations {
        text.push_str("\n- ");
        text.push_str(&violation.message);
    }
    if let Some((shown, omitted)) = error.violations().split_at_checked(MAX_REPORTED_VIOLATIONS)
        && error.violations_total() > shown.len()
    {
        text.push_str("\n- ");
        text.push_str(&omitted_summary(shown, omitted, error.omitted_violations()));
    }
    if !valid_call.is_empty() {
        for part in ["\nValid call: ", tool, "(", valid_call, ")"] {
            text.push_str(part);
        }
    }
    text
}

/// "…and 119,980 more problems of the same kinds under tags[…]." The problems not spelled
/// out are the kept ones past those `shown`, then those only `tallied`.
fn omitted_summary(shown: &[Violation], omitted: &[Violation], tallied: &Tally) -> String {
    let count = omitted.len() + tallied.count;
    let problems = if count == 1 { "problem" } else { "problems" };
    let mut new_kinds: Vec<&str> = Vec::new();
    let omitted_kinds = omitted.iter().map(|v| v.kind.problem());
    for kind in omitted_kinds.chain(tallied.problems.iter().copied()) {
        let seen = shown.iter().any(|v| v.kind.problem() == kind);
        if !seen && !new_kinds.contains(&kind) {
            new_kinds.push(kind);
        }
    }
    let kinds = if new_kinds.is_empty() {
        "of the same kinds".to_string()
    } else {
        format!("(among them {})", new_kinds.join(", "))
    };
    let mut places: Vec<String> = Vec::new();
    let omitted_places = omitted.iter().map(|v| v.path.place());
    for place in omitted_places.chain(tallied.places.iter().cloned()) {
        let place = place_words(&place);
        if !places.contains(&place) {
            places.push(place);
        }
    }
    let shown_places = places.len().min(3);
    let mut under = places[..shown_places].join(", ");
    if places.len() > shown_places || tallied.more_places {
        under.push_str(" and elsewhere");
    }
    format!(
        "…and {} more {problems} {kinds} under {under}.",
        thousands(count)
    )
}

/// A place of problems ([`ArgPath::place`]) in a summary: its argument, and `[…]` for its
/// items.
fn place_words(place: &ArgPath) -> String {
    match place.segments() {
        [] => "the arguments".into(),
        [PathSegment::Key(key), PathSegment::Index(_), ..] => format!("{}[…]", echoed_name(key)),
        [PathSegment::Key(key), ..] => echoed_name(key).into_owned(),
        [PathSegment::Index(_), ..] => "[…]".into(),
    }
}

/// The message, the hint, and whether and when to retry.
fn message_and_next_step(envelope: &ErrorEnvelope) -> String {
    let mut text = envelope.error.clone();
    if let Some(hint) = &envelope.hint {
        text.push_str(&format!("\nHint: {hint}"));
    }
    match (envelope.retryable, envelope.retry_after) {
        (true, Some(1)) => text.push_str("\nThis is temporary: retry after 1 second."),
        (true, Some(seconds)) => {
            text.push_str(&format!(
                "\nThis is temporary: retry after {seconds} seconds."
            ));
        }
        (true, None) => text.push_str("\nThis is temporary: the same call may succeed if retried."),
        (false, _) => {}
    }
    text
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn headlines_count_problems() {
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
    fn error_text_explains_retry() {
        let error = ToolError::rate_limited("Slow down.")
            .with_hint("Wait a bit.")
            .with_retry_after(Duration::from_secs(3));
        assert_eq!(
            error_text(&error, &error.envelope("t", "id"), "t", ""),
            "Slow down.\nHint: Wait a bit.\nThis is temporary: retry after 3 seconds."
        );
        let plain = ToolError::not_found("No.");
        assert_eq!(
            error_text(&plain, &plain.envelope("t", "id"), "t", ""),
            "No."
        );
    }

    #[test]
    fn masked_envelope_hides_the_cause() {
        let error = ToolError::from(std::io::Error::other("/etc/secret missing"));
        let envelope = serde_json::to_value(error.envelope("t", "abc")).unwrap();
        let text = envelope.to_string();
        assert!(!text.contains("/etc/secret"), "{text}");
        assert_eq!(envelope["code"], "internal_error");
        assert_eq!(envelope["correlationId"], "abc");
        assert_eq!(envelope["retryable"], false);
    }
}
