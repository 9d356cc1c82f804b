//! The one error type of a tool call, its stable codes, and the envelope the model receives.

use std::borrow::Cow;
use std::fmt;
use std::sync::LazyLock;
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

use crate::messages;
use crate::shape::Shape;
use crate::violation::Violation;

/// Who has to act for a failed call to succeed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorClass {
    /// The caller: the arguments or the request must change.
    Input,
    /// Something the tool depends on failed; the same call may work later.
    Dependency,
    /// The server itself failed or is overloaded.
    System,
}

impl ErrorClass {
    /// The class as the envelope writes it: `input`, `dependency` or `system`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Input => "input",
            Self::Dependency => "dependency",
            Self::System => "system",
        }
    }
}

impl Serialize for ErrorClass {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// A stable snake_case error code with its class and default retryability.
///
/// The built-in codes form the shared table in [`ErrorCode::TABLE`]. Tool authors define
/// their own with [`ErrorCode::custom`], preferably as constants:
///
/// ```
/// use mcp_tool_runtime::{ErrorClass, ErrorCode};
/// const OUT_OF_STOCK: ErrorCode = ErrorCode::custom("out_of_stock", ErrorClass::Input, false);
/// assert_eq!(OUT_OF_STOCK.as_str(), "out_of_stock");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ErrorCode {
    name: Cow<'static, str>,
    class: ErrorClass,
    retryable: bool,
}

impl ErrorCode {
    /// The arguments do not fit the tool's input schema or its constraints.
    pub const INVALID_ARGUMENTS: Self = Self::custom("invalid_arguments", ErrorClass::Input, false);
    /// The thing the call refers to does not exist.
    pub const NOT_FOUND: Self = Self::custom("not_found", ErrorClass::Input, false);
    /// The call conflicts with the current state.
    pub const CONFLICT: Self = Self::custom("conflict", ErrorClass::Input, false);
    /// The caller is not allowed to do this.
    pub const FORBIDDEN: Self = Self::custom("forbidden", ErrorClass::Input, false);
    /// The caller must authenticate first.
    pub const UNAUTHENTICATED: Self = Self::custom("unauthenticated", ErrorClass::Input, false);
    /// Too many calls; retry after a while.
    pub const RATE_LIMITED: Self = Self::custom("rate_limited", ErrorClass::System, true);
    /// The server has no room for more work right now.
    pub const AT_CAPACITY: Self = Self::custom("at_capacity", ErrorClass::System, true);
    /// The call ran past its time limit.
    pub const TIMEOUT: Self = Self::custom("timeout", ErrorClass::Dependency, true);
    /// A service the tool needs is down.
    pub const UNAVAILABLE: Self = Self::custom("unavailable", ErrorClass::Dependency, true);
    /// A service the tool called answered with an error.
    pub const UPSTREAM_ERROR: Self = Self::custom("upstream_error", ErrorClass::Dependency, true);
    /// The call was cancelled before it finished.
    pub const CANCELLED: Self = Self::custom("cancelled", ErrorClass::System, false);
    /// The server failed; the details are in its log.
    pub const INTERNAL_ERROR: Self = Self::custom("internal_error", ErrorClass::System, false);

    /// Every built-in code.
    pub const TABLE: &'static [ErrorCode] = &[
        Self::INVALID_ARGUMENTS,
        Self::NOT_FOUND,
        Self::CONFLICT,
        Self::FORBIDDEN,
        Self::UNAUTHENTICATED,
        Self::RATE_LIMITED,
        Self::AT_CAPACITY,
        Self::TIMEOUT,
        Self::UNAVAILABLE,
        Self::UPSTREAM_ERROR,
        Self::CANCELLED,
        Self::INTERNAL_ERROR,
    ];

    /// A code of the tool author's own. `name` should be snake_case
    /// ([`ErrorCode::is_valid_name`]); it is what clients match on, so keep it stable.
    pub const fn custom(name: &'static str, class: ErrorClass, retryable: bool) -> Self {
        Self {
            name: Cow::Borrowed(name),
            class,
            retryable,
        }
    }

    /// The built-in code named `name`, if there is one.
    pub fn lookup(name: &str) -> Option<Self> {
        Self::TABLE
            .iter()
            .find(|code| code.as_str() == name)
            .cloned()
    }

    /// True when `name` is lowercase snake_case: `[a-z][a-z0-9_]*`.
    pub fn is_valid_name(name: &str) -> bool {
        let mut chars = name.chars();
        matches!(chars.next(), Some('a'..='z'))
            && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    }

    /// The code as it appears in the envelope.
    pub fn as_str(&self) -> &str {
        &self.name
    }

    /// Who has to act.
    pub fn class(&self) -> ErrorClass {
        self.class
    }

    /// Whether the same call may succeed later, unless the error says otherwise.
    pub fn default_retryable(&self) -> bool {
        self.retryable
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// The detail of a masked error, kept for the log and never shown to the model.
pub(crate) type Internal = Box<dyn std::error::Error + Send + Sync + 'static>;

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
    inner: Box<ErrorInner>,
}

