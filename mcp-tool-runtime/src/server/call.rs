//! What every call needs of the server around its tool's run: who calls, the scope its
//! context holds, the round it answers on 2026-07-28, and the answer it ends with (an
//! unknown tool's and a cancelled call's among them).

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ErrorCode, ErrorData, Extensions,
    RequestMetaObject,
};
use rmcp::service::RequestContext;
use serde_json::json;

use super::McpServer;
use super::rounds::{Round, asks_in_rounds, binding};
use crate::dispatch::{CallOutcome, UnknownTool};
use crate::render::{CANCELLED_BY_CLIENT, echoed_datum};
use crate::tool::{Arguments, CallScope, Connected, Principal, Rounds, TaskLink, principal_of};

impl From<UnknownTool> for ErrorData {
    fn from(unknown: UnknownTool) -> Self {
        let data = json!({
            "tool": echoed_datum(&unknown.name),
            "suggestions": unknown.suggestions,
            "available": unknown.available,
        });
        ErrorData::invalid_params(unknown.to_string(), Some(data))
    }
}

/// The answer to a call the client cancelled, which rmcp drops.
#[cold]
pub(super) fn cancelled(tool: &str) -> ErrorData {
    tracing::info!(tool = %tool, "{}", CANCELLED_BY_CLIENT);
    ErrorData::new(
        ErrorCode::INTERNAL_ERROR,
        CANCELLED_BY_CLIENT.to_string(),
        None,
    )
}

impl<S> McpServer<S> {
    /// The caller, read only for a visibility rule: a call without one pays no extension
    /// lookup.
    pub(super) fn caller<'e>(&self, extensions: &'e Extensions) -> Option<&'e Principal> {
        match &self.inner.visibility {
            Some(_) => principal_of(extensions),
            None => None,
        }
    }

    /// What the tool's context holds of the call, and the call's cancellation.
    pub(super) fn call_scope(
        &self,
        context: RequestContext<RoleServer>,
        tool: Cow<'static, str>,
        round: Option<&Round>,
        task: Option<Arc<TaskLink>>,
    ) -> CallScope {
        let RequestContext {
            ct,
            id,
            meta,
            extensions,
            peer,
            ..
        } = context;
        let connected = Connected {
            peer,
            session: Arc::clone(&self.session),
            request_id: id,
            meta,
            extensions,
            tool,
            rounds: round.map(|(rounds, _)| Arc::clone(rounds)),
            task,
        };
        CallScope::connected(connected, ct)
    }

    /// The round of a call on protocol 2026-07-28: the answers it carries, unsealed, and
    /// the capabilities its client declared; `None` on the revisions before.
    pub(super) fn open_round(
        &self,
        request: &CallToolRequestParams,
        meta: &RequestMetaObject,
        extensions: &Extensions,
        arguments: Option<&Arguments>,
    ) -> Result<Option<Round>, ErrorData> {
        if !asks_in_rounds(meta) {
            return Ok(None);
        }
        let binding = binding(
            &request.name,
            arguments.map(Arguments::value),
            principal_of(extensions),
        );
        let answers = self.inner.sealer.answers(request, &binding)?;
        let capabilities = meta.client_capabilities().unwrap_or_default();
        Ok(Some((
            Arc::new(Rounds::new(capabilities, answers)),
            binding,
        )))
    }

    /// The answer to a call that ended without becoming a task.
    pub(super) fn end_call(
        &self,
        outcome: CallOutcome,
        round: Option<&Round>,
    ) -> Result<CallToolResponse, ErrorData> {
        let result = outcome.into_result();
        match round {
            None => Ok(result.into()),
            Some((rounds, binding)) => self.end_round(rounds, binding, result),
        }
    }

    /// The answer to a 2026-07-28 call: its questions if it asked any (whatever the tool
    /// returned after them), -32021 if it failed for a capability the client did not
    /// declare, otherwise its result.
    pub(super) fn end_round(
        &self,
        rounds: &Rounds,
        binding: &[u8],
        result: CallToolResult,
    ) -> Result<CallToolResponse, ErrorData> {
        if let Some(asked) = rounds.take_asked() {
            let sealer = &self.inner.sealer;
            return Ok(sealer
                .input_required(asked, rounds.answers(), binding)
                .into());
        }
        match rounds.missing() {
            Some(capability) if result.is_error == Some(true) => Err(
                ErrorData::missing_required_client_capability(capability.as_capabilities()),
            ),
            _ => Ok(result.into()),
        }
    }
}
