//! Calls that run as tasks (the tasks extension of 2026-07-28, SEP-2663): whether a call
//! runs as one, starting it, running it to its end in the background, and `tasks/get`,
//! `tasks/update` and `tasks/cancel`, which any instance sharing the store answers.

use std::borrow::Cow;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use rmcp::RoleServer;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, ErrorCode as RpcCode, ErrorData,
    Extensions, GetTaskResult, JsonObject, TaskStatus,
};
use rmcp::service::RequestContext;
use serde_json::{Value, json};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use super::McpServer;
use super::call::cancelled;
use super::handoff::CallArguments;
use super::rounds::Round;
use crate::dispatch::{CallOutcome, ToolRegistry, error_result};
use crate::error::{ErrorCode, IntoToolError, META_KEY, Violation};
use crate::render;
use crate::store::StoreError;
use crate::tool::{
    Arguments, CallScope, ContextError, Started, TaskLink, TaskRecord, TaskStart, TaskSupport,
    TaskWriteError, principal_of,
};

/// How long a cancelled tool may take to stop after its context is cancelled, before its
/// call is dropped.
const CANCEL_GRACE: Duration = Duration::from_secs(2);

/// How long the end of a task is retried while the store is unreachable.
const SETTLE_PATIENCE: Duration = Duration::from_secs(60);

/// Who may see a task: the caller's subject, when a token verifier named one.
fn owner_of(extensions: &Extensions) -> Option<String> {
    principal_of(extensions).map(|principal| principal.subject().to_string())
}

/// What a task method answers when the store cannot be reached: retryable, after a second.
pub(super) fn store_unavailable(error: &StoreError) -> ErrorData {
    tracing::warn!(%error, "the shared store is unavailable");
    ErrorData::new(
        RpcCode::INTERNAL_ERROR,
        render::STORE_UNAVAILABLE,
        Some(json!({"code": "unavailable", "retryable": true, "retryAfter": 1})),
    )
}

fn unknown_task(id: &str) -> ErrorData {
    ErrorData::invalid_params(render::unknown_task(id), None)
}

/// A call on its way to becoming a task: what the background run needs.
struct TaskCall {
    name: Cow<'static, str>,
    arguments: Option<Arguments>,
    refused: Option<Violation>,
    scope: CallScope,
    link: Arc<TaskLink>,
    start: TaskStart,
}

/// Aborts the background run if the request ends before the task started.
struct AbortUnlessStarted(Option<tokio::task::JoinHandle<()>>);

impl Drop for AbortUnlessStarted {
    fn drop(&mut self) {
        if let Some(handle) = self.0.take() {
            handle.abort();
        }
    }
}

/// How the request for a task-supporting call ends: with the task, or, when the tool never
/// started one (an explicit start it did not reach), with the call's own outcome.
enum Answered {
    Task(CallToolResponse),
    Plain(CallOutcome),
    Cancelled,
}

/// Whether a call of a tool with `support` runs as a task: when the tool allows it and the
/// client declared the tasks extension (when it connected, or in this request's `_meta`).
/// -32021 for a tool that requires it from a client that did not.
// In line in each call (`Arguments::checked` says why).
#[inline]
pub(super) fn runs_as_task(
    support: TaskSupport,
    context: &RequestContext<RoleServer>,
) -> Result<bool, ErrorData> {
    if support == TaskSupport::Forbidden {
        return Ok(false);
    }
    let declared = context
        .client_capabilities()
        .is_some_and(|capabilities| capabilities.supports_tasks());
    if support == TaskSupport::Required && !declared {
        return Err(ErrorData::missing_required_client_capability(
            ClientCapabilities::builder().enable_tasks().build(),
        ));
    }
    Ok(declared)
}