struct ErrorInner {
    code: ErrorCode,
    message: Cow<'static, str>,
    hint: Option<Cow<'static, str>>,
    retryable: bool,
    retry_after: Option<u64>,
    details: Option<Value>,
    violations: Vec<Violation>,
    internal: Option<Internal>,
}

impl ToolError {
    /// An error with `code` and a message the model will read.
    pub fn new(code: ErrorCode, message: impl Into<Cow<'static, str>>) -> Self {
        let retryable = code.default_retryable();
        Self {
            inner: Box::new(ErrorInner {
                code,
                message: message.into(),
                hint: None,
                retryable,
                retry_after: None,
                details: None,
                violations: Vec::new(),
                internal: None,
            }),
        }
    }

    /// An error with `code` and that code's default message.
    pub fn from_code(code: ErrorCode) -> Self {
        let message = messages::default_message(code.as_str());
        Self::new(code, message)
    }

    /// `invalid_arguments` with the given violations; the message summarises them.
    pub fn invalid_arguments(tool: &str, violations: Vec<Violation>) -> Self {
        let summary = messages::invalid_arguments_summary(tool, violations.len());
        let mut error = Self::new(ErrorCode::INVALID_ARGUMENTS, summary);
        error.inner.violations = violations;
        error
    }

    /// `invalid_arguments` with its own headline, for a problem with the arguments as a whole.
    pub fn invalid_arguments_because(
        summary: impl Into<Cow<'static, str>>,
        violations: Vec<Violation>,
    ) -> Self {
        let mut error = Self::new(ErrorCode::INVALID_ARGUMENTS, summary);
        error.inner.violations = violations;
        error
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

    /// The message the model reads (for a masked error, the generic one).
    pub fn message(&self) -> &str {
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

    /// The argument violations of an `invalid_arguments` error.
    pub fn violations(&self) -> &[Violation] {
        &self.inner.violations
    }

    /// True when the real cause is hidden from the model.
    pub fn is_masked(&self) -> bool {
        self.inner.internal.is_some()
    }

    /// The hidden cause of a masked error, for logging.
    pub fn internal_detail(&self) -> Option<&(dyn std::error::Error + Send + Sync + 'static)> {
        self.inner.internal.as_deref()
    }

    /// The machine-readable envelope the model's client receives.
    pub fn envelope(&self, tool: &str, correlation_id: &str) -> ErrorEnvelope {
        ErrorEnvelope {
            code: self.inner.code.as_str().to_string(),
            class: self.inner.code.class(),
            error: model_message(
                self.is_masked(),
                self.inner.message.clone(),
                tool,
                correlation_id,
            ),
            retryable: self.inner.retryable,
            retry_after: self.inner.retry_after,
            hint: self.inner.hint.as_deref().map(str::to_string),
            correlation_id: correlation_id.to_string(),
            violations: self.inner.violations.clone(),
            details: self.inner.details.clone(),
        }
    }

    /// [`ToolError::envelope`], moving this error's parts instead of copying them: the error
    /// path consumes the error.
    pub(crate) fn into_envelope(self, tool: &str, correlation_id: String) -> ErrorEnvelope {
        let masked = self.is_masked();
        let inner = *self.inner;
        let error = model_message(masked, inner.message, tool, &correlation_id);
        ErrorEnvelope {
            code: inner.code.as_str().to_string(),
            class: inner.code.class(),
            error,
            retryable: inner.retryable,
            retry_after: inner.retry_after,
            hint: inner.hint.map(Cow::into_owned),
            correlation_id,
            violations: inner.violations,
            details: inner.details,
        }
    }
}

/// The message the model reads: the error's own, or the masked one that names only the
/// correlation id.
fn model_message(
    masked: bool,
    message: Cow<'static, str>,
    tool: &str,
    correlation_id: &str,
) -> String {
    if masked {
        messages::masked_internal_error(tool, correlation_id)
    } else {
        message.into_owned()
    }
}

impl fmt::Debug for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolError")
            .field("code", &self.inner.code.as_str())
            .field("message", &self.inner.message)
            .field("retryable", &self.inner.retryable)
            .field("violations", &self.inner.violations.len())
            .field("internal", &self.inner.internal)
            .finish()
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.inner.code, self.inner.message)?;
        if let Some(internal) = &self.inner.internal {
            write!(f, " ({internal})")?;
        }
        Ok(())
    }
}

