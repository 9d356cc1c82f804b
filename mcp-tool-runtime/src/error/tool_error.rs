//! The one error type of a tool call.
//!
//! A `ToolError` holds facts: a code, the tool author's own words if they gave any, the
//! argument problems, the masked cause. The sentences the model reads (a code's default
//! message, the invalid-arguments headline, the masked message) are written by `render`,
//! which also implements [`ToolError::message`] and [`ToolError::envelope`].

use std::borrow::Cow;
use std::fmt;
use std::time::Duration;

use serde_json::Value;

use super::code::ErrorCode;
use super::found::{Found, Tally};
use super::violation::Violation;

/// The detail of a masked error, kept for the log and never shown to the model.
pub(crate) type Internal = Box<dyn std::error::Error + Send + Sync + 'static>;

/// What the model is told, before it is written out.
#[derive(Debug)]
pub(crate) enum Message {
    /// The tool author's own words.
    Given(Cow<'static, str>),
    /// The code's default sentence.
    CodeDefault,
    /// The headline that counts the argument problems of a tool.
    InvalidArguments {
        /// The tool the arguments were for.
        tool: String,
    },
    /// The headline of a call that sent no arguments to a tool that requires some.
    ArgumentsAbsent {
        /// The tool that was called.
        tool: String,
        /// The arguments it requires.
        required: Vec<String>,
    },
}

/// The error of a tool call.
///
/// Build one from a code with a message the model may read ([`ToolError::new`] and the
/// shortcuts such as [`ToolError::not_found`]), or convert any other error with `?`: that
/// one is *masked*. The model then reads a generic message with a correlation id, and the
/// full error goes to the log under the same id.
///
/// ```
/// use mcp_tool_runtime::{ErrorCode, ToolError};
/// let error = ToolError::not_found("No item with SKU 'ABC-9999'.")
///     .with_hint("Use search_items to find valid SKUs.");
/// assert_eq!(error.code(), &ErrorCode::NOT_FOUND);
/// assert!(!error.is_retryable());
///
/// let io = std::io::Error::other("disk /var/db is full");
/// let masked = ToolError::from(io);
/// assert!(masked.is_masked());
/// assert_eq!(masked.code(), &ErrorCode::INTERNAL_ERROR);
/// ```
///
/// `ToolError` deliberately does not implement [`std::error::Error`]; that is what lets
/// every other error convert into it with `?`.
pub struct ToolError {
    // Boxed: a tool's `Result<T, ToolError>` stays as small as its `T` on the success path.
    inner: Box<ErrorInner>,
}

struct ErrorInner {
    code: ErrorCode,
    message: Message,
    hint: Option<Cow<'static, str>>,
    retryable: bool,
    retry_after: Option<u64>,
    details: Option<Value>,
    violations: Vec<Violation>,
    /// What is known of the violations past `violations`, for a call with very many.
    omitted: Tally,
    internal: Option<Internal>,
}

impl ToolError {
    fn with_message(code: ErrorCode, message: Message) -> Self {
        let retryable = code.default_retryable();
        Self {
            inner: Box::new(ErrorInner {
                code,
                message,
                hint: None,
                retryable,
                retry_after: None,
                details: None,
                violations: Vec::new(),
                omitted: Tally::default(),
                internal: None,
            }),
        }
    }

    /// An error with `code` and a message the model will read.
    pub fn new(code: ErrorCode, message: impl Into<Cow<'static, str>>) -> Self {
        Self::with_message(code, Message::Given(message.into()))
    }

    /// An error with `code` and that code's default message.
    pub fn from_code(code: ErrorCode) -> Self {
        Self::with_message(code, Message::CodeDefault)
    }

    /// `invalid_arguments` with the given violations; the message summarises them.
    pub fn invalid_arguments(tool: &str, violations: Vec<Violation>) -> Self {
        let message = Message::InvalidArguments {
            tool: tool.to_string(),
        };
        Self::with_message(ErrorCode::INVALID_ARGUMENTS, message).with_violations(violations)
    }

    /// `invalid_arguments` with what the checks of a call `found`.
    pub(crate) fn invalid_arguments_found(tool: &str, found: Found) -> Self {
        let mut error = Self::invalid_arguments(tool, found.kept);
        error.inner.omitted = found.past;
        error
    }

    /// `invalid_arguments` with its own headline, for a problem with the arguments as a whole.
    pub fn invalid_arguments_because(
        summary: impl Into<Cow<'static, str>>,
        violations: Vec<Violation>,
    ) -> Self {
        Self::new(ErrorCode::INVALID_ARGUMENTS, summary).with_violations(violations)
    }

    /// `invalid_arguments` for a call that sent no arguments to `tool`, which requires
    /// `required`.
    pub(crate) fn arguments_absent(
        tool: &str,
        required: Vec<String>,
        violations: Vec<Violation>,
    ) -> Self {
        let message = Message::ArgumentsAbsent {
            tool: tool.to_string(),
            required,
        };
        Self::with_message(ErrorCode::INVALID_ARGUMENTS, message).with_violations(violations)
    }

    fn with_violations(mut self, violations: Vec<Violation>) -> Self {
        self.inner.violations = violations;
        self
    }

