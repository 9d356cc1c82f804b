//! The rounds of a 2026-07-28 `tools/call` that asks the client for input (SEP-2322): the
//! answers given so far travel in the `requestState`, sealed with an HMAC so that a client
//! cannot forge or alter them, and bound to the tool, its arguments and the caller so that
//! they cannot be replayed into another call.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, ErrorData, InputRequests, InputRequiredResult, RequestMetaObject,
    RequestStateCodec, SealOptions,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::dispatch::RegistryError;
use crate::render::tampered_state;
use crate::tool::{Principal, Rounds};

/// How long a sealed state stays valid by default: a question may wait for a person.
pub(crate) const DEFAULT_STATE_TTL: Duration = Duration::from_secs(60 * 60);

/// What a `requestState` carries from one round to the next.
#[derive(Serialize, Deserialize)]
struct State {
    /// The answers given in earlier rounds, by question key.
    answers: BTreeMap<String, Value>,
    /// The keys the last round asked for: only their answers are taken from the retry.
    asked: Vec<String>,
}

/// Seals and opens the request state of every call of one server.
pub(crate) struct Sealer {
    codec: RequestStateCodec,
    ttl: Duration,
}

impl Sealer {
    /// A sealer with `key`, or with a random one: a server whose instances share a load
    /// balancer must give them all the same key.
    pub(crate) fn new(key: Option<Vec<u8>>, ttl: Duration) -> Result<Self, RegistryError> {
        let key = key.unwrap_or_else(random_key);
        let length = key.len();
        let codec = RequestStateCodec::try_new(key)
            .map_err(|_| RegistryError::RequestStateKeyTooShort { length })?;
        Ok(Self { codec, ttl })
    }

    /// The answers the client has given to this call: those sealed in its `requestState`
    /// (refused with -32602 when the state was altered, expired or belongs to another call)
    /// and its `inputResponses` to the last round's questions. Answers without a state are
    /// not trusted, so the questions are asked again.
    pub(crate) fn answers(
        &self,
        request: &CallToolRequestParams,
        binding: &[u8],
    ) -> Result<BTreeMap<String, Value>, ErrorData> {
        let Some(sealed) = &request.request_state else {
            return Ok(BTreeMap::new());
        };
        let state: State = self
            .codec
            .open_json_with(sealed, binding)
            .map_err(|error| {
                tracing::info!(tool = %request.name, %error, "a requestState was refused");
                ErrorData::invalid_params(tampered_state(&error.to_string()), None)
            })?;
        let mut answers = state.answers;
        if let Some(responses) = &request.input_responses {
            for key in state.asked {
                if let Some(answer) = responses.get(&key) {
                    answers.insert(key, answer.clone());
                }
            }
        }
        Ok(answers)
    }

    /// The result that ends a round with `asked`, carrying `answers` to the next.
    pub(crate) fn input_required(
        &self,
        asked: InputRequests,
        answers: &BTreeMap<String, Value>,
        binding: &[u8],
    ) -> InputRequiredResult {
        let state = State {
            answers: answers.clone(),
            asked: asked.keys().cloned().collect(),
        };
        let options = SealOptions::new().associated_data(binding).ttl(self.ttl);
        // A map of strings and JSON values always serializes; without a state the client's
        // answers would not be trusted, and the questions would come back.
        let sealed = self.codec.seal_json_with(&state, &options).ok();
        InputRequiredResult::new(Some(asked), sealed)
    }
}

/// What a sealed state is bound to: the tool, its arguments as sent, and the caller.
pub(crate) fn binding(
    tool: &str,
    arguments: Option<&Value>,
    principal: Option<&Principal>,
) -> Vec<u8> {
    let arguments = arguments.map(Value::to_string).unwrap_or_default();
    let caller = principal.map(Principal::subject).unwrap_or_default();
    [tool, &arguments, caller].join("\u{0}").into_bytes()
}

/// A 2026-07-28 call's rounds, and what binds its sealed answers to it.
pub(super) type Round = (Arc<Rounds>, Vec<u8>);

/// Whether a request runs on protocol 2026-07-28, whose questions to the client end the call
/// with an `InputRequiredResult` rather than go out as requests.
// In line in each call (`Arguments::checked` says why).
#[inline]
pub(super) fn asks_in_rounds(meta: &RequestMetaObject) -> bool {
    meta.protocol_version()
        .is_some_and(|version| !version.has_initialize())
}

/// 32 bytes from the operating system's generator (244 of them random), through two
/// version-4 UUIDs: uuid is already a dependency, and its `v4` reads getrandom.
fn random_key() -> Vec<u8> {
    let mut key = uuid::Uuid::new_v4().as_bytes().to_vec();
    key.extend_from_slice(uuid::Uuid::new_v4().as_bytes());
    key
}
