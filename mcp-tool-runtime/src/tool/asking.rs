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
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use rmcp::RoleServer;
use rmcp::model::{
    ClientCapabilities, CreateMessageRequest, CreateMessageRequestParams, CreateMessageResult,
    ElicitRequest, ElicitRequestParams, ElicitResult, InputRequest, InputRequests,
    ListRootsRequest, ListRootsResult,
};
use rmcp::service::{ElicitationMode, Peer};
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::context::ToolContext;
use super::context_error::{ClientCapability as Missing, ContextError};

/// What a 2026-07-28 call has been told and has asked for, round by round.
#[derive(Debug, Default)]
pub(crate) struct Rounds {
    /// The client's answers so far, by key: those sealed in the request state, and those of
    /// the last round.
    answers: BTreeMap<String, Value>,
    /// What the client declared in this request's `_meta`.
    capabilities: ClientCapabilities,
    /// The questions asked and not yet answered; a non-empty set ends the round.
    asked: Mutex<InputRequests>,
    /// A capability the tool needed and the client did not declare.
    missing: Mutex<Option<Missing>>,
    /// The number of questions asked without a key, which names the next one.
    unnamed: AtomicUsize,
}

impl Rounds {
    /// The rounds of a call whose client declared `capabilities` and gave `answers`.
    pub(crate) fn new(capabilities: ClientCapabilities, answers: BTreeMap<String, Value>) -> Self {
        Self {
            answers,
            capabilities,
            ..Self::default()
        }
    }

    /// The questions this round asked, if any: the call then ends with them.
    pub(crate) fn take_asked(&self) -> Option<InputRequests> {
        let asked = std::mem::take(&mut *lock(&self.asked));
        (!asked.is_empty()).then_some(asked)
    }

    /// The answers to carry into the next round.
    pub(crate) fn answers(&self) -> &BTreeMap<String, Value> {
        &self.answers
    }

    /// The capability a failed call needed and the client did not declare.
    pub(crate) fn missing(&self) -> Option<Missing> {
        *lock(&self.missing)
    }

    fn key(&self, key: Option<Cow<'static, str>>, kind: &str) -> String {
        match key {
            Some(key) => key.into_owned(),
            None => {
                let number = self.unnamed.fetch_add(1, Ordering::Relaxed) + 1;
                format!("{kind}-{number}")
            }
        }
    }

    /// The answer to `key`, or the question registered for the next round.
    fn answer<T: DeserializeOwned>(
        &self,
        key: String,
        question: impl FnOnce() -> InputRequest,
    ) -> Result<T, ContextError> {
        match self.answers.get(&key) {
            Some(answer) => serde_json::from_value(answer.clone())
                .map_err(|error| ContextError::Response { key, error }),
            None => {
                lock(&self.asked).insert(key, question());
                Err(ContextError::InputRequired)
            }
        }
    }

    fn refuse(&self, missing: Missing) -> ContextError {
        *lock(&self.missing) = Some(missing);
        ContextError::NotDeclared(missing)
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

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
        }
    }

    /// Where the question goes: to the connected client now, or into the round's result.
    fn route(&self, needed: Missing) -> Result<Route<'a>, ContextError> {
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
}