    /// `not_found` with a message.
    pub fn not_found(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(ErrorCode::NOT_FOUND, message)
    }

    /// `conflict` with a message.
    pub fn conflict(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(ErrorCode::CONFLICT, message)
    }

    /// `forbidden` with a message.
    pub fn forbidden(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(ErrorCode::FORBIDDEN, message)
    }

    /// `unauthenticated` with a message.
    pub fn unauthenticated(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(ErrorCode::UNAUTHENTICATED, message)
    }

    /// `rate_limited` with a message; add [`ToolError::with_retry_after`].
    pub fn rate_limited(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(ErrorCode::RATE_LIMITED, message)
    }

    /// `at_capacity` with a message.
    pub fn at_capacity(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(ErrorCode::AT_CAPACITY, message)
    }

    /// `timeout` with a message.
    pub fn timeout(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(ErrorCode::TIMEOUT, message)
    }

    /// `unavailable` with a message.
    pub fn unavailable(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(ErrorCode::UNAVAILABLE, message)
    }

    /// `upstream_error` with a message the model may read.
    pub fn upstream(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(ErrorCode::UPSTREAM_ERROR, message)
    }

    /// `cancelled` with the default message.
    pub fn cancelled() -> Self {
        Self::from_code(ErrorCode::CANCELLED)
    }

    /// A masked `internal_error`: the model reads a generic message, the log gets `error`.
    pub fn internal(error: impl Into<Internal>) -> Self {
        let mut masked = Self::from_code(ErrorCode::INTERNAL_ERROR);
        masked.inner.internal = Some(error.into());
        masked
    }

    /// An `internal_error` whose text the model *does* read. Use it only for errors whose
    /// message is safe to show: this is the explicit opt-out of masking.
    pub fn expose(error: &dyn std::error::Error) -> Self {
        Self::new(ErrorCode::INTERNAL_ERROR, error.to_string())
    }

    /// Adds a hint: how the model can fix or work around the problem.
    pub fn with_hint(mut self, hint: impl Into<Cow<'static, str>>) -> Self {
        self.inner.hint = Some(hint.into());
        self
    }

    /// Sets when to retry, rounded up to whole seconds (at least 1); marks the error retryable.
    pub fn with_retry_after(mut self, wait: Duration) -> Self {
        let mut seconds = wait.as_secs();
        if wait.subsec_nanos() > 0 || seconds == 0 {
            seconds += 1;
        }
        self.inner.retry_after = Some(seconds);
        self.inner.retryable = true;
        self
    }

    /// Overrides the code's default retryability.
    pub fn with_retryable(mut self, retryable: bool) -> Self {
        self.inner.retryable = retryable;
        self
    }

    /// Attaches machine-readable details for the envelope's `details` field.
    pub fn with_details(mut self, details: Value) -> Self {
        self.inner.details = Some(details);
        self
    }

    /// The code.
    pub fn code(&self) -> &ErrorCode {
        &self.inner.code
    }

    /// What the model is told, before `render` writes it out.
    pub(crate) fn message_fact(&self) -> &Message {
        &self.inner.message
    }

    /// The hint, if any.
    pub fn hint(&self) -> Option<&str> {
        self.inner.hint.as_deref()
    }

    /// Whether the same call may succeed later.
    pub fn is_retryable(&self) -> bool {
        self.inner.retryable
    }

    /// Seconds to wait before retrying, if known.
    pub fn retry_after(&self) -> Option<u64> {
        self.inner.retry_after
    }

    /// The machine-readable details, if any.
    pub fn details(&self) -> Option<&Value> {
        self.inner.details.as_ref()
    }

    /// The argument violations of an `invalid_arguments` error. A call with very many
    /// keeps only the first thousand in full; [`ToolError::violations_total`] counts them
    /// all.
    pub fn violations(&self) -> &[Violation] {
        &self.inner.violations
    }

    /// How many argument violations were found, those past [`ToolError::violations`]
    /// included.
    pub fn violations_total(&self) -> usize {
        self.inner.violations.len() + self.inner.omitted.count
    }

    /// What is known of the violations past [`ToolError::violations`].
    pub(crate) fn omitted_violations(&self) -> &Tally {
        &self.inner.omitted
    }

    /// True when the real cause is hidden from the model.
    pub fn is_masked(&self) -> bool {
        self.inner.internal.is_some()
    }

    /// The hidden cause of a masked error, for logging.
    pub fn internal_detail(&self) -> Option<&(dyn std::error::Error + Send + Sync + 'static)> {
        self.inner.internal.as_deref()
    }
}

impl fmt::Debug for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolError")
            .field("code", &self.inner.code.as_str())
            .field("message", &self.inner.message)
            .field("retryable", &self.inner.retryable)
            .field("violations", &self.violations_total())
            .field("internal", &self.inner.internal)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_rounds_up_to_whole_seconds() {
        let error = ToolError::rate_limited("slow").with_retry_after(Duration::from_millis(1200));
        assert_eq!(error.retry_after(), Some(2));
        let zero = ToolError::rate_limited("slow").with_retry_after(Duration::ZERO);
        assert_eq!(zero.retry_after(), Some(1));
    }
}
