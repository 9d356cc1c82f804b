//! Why a tool's message or question to the client failed, and what the model reads then.

#![allow(deprecated)] // rmcp marks sampling and roots deprecated (SEP-2577); older peers use both.

use std::fmt;

use rmcp::model::{ClientCapabilities, ElicitationCapability};
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
    /// The client did not declare the capability the question needs (when it connected, or
    /// in the request's `_meta` on protocol 2026-07-28).
    NotDeclared(ClientCapability),
    /// A 2026-07-28 call asked the client for input it has not given yet: the call ends with
    /// an `InputRequiredResult`, and the client calls again with the answer. Pass it on with
    /// `?`; whatever the tool returns after it is not sent.
    InputRequired,
    /// The client's answer to a question does not parse as the answer to its kind of request.
    Response {
        /// The question's key.
        key: String,
        /// serde's error.
        error: serde_json::Error,
    },
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
    /// The shared store (tasks, rate limits) could not be reached; the call may be retried.
    Store(crate::store::StoreError),
    /// The task the call runs as was cancelled (`tasks/cancel`) while the tool waited for an
    /// answer.
    Cancelled,
    /// A question or answer of the task would pass the server's size limit for a task.
    TaskTooLarge,
    /// The URL of a URL-mode elicitation does not parse.
    Url {
        /// The text given.
        url: String,
        /// Why it does not parse.
        error: url::ParseError,
    },
}

/// A capability a client declares for the server's questions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClientCapability {
    /// Elicitation, in a mode (form or URL).
    Elicitation(ElicitationMode),
    /// Sampling: the model, through `sampling/createMessage`.
    Sampling,
    /// `roots/list`.
    Roots,
}

impl ClientCapability {
    /// How the log names it: "form elicitation", "sampling".
    pub(crate) fn phrase(self) -> &'static str {
        match self {
            Self::Elicitation(ElicitationMode::Url) => "URL elicitation",
            Self::Elicitation(_) => "form elicitation",
            Self::Sampling => "sampling",
            Self::Roots => "roots",
        }
    }

    /// The `ClientCapabilities` that declare it, as a -32021 error names them.
    pub(crate) fn as_capabilities(self) -> ClientCapabilities {
        let mut capabilities = ClientCapabilities::default();
        match self {
            Self::Elicitation(mode) => {
                let mut elicitation = ElicitationCapability::default();
                match mode {
                    ElicitationMode::Url => elicitation.url = Some(Default::default()),
                    _ => elicitation.form = Some(Default::default()),
                }
                capabilities.elicitation = Some(elicitation);
            }
            Self::Sampling => capabilities.sampling = Some(Default::default()),
            Self::Roots => capabilities.roots = Some(Default::default()),
        }
        capabilities
    }
}

/// What the model reads when the client did not declare `capability`.
fn not_declared(capability: ClientCapability) -> String {
    match capability {
        ClientCapability::Elicitation(ElicitationMode::Url) => {
            render::elicitation_not_declared("URL")
        }
        ClientCapability::Elicitation(_) => render::elicitation_not_declared("form"),
        ClientCapability::Sampling => render::SAMPLING_NOT_DECLARED.to_string(),
        ClientCapability::Roots => render::ROOTS_NOT_DECLARED.to_string(),
    }
}

impl fmt::Display for ContextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Client(error) => write!(f, "cannot reach the client: {error}"),
            Self::Detached => f.write_str("the call has no client to ask (an in-process call)"),
            Self::NotDeclared(capability) => write!(
                f,
                "the client did not declare {} in its capabilities",
                capability.phrase()
            ),
            Self::InputRequired => f.write_str("the call waits for the client's input"),
            Self::Response { key, error } => {
                write!(f, "the client's answer to '{key}' does not parse: {error}")
            }
            Self::Form { type_name, problem } => {
                write!(f, "`{type_name}` cannot be an elicitation form: {problem}")
            }
            Self::Answer { type_name, error } => {
                write!(f, "the user's answer does not fit `{type_name}`: {error}")
            }
            Self::Url { url, error } => write!(f, "invalid elicitation URL '{url}': {error}"),
            Self::Store(error) => error.fmt(f),
            Self::Cancelled => f.write_str("the task was cancelled"),
            Self::TaskTooLarge => f.write_str("the task would pass the size limit for a task"),
        }
    }
}

impl std::error::Error for ContextError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Client(error) => Some(error),
            Self::Answer { error, .. } | Self::Response { error, .. } => Some(error),
            Self::Url { error, .. } => Some(error),
            Self::Store(error) => Some(error),
            Self::Detached
            | Self::NotDeclared(_)
            | Self::InputRequired
            | Self::Form { .. }
            | Self::Cancelled
            | Self::TaskTooLarge => None,
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
            Self::NotDeclared(capability) => {
                ToolError::unavailable(not_declared(*capability)).with_retryable(false)
            }
            Self::Answer { error, .. } => {
                ToolError::upstream(render::unusable_answer(&error.to_string()))
            }
            // Never shown: the round's InputRequiredResult replaces whatever the tool returns.
            // Not internal either, which would log a failure for every round.
            Self::InputRequired => ToolError::unavailable(render::WAITING_FOR_INPUT),
            Self::Store(_) => ToolError::unavailable(render::STORE_UNAVAILABLE)
                .with_retry_after(std::time::Duration::from_secs(1)),
            Self::Cancelled => ToolError::new(crate::ErrorCode::CANCELLED, render::TASK_CANCELLED),
            Self::TaskTooLarge => ToolError::internal(self),
            Self::Client(_) | Self::Form { .. } | Self::Url { .. } | Self::Response { .. } => {
                ToolError::internal(self)
            }
        }
    }
}

crate::register_error_mapping!(ContextError);
