//! A tool's questions to the client (elicitation, sampling, roots), on both protocol
//! revisions from the same code.
//!
//! Up to 2025-11-25 a question is a server-to-client request sent while the tool waits. In
//! 2026-07-28 the server may not send requests: the call ends with an `InputRequiredResult`
//! naming what it needs, and the client calls again with the answers (SEP-2322). A tool here
//! is re-run from the start on each round; each question finds its answer by its key, and
//! the first unanswered one ends the round. Answers of earlier rounds travel, sealed, in the
//! `requestState` (see `server::rounds`).

#![allow(deprecated)] // rmcp marks sampling and roots deprecated (SEP-2577); older peers use both.

use std::borrow::Cow;

use rmcp::RoleServer;
use rmcp::model::{
    ClientCapabilities, CreateMessageRequest, CreateMessageRequestParams, CreateMessageResult,
    ElicitRequest, ElicitRequestParams, ElicitResult, InputRequest, ListRootsRequest,
    ListRootsResult,
};
use rmcp::service::{ElicitationMode, Peer};

use super::context::ToolContext;
use super::context_error::{ClientCapability as Missing, ContextError};
use super::rounds::Rounds;
use super::task::TaskLink;

/// Whether `capabilities` declare what `missing` names.
fn declares(capabilities: &ClientCapabilities, missing: Missing) -> bool {
    match missing {
        Missing::Elicitation(ElicitationMode::Url) => capabilities
            .elicitation
            .as_ref()
            .is_some_and(|elicitation| elicitation.url.is_some()),
        // A bare `elicitation: {}` declares form mode (spec 2025-11-25).
        Missing::Elicitation(_) => capabilities
            .elicitation
            .as_ref()
            .is_some_and(|elicitation| elicitation.form.is_some() || elicitation.url.is_none()),
        Missing::Sampling => capabilities.sampling.is_some(),
        Missing::Roots => capabilities.roots.is_some(),
    }
}

/// One question to the client, under a key of the tool's choosing or a generated one.
///
/// Made by [`ToolContext::input`]; [`ToolContext::elicit`], [`ToolContext::sample`] and
/// [`ToolContext::roots`] are the same questions with a generated key.
#[derive(Debug, Clone)]
pub struct Question<'a> {
    context: &'a ToolContext,
    key: Option<Cow<'static, str>>,
}

impl<'a> Question<'a> {
    pub(crate) fn new(context: &'a ToolContext, key: Option<Cow<'static, str>>) -> Self {
        Self { context, key }
    }

    /// Asks the model through the client (`sampling/createMessage`).
    ///
    /// Errors: [`ContextError::Detached`], [`ContextError::NotDeclared`] when the client did
    /// not declare sampling, [`ContextError::Client`] and [`ContextError::Response`] when its
    /// answer fails or does not parse, [`ContextError::InputRequired`] on a 2026-07-28 call
    /// until the client answers (pass it on with `?`).
    pub async fn sample(
        self,
        params: CreateMessageRequestParams,
    ) -> Result<CreateMessageResult, ContextError> {
        match self.route(Missing::Sampling)? {
            Route::Peer(peer) => Ok(peer.create_message(params).await?),
            Route::Rounds(rounds) => {
                let key = rounds.key(self.key, "sampling");
                rounds.answer(key, || {
                    InputRequest::CreateMessage(CreateMessageRequest::new(params))
                })
            }
            Route::Task(task) => {
                let key = task.key(self.key, "sampling");
                let request = InputRequest::CreateMessage(CreateMessageRequest::new(params));
                task.answer(key, request).await
            }
        }
    }

    /// Asks the client for its roots (`roots/list`).
    ///
    /// Errors: as [`Question::sample`], with roots in place of sampling.
    pub async fn roots(self) -> Result<ListRootsResult, ContextError> {
        match self.route(Missing::Roots)? {
            Route::Peer(peer) => Ok(peer.list_roots().await?),
            Route::Rounds(rounds) => {
                let key = rounds.key(self.key, "roots");
                rounds.answer(key, || InputRequest::ListRoots(ListRootsRequest::default()))
            }
            Route::Task(task) => {
                let key = task.key(self.key, "roots");
                let request = InputRequest::ListRoots(ListRootsRequest::default());
                task.answer(key, request).await
            }
        }
    }

