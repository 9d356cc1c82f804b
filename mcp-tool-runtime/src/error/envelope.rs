//! The error envelope: the machine-readable form of an error result, as it goes on the wire.

use serde::Serialize;
use serde_json::Value;

use super::code::ErrorClass;

/// The `_meta` key that holds the [`ErrorEnvelope`] of every error result.
pub const META_KEY: &str = "rs.mcp-tool/error";

/// The structured form of an error result, found under [`META_KEY`] in the result's
/// `_meta`.
///
/// For argument problems, the wire holds the facts a program acts on, not the sentences:
/// `error` and each violation's `expected` and `message` are left out there, because the
/// result's text says them line by line and clients such as google-genai show the model the
/// whole result, `_meta` included. `client::RemoteError::of` (feature `client`) reads `error`
/// and each `message` back from the text.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorEnvelope {
    /// The stable code, such as `invalid_arguments`.
    pub code: String,
    /// Who has to act: input, dependency or system.
    pub class: ErrorClass,
    /// The message: the first line of the result's text (on the wire only when there are
    /// no violations).
    pub error: String,
    /// Whether the same call may succeed later.
    pub retryable: bool,
    /// Seconds to wait before retrying.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<u64>,
    /// How to fix or work around the problem.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// The id under which the server logged this error.
    pub correlation_id: String,
    /// One entry per argument problem, the first 20 when there are more.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub violations: Vec<ViolationEntry>,
    /// How many argument problems there are, when `violations` holds only the first of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub violations_total: Option<usize>,
    /// Extra machine-readable details from the tool author.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<Value>,
}

/// One argument problem in the envelope.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ViolationEntry {
    /// Where the problem is, as code writes it: `items[2].quantity`.
    pub path: String,
    /// The kind of problem, such as `type_mismatch` (see
    /// [`ViolationKind::problem`](crate::error::ViolationKind::problem)).
    pub problem: &'static str,
    /// What was expected, as a phrase (not on the wire: the text's sentence says it).
    #[serde(skip)]
    pub expected: Option<String>,
    /// The value received, cut when it is too large to echo back.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub received: Option<Value>,
    /// Every allowed value (of an enum); the valid names of an unknown argument are in the
    /// text only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allowed: Option<Vec<Value>>,
    /// The allowed value or name closest to what was received.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<Value>,
    /// The sentence the model reads: the text's line for this problem (not on the wire).
    #[serde(skip)]
    pub message: String,
}