impl<S: Send + Sync + 'static> McpServer<S> {
    /// A call that runs as a task: in the background, its own cancellation apart from the
    /// request's, answered with the task as soon as it starts.
    pub(super) async fn call_in_task(
        &self,
        request: &CallToolRequestParams,
        context: RequestContext<RoleServer>,
        arguments: CallArguments,
        start: TaskStart,
        round: Option<Round>,
    ) -> Result<CallToolResponse, ErrorData> {
        let capabilities = declared(context.client_capabilities());
        let owner = owner_of(&context.extensions);
        let (link, started) = TaskLink::new(self.inner.tasks.clone(), owner, capabilities);
        let link = Arc::new(link);
        let request_cancel = context.ct.clone();
        let name: Cow<'static, str> = Cow::Owned(request.name.to_string());
        let mut scope_context = context;
        scope_context.ct = CancellationToken::new();
        let scope = self.call_scope(
            scope_context,
            name.clone(),
            round.as_ref(),
            Some(Arc::clone(&link)),
        );
        let call = TaskCall {
            name,
            arguments: arguments.sent,
            refused: arguments.refused,
            scope,
            link,
            start,
        };
        match self.call_as_task(call, request_cancel, started).await {
            Answered::Task(created) => Ok(created),
            Answered::Plain(outcome) => self.end_call(outcome, round.as_ref()),
            Answered::Cancelled => Err(cancelled(&request.name)),
        }
    }

    /// Runs `call` in the background and answers with its task as soon as it starts.
    async fn call_as_task(
        &self,
        call: TaskCall,
        request_cancel: CancellationToken,
        started: Started,
    ) -> Answered {
        let (done, finished) = oneshot::channel();
        let server = self.clone();
        let registry = self.inner.live.load_full();
        let handle = tokio::spawn(async move { server.run_task(registry, call, done).await });
        let mut guard = AbortUnlessStarted(Some(handle));
        let (mut started, mut finished) = (started, finished);
        let mut may_start = true;
        loop {
            tokio::select! {
                biased;
                created = &mut started, if may_start => match created {
                    Ok(created) => {
                        guard.0 = None;
                        return Answered::Task(CallToolResponse::Task(created));
                    }
                    // The run ends without a task: its outcome follows.
                    Err(_) => may_start = false,
                },
                outcome = &mut finished => {
                    return outcome.map_or(Answered::Cancelled, Answered::Plain);
                }
                () = request_cancel.cancelled() => return Answered::Cancelled,
            }
        }
    }

    /// The background run of a task's call: starts the task (unless the tool starts it),
    /// runs the call, watching the store for a cancel, and writes how it ended.
    async fn run_task(
        self,
        registry: Arc<ToolRegistry<S>>,
        call: TaskCall,
        done: oneshot::Sender<CallOutcome>,
    ) {
        let TaskCall {
            name,
            arguments,
            refused,
            scope,
            link,
            start,
        } = call;
        let Some(tool) = registry.get(&name) else {
            return;
        };
        if start == TaskStart::Call
            && let Err(error) = link.start().await
        {
            let _ = done.send(error_result(
                tool.info(),
                ContextError::Store(error).into_tool_error(),
            ));
            return;
        }
        let limit = self.inner.default_timeout;
        let run = self.run_call(&registry, tool, arguments.as_ref(), refused, &scope, limit);
        let outcome = until_cancelled(run, &link, &scope).await;
        match link.id() {
            Some(id) => settle(&link, &id, outcome).await,
            None => {
                if let Some(outcome) = outcome {
                    let _ = done.send(outcome);
                }
            }
        }
    }

    /// The task `id` if it exists and the caller may see it.
    async fn visible_task(
        &self,
        id: &str,
        extensions: &Extensions,
    ) -> Result<TaskRecord, ErrorData> {
        let record = self
            .inner
            .tasks
            .load(id)
            .await
            .map_err(|error| store_unavailable(&error))?;
        match record {
            Some(record) if record.owner == owner_of(extensions) => Ok(record),
            _ => Err(unknown_task(id)),
        }
    }

    /// `tasks/get`: the task as it stands, its result or error inlined once it ended.
    pub(super) async fn get_task_now(
        &self,
        id: &str,
        extensions: &Extensions,
    ) -> Result<GetTaskResult, ErrorData> {
        let record = self.visible_task(id, extensions).await?;
        Ok(GetTaskResult::new(record.detailed()))
    }

    /// `tasks/update`: the answers to the task's open questions; other keys are ignored.
    pub(super) async fn update_task_now(
        &self,
        id: &str,
        responses: &rmcp::model::InputResponses,
        extensions: &Extensions,
    ) -> Result<(), ErrorData> {
        self.visible_task(id, extensions).await?;
        let tasks = &self.inner.tasks;
        match tasks.modify(id, |record| record.answer(responses)).await {
            Ok(Some(_)) => Ok(()),
            Ok(None) => Err(unknown_task(id)),
            Err(TaskWriteError::Store(error)) => Err(store_unavailable(&error)),
            Err(TaskWriteError::TooLarge) => Err(ErrorData::invalid_params(
                render::task_too_large(tasks.settings.max_bytes),
                None,
            )),
        }
    }

    /// `tasks/cancel`: the task ends as `cancelled` (unless it already ended); the instance
    /// running it sees that and cancels the tool's context.
    pub(super) async fn cancel_task_now(
        &self,
        id: &str,
        extensions: &Extensions,
    ) -> Result<(), ErrorData> {
        self.visible_task(id, extensions).await?;
        let cancel = |record: &mut TaskRecord| record.settle(TaskStatus::Cancelled, None, None);
        match self.inner.tasks.modify(id, cancel).await {
            Ok(Some(_)) => Ok(()),
            Ok(None) => Err(unknown_task(id)),
            Err(TaskWriteError::Store(error)) => Err(store_unavailable(&error)),
            Err(TaskWriteError::TooLarge) => Ok(()),
        }
    }
}