    /// Sends an elicitation request and returns the client's raw answer.
    pub(crate) async fn elicitation(
        self,
        params: ElicitRequestParams,
    ) -> Result<ElicitResult, ContextError> {
        let mode = match params {
            ElicitRequestParams::UrlElicitationParams { .. } => ElicitationMode::Url,
            _ => ElicitationMode::Form,
        };
        match self.route(Missing::Elicitation(mode))? {
            Route::Peer(peer) => Ok(peer.create_elicitation(params).await?),
            Route::Rounds(rounds) => {
                let key = rounds.key(self.key, "elicitation");
                rounds.answer(key, || {
                    InputRequest::Elicitation(ElicitRequest::new(params))
                })
            }
            Route::Task(task) => {
                let key = task.key(self.key, "elicitation");
                let request = InputRequest::Elicitation(ElicitRequest::new(params));
                task.answer(key, request).await
            }
        }
    }

    /// Where the question goes: into the task the call runs as, into the round's result, or
    /// to the connected client now.
    fn route(&self, needed: Missing) -> Result<Route<'a>, ContextError> {
        if let Some(task) = self.context.task() {
            return if declares(&task.capabilities, needed) {
                Ok(Route::Task(task))
            } else {
                Err(ContextError::NotDeclared(needed))
            };
        }
        if let Some(rounds) = self.context.rounds() {
            return if declares(&rounds.capabilities, needed) {
                Ok(Route::Rounds(rounds))
            } else {
                Err(rounds.refuse(needed))
            };
        }
        let peer = self.context.peer().ok_or(ContextError::Detached)?;
        let declared = peer
            .peer_info()
            .is_some_and(|info| declares(&info.capabilities, needed));
        if declared {
            Ok(Route::Peer(peer))
        } else {
            Err(ContextError::NotDeclared(needed))
        }
    }
}

enum Route<'a> {
    Peer(&'a Peer<RoleServer>),
    Rounds(&'a Rounds),
    Task(&'a TaskLink),
}

/// The questions a tool asks through its context.
impl ToolContext {
    /// Asks the model through the client (`sampling/createMessage`), on either protocol
    /// revision: see [`ToolContext::elicit`] for how a 2026-07-28 call waits for the answer.
    /// Its key there is generated (`sampling-1`, …); [`ToolContext::input`] names it.
    ///
    /// Errors: as [`Question::sample`].
    pub async fn sample(
        &self,
        params: CreateMessageRequestParams,
    ) -> Result<CreateMessageResult, ContextError> {
        self.input_question(None).sample(params).await
    }

    /// Asks the client for its roots (`roots/list`), on either protocol revision. Its key on
    /// 2026-07-28 is generated (`roots-1`, …).
    ///
    /// Errors: as [`Question::roots`].
    pub async fn roots(&self) -> Result<ListRootsResult, ContextError> {
        self.input_question(None).roots().await
    }

    /// A question under `key`: the key of its request in a 2026-07-28
    /// `InputRequiredResult`, which the client answers under the same key. Keys are unique
    /// within a call; on older revisions the key is not sent.
    ///
    /// ```
    /// use mcp_tool_runtime::{Elicitation, ToolContext, ToolError, mcp_tool};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Name {
    ///     name: String,
    /// }
    ///
    /// /// Greet the user by name.
    /// #[mcp_tool]
    /// async fn greet(ctx: ToolContext) -> Result<String, ToolError> {
    ///     let answer = ctx.input("user_name").elicit::<Name>("What is your name?").await?;
    ///     Ok(match answer {
    ///         Elicitation::Accepted(Name { name }) => format!("Hello, {name}!"),
    ///         _ => "Hello!".to_string(),
    ///     })
    /// }
    /// let server = mcp_tool_runtime::McpServer::builder(()).tool(greet_tool()).build()?;
    /// # Ok::<(), mcp_tool_runtime::registry::RegistryError>(())
    /// ```
    pub fn input(&self, key: impl Into<Cow<'static, str>>) -> Question<'_> {
        self.input_question(Some(key.into()))
    }

    pub(crate) fn input_question(&self, key: Option<Cow<'static, str>>) -> Question<'_> {
        Question::new(self, key)
    }
}