/// Any other error is masked: its text goes to the log, never to the model.
///
/// `anyhow::Error` does not implement `std::error::Error`, and a `From` impl for it would
/// clash with this one; convert it with `.map_err(ToolError::internal)`.
impl<E> From<E> for ToolError
where
    E: std::error::Error + Send + Sync + 'static,
{
    fn from(error: E) -> Self {
        Self::internal(error)
    }
}

/// The structured form of an error result, found under [`ERROR_META_KEY`] in the result's
/// `_meta`, and as `structuredContent` when the tool declares no output schema.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorEnvelope {
    /// The stable code, such as `invalid_arguments`.
    pub code: String,
    /// Who has to act: input, dependency or system.
    pub class: ErrorClass,
    /// The message.
    pub error: String,
    /// Whether the same call may succeed later.
    pub retryable: bool,
    /// Seconds to wait before retrying.
    pub retry_after: Option<u64>,
    /// How to fix or work around the problem.
    pub hint: Option<String>,
    /// The id under which the server logged this error.
    pub correlation_id: String,
    /// One entry per argument problem.
    pub violations: Vec<Violation>,
    /// Extra machine-readable details from the tool author.
    pub details: Option<Value>,
}

impl ErrorEnvelope {
    /// The envelope as JSON, with `messages[i]` the already written message of the `i`-th
    /// violation (the error path writes each once and shares it with the text). The map is
    /// built directly: going through `Serialize` into a `Value` costs several times more.
    pub(crate) fn into_json(self, messages: Vec<String>) -> Value {
        static SHAPE: LazyLock<Shape> = LazyLock::new(|| {
            Shape::new(
                &[
                    "code",
                    "class",
                    "error",
                    "retryable",
                    "retryAfter",
                    "hint",
                    "correlationId",
                    "violations",
                    "details",
                ],
                &["retryAfter", "hint", "violations", "details"],
            )
        });
        debug_assert_eq!(
            self.violations.len(),
            messages.len(),
            "one message per violation"
        );
        let violations: Vec<Value> = self
            .violations
            .into_iter()
            .zip(messages)
            .map(|(violation, message)| violation.into_json(message))
            .collect();
        SHAPE.object([
            Some(Value::String(self.code)),
            Some(Value::String(self.class.as_str().into())),
            Some(Value::String(self.error)),
            Some(Value::Bool(self.retryable)),
            self.retry_after.map(Value::from),
            self.hint.map(Value::String),
            Some(Value::String(self.correlation_id)),
            (!violations.is_empty()).then_some(Value::Array(violations)),
            self.details,
        ])
    }
}

impl Serialize for ErrorEnvelope {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let messages = self.violations.iter().map(Violation::message).collect();
        self.clone().into_json(messages).serialize(serializer)
    }
}

/// The `_meta` key that holds the [`ErrorEnvelope`] of every error result.
pub const ERROR_META_KEY: &str = "rs.mcp-tool/error";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names_are_snake_case_and_unique() {
        let mut names: Vec<&str> = ErrorCode::TABLE.iter().map(ErrorCode::as_str).collect();
        assert!(names.iter().all(|name| ErrorCode::is_valid_name(name)));
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ErrorCode::TABLE.len());
        for required in [
            "invalid_arguments",
            "not_found",
            "rate_limited",
            "timeout",
            "internal_error",
        ] {
            assert!(ErrorCode::lookup(required).is_some(), "{required}");
        }
    }

    #[test]
    fn retry_after_rounds_up_to_whole_seconds() {
        let error = ToolError::rate_limited("slow").with_retry_after(Duration::from_millis(1200));
        assert_eq!(error.retry_after(), Some(2));
        let zero = ToolError::rate_limited("slow").with_retry_after(Duration::ZERO);
        assert_eq!(zero.retry_after(), Some(1));
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
