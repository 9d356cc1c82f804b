//! What a 2026-07-28 call has been told and has asked for: the answers it carries and the
//! questions its tool asks (see `asking`, which asks them).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use rmcp::model::{ClientCapabilities, InputRequest, InputRequests};
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::context_error::{ClientCapability as Missing, ContextError};

/// What a 2026-07-28 call has been told and has asked for, round by round.
#[derive(Debug, Default)]
pub(crate) struct Rounds {
    /// The client's answers so far, by key: those sealed in the request state, and those of
    /// the last round.
    answers: BTreeMap<String, Value>,
    /// What the client declared in this request's `_meta`.
    pub(super) capabilities: ClientCapabilities,
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

    pub(super) fn key(&self, key: Option<Cow<'static, str>>, kind: &str) -> String {
        match key {
            Some(key) => key.into_owned(),
            None => {
                let number = self.unnamed.fetch_add(1, Ordering::Relaxed) + 1;
                format!("{kind}-{number}")
            }
        }
    }

    /// The answer to `key`, or the question registered for the next round.
    pub(super) fn answer<T: DeserializeOwned>(
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

    pub(super) fn refuse(&self, missing: Missing) -> ContextError {
        *lock(&self.missing) = Some(missing);
        ContextError::NotDeclared(missing)
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