/// The capabilities a task's questions are checked against.
fn declared(capabilities: Option<ClientCapabilities>) -> ClientCapabilities {
    capabilities.unwrap_or_default()
}

/// Runs `call` until it ends, or until the task is cancelled in the store: the tool's
/// context is then cancelled, and the call dropped if it has not stopped within
/// [`CANCEL_GRACE`]. `None` when it was dropped.
async fn until_cancelled(
    call: impl Future<Output = CallOutcome>,
    link: &TaskLink,
    scope: &CallScope,
) -> Option<CallOutcome> {
    let mut call = pin!(call);
    loop {
        tokio::select! {
            biased;
            outcome = &mut call => return Some(outcome),
            cancelled = cancel_requested(link) => if cancelled {
                scope.cancel_tool();
                return tokio::time::timeout(CANCEL_GRACE, &mut call).await.ok();
            },
        }
    }
}

/// Waits for a change of the task (or the watch interval), then tells whether it was
/// cancelled. A task that has not started yet cannot be.
async fn cancel_requested(link: &TaskLink) -> bool {
    let tasks = link.tasks();
    let Some(id) = link.id() else {
        tokio::time::sleep(tasks.settings.watch).await;
        return false;
    };
    tasks.changed(&id).await;
    match tasks.load(&id).await {
        Ok(Some(record)) => record.task.status == TaskStatus::Cancelled,
        // Expired: nobody can read its result any more.
        Ok(None) => true,
        // The store is down: the call goes on, and its end is written when it is back.
        Err(_) => false,
    }
}

/// How a call ended, as its task shows it: a tool error is `completed` with `isError`; a
/// masked internal failure (a panic, an error the tool did not expose) is `failed`, its
/// JSON-RPC error carrying the same masked text and envelope.
fn ending(outcome: Option<CallOutcome>) -> (TaskStatus, Option<JsonObject>, Option<JsonObject>) {
    let Some(outcome) = outcome else {
        return (TaskStatus::Cancelled, None, None);
    };
    let internal = outcome.code() == Some(&ErrorCode::INTERNAL_ERROR);
    let result = outcome.into_result();
    if internal {
        let message = result
            .content
            .iter()
            .find_map(|block| block.as_text().map(|text| text.text.clone()))
            .unwrap_or_default();
        let data = result
            .meta
            .as_ref()
            .and_then(|meta| meta.0.get(META_KEY).cloned());
        let error = json!({"code": RpcCode::INTERNAL_ERROR.0, "message": message, "data": data});
        return (TaskStatus::Failed, None, as_object(error));
    }
    let result = serde_json::to_value(&result).unwrap_or(Value::Null);
    (TaskStatus::Completed, as_object(result), None)
}

fn as_object(value: Value) -> Option<JsonObject> {
    match value {
        Value::Object(object) => Some(object),
        _ => None,
    }
}

/// Writes how the task `id` ended, unless it already ended (a cancel); retried while the
/// store is unreachable. A result past the size limit fails the task instead.
async fn settle(link: &TaskLink, id: &str, outcome: Option<CallOutcome>) {
    let tasks = link.tasks();
    let (status, result, error) = ending(outcome);
    let deadline = tokio::time::Instant::now() + SETTLE_PATIENCE;
    let mut write = (status, result, error);
    loop {
        let (status, result, error) = write.clone();
        let attempt = tasks
            .modify(id, |record| {
                record.settle(status, result.clone(), error.clone())
            })
            .await;
        match attempt {
            Ok(_) => return,
            Err(TaskWriteError::TooLarge) => {
                let message = render::task_too_large(tasks.settings.max_bytes);
                let error = json!({"code": RpcCode::INTERNAL_ERROR.0, "message": message});
                write = (TaskStatus::Failed, None, as_object(error));
            }
            Err(TaskWriteError::Store(error)) => {
                if tokio::time::Instant::now() >= deadline {
                    tracing::error!(%error, task = id, "the task's end could not be stored");
                    return;
                }
                tokio::time::sleep(tasks.settings.watch).await;
            }
        }
    }
}
