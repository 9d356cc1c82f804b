//! Why a tool's message or question to the client failed, and what the model reads then.

use std::fmt;

use rmcp::service::{ElicitationMode, ServiceError};

use crate::error::{IntoToolError, ToolError};
use crate::render;

/// Why a message to the client, or a question to the user through it, failed.
///
/// `?` turns it into the tool's error: a question the client cannot take (no client, an
/// undeclared elicitation mode) is `unavailable`, not retryable; an answer that does not fit
/// the form is `upstream_error`; the rest (the client unreachable, a type that cannot be a
/// form, an invalid URL) is masked as an internal error, with the cause in the log.
#[derive(Debug)]
#[non_exhaustive]
pub enum ContextError {
    /// The message could not be sent, or the client answered the request with an error.
    Client(ServiceError),
    /// The call has no client to ask: it was made in-process
    /// ([`McpServer::call`](crate::McpServer::call)).
    Detached,
    /// The client did not declare this mode of elicitation when it connected.
    Unsupported(ElicitationMode),
    /// The type asked for cannot be an elicitation form (the spec allows a flat object of
    /// strings, numbers, integers, booleans and lists of choices).
    Form {
        /// The type asked for.
        type_name: &'static str,
        /// Why, naming the field.
        problem: String,
    },
    /// The user accepted, but the content does not deserialize into the type asked for.
    Answer {
        /// The type asked for.
        type_name: &'static str,
        /// serde's error.
        error: serde_json::Error,
    },
    /// The URL of a URL-mode elicitation does not parse.
    Url {
        /// The text given.
        url: String,
        /// Why it does not parse.
        error: url::ParseError,
    },
}

fn mode_name(mode: ElicitationMode) -> &'static str {
    match mode {
        ElicitationMode::Url => "URL",
        _ => "form",
    }
}

impl fmt::Display for ContextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Client(error) => write!(f, "cannot reach the client: {error}"),
            Self::Detached => f.write_str("the call has no client to ask (an in-process call)"),
            Self::Unsupported(mode) => write!(
                f,
                "the client did not declare {} elicitation in its capabilities",
                mode_name(*mode)
            ),
            Self::Form { type_name, problem } => {
                write!(f, "`{type_name}` cannot be an elicitation form: {problem}")
            }
            Self::Answer { type_name, error } => {
                write!(f, "the user's answer does not fit `{type_name}`: {error}")
            }
            Self::Url { url, error } => write!(f, "invalid elicitation URL '{url}': {error}"),
        }
    }
}

impl std::error::Error for ContextError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Client(error) => Some(error),
            Self::Answer { error, .. } => Some(error),
            Self::Url { error, .. } => Some(error),
            Self::Detached | Self::Unsupported(_) | Self::Form { .. } => None,
        }
    }
}

impl From<ServiceError> for ContextError {
    fn from(error: ServiceError) -> Self {
        Self::Client(error)
    }
}

impl IntoToolError for ContextError {
    fn into_tool_error(self) -> ToolError {
        match &self {
            Self::Detached => {
                ToolError::unavailable(render::NO_CLIENT_TO_ASK).with_retryable(false)
            }
            Self::Unsupported(mode) => {
                ToolError::unavailable(render::elicitation_unsupported(mode_name(*mode)))
                    .with_retryable(false)
            }
            Self::Answer { error, .. } => {
                ToolError::upstream(render::unusable_answer(&error.to_string()))
            }
            Self::Client(_) | Self::Form { .. } | Self::Url { .. } => ToolError::internal(self),
        }
    }
}

crate::register_error_mapping!(ContextError);
