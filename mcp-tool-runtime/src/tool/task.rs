//! A call that runs as a task (the tasks extension of 2026-07-28, SEP-2663): its record in
//! the store, the questions it parks there until `tasks/update` answers them, and the
//! changes `tasks/get`, `tasks/update` and `tasks/cancel` make to it.
//!
//! The record is one JSON value under `mcp-tool:task:{id}`, replaced only when unchanged
//! since it was read: the instance running the task and the instances answering its
//! client's requests may all write it.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rmcp::model::{
    ClientCapabilities, CreateTaskResult, DetailedTask, InputRequest, InputRequests,
    InputResponses, JsonObject, Task, TaskPayload, TaskStatus,
};
use rmcp::task_manager::current_timestamp;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use tokio::sync::oneshot;

use super::context_error::ContextError;
use crate::store::{Store, StoreError};

/// Whether a tool may run as a task, and whether it must.
///
/// ```
/// use mcp_tool_runtime::{ToolContext, ToolError, mcp_tool};
///
/// /// Build the monthly report (minutes of work).
/// #[mcp_tool(task = "optional")]
/// async fn build_report(ctx: ToolContext) -> Result<String, ToolError> {
///     ctx.progress(0.0, Some(1.0), Some("collecting")).await?;
///     Ok("report ready".into())
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum TaskSupport {
    /// Never a task: the call answers when the tool returns (the default).
    #[default]
    Forbidden,
    /// A task when the client declared the tasks extension; otherwise a plain call.
    Optional,
    /// Only as a task: a client without the tasks extension gets -32021.
    Required,
}

/// When a task-supporting call becomes a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum TaskStart {
    /// As the call starts (the default).
    #[default]
    Call,
    /// When the tool calls [`ToolContext::start_task`](crate::ToolContext::start_task):
    /// its questions before that are 2026-07-28 rounds, answered by calling again.
    Explicit,
}

/// How long tasks live and how often clients should poll, and how large a task may grow.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TaskSettings {
    pub(crate) ttl: Duration,
    pub(crate) poll_interval: Duration,
    /// The most a task's record (its result, questions and answers) may hold, in bytes.
    pub(crate) max_bytes: usize,
    /// How often an instance looks at the store for a cancel or an answer, at most.
    pub(crate) watch: Duration,
}

impl Default for TaskSettings {
    fn default() -> Self {
        Self {
            ttl: Duration::from_secs(3600),
            poll_interval: Duration::from_millis(500),
            max_bytes: 1 << 20,
            watch: Duration::from_millis(250),
        }
    }
}

/// One task as the store keeps it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TaskRecord {
    #[serde(flatten)]
    pub(crate) task: Task,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) input_requests: InputRequests,
    /// Answers given through `tasks/update` that the running tool has not taken yet.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) answers: InputResponses,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) result: Option<JsonObject>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) error: Option<JsonObject>,
    /// When the record expires, in milliseconds since the epoch.
    pub(crate) expires_ms: u64,
    /// Who started it, when the server knows: only they may read or change it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) owner: Option<String>,
}

impl TaskRecord {
    /// The task as `tasks/get` shows it.
    pub(crate) fn detailed(&self) -> DetailedTask {
        let payload = match self.task.status {
            TaskStatus::InputRequired => TaskPayload::InputRequired {
                input_requests: self.input_requests.clone(),
            },
            TaskStatus::Completed => TaskPayload::Completed {
                result: self.result.clone().unwrap_or_default(),
            },
            TaskStatus::Failed => TaskPayload::Failed {
                error: self.error.clone().unwrap_or_default(),
            },
            TaskStatus::Cancelled => TaskPayload::Cancelled,
            _ => TaskPayload::Working,
        };
        DetailedTask::new(self.task.clone(), payload)
    }

    fn touch(&mut self) {
        self.task.last_updated_at = current_timestamp();
    }

    /// Settles the task with `status` unless it already ended. `false` when it had.
    pub(crate) fn settle(
        &mut self,
        status: TaskStatus,
        result: Option<JsonObject>,
        error: Option<JsonObject>,
    ) -> bool {
        if self.task.status.is_terminal() {
            return false;
        }
        self.task.status = status;
        self.result = result;
        self.error = error;
        self.input_requests.clear();
        self.answers.clear();
        self.touch();
        true
    }

    /// Takes `responses` to the questions still open; other keys are ignored (SEP-2663).
    /// `false` when nothing changed.
    pub(crate) fn answer(&mut self, responses: &InputResponses) -> bool {
        let mut changed = false;
        for (key, response) in responses {
            if self.input_requests.remove(key).is_some() {
                self.answers.insert(key.clone(), response.clone());
                changed = true;
            }
        }
        if changed && self.input_requests.is_empty() && !self.task.status.is_terminal() {
            self.task.status = TaskStatus::Working;
        }
        if changed {
            self.touch();
        }
        changed
    }
}

fn now_ms() -> u64 {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// Why a task's record could not be changed.
#[derive(Debug)]
pub(crate) enum TaskWriteError {
    Store(StoreError),
    /// The record would pass the server's size limit.
    TooLarge,
}

impl From<StoreError> for TaskWriteError {
    fn from(error: StoreError) -> Self {
        Self::Store(error)
    }
}

/// The server's tasks: the store that keeps them and the settings they are made with.
#[derive(Clone)]
pub(crate) struct Tasks {
    store: Arc<dyn Store>,
    pub(crate) settings: TaskSettings,
}

/// How many times a change is retried when another instance wrote the record in between.
const ATTEMPTS: usize = 16;

impl Tasks {
    pub(crate) fn new(store: Arc<dyn Store>, settings: TaskSettings) -> Self {
        Self { store, settings }
    }

    fn key(id: &str) -> String {
        format!("mcp-tool:task:{id}")
    }

    /// A new working task, written before its id is handed out: a `tasks/get` right after
    /// finds it.
    pub(crate) async fn create(&self, owner: Option<String>) -> Result<TaskRecord, StoreError> {
        let now = current_timestamp();
        let settings = self.settings;
        let task = Task::new(
            uuid::Uuid::new_v4().simple().to_string(),
            TaskStatus::Working,
            now.clone(),
            now,
        )
        .with_ttl_ms(millis(settings.ttl).max(1))
        .with_poll_interval_ms(millis(settings.poll_interval).max(1));
        let record = TaskRecord {
            expires_ms: now_ms().saturating_add(millis(settings.ttl)),
            task,
            input_requests: InputRequests::new(),
            answers: InputResponses::new(),
            result: None,
            error: None,
            owner,
        };
        let value = serde_json::to_string(&record).map_err(|e| StoreError::new(e.to_string()))?;
        let key = Self::key(&record.task.task_id);
        if self.store.insert(&key, value, settings.ttl).await? {
            Ok(record)
        } else {
            Err(StoreError::new("a fresh task id was already taken"))
        }
    }

    /// The task `id`, if it exists and has not expired.
    pub(crate) async fn load(&self, id: &str) -> Result<Option<TaskRecord>, StoreError> {
        let found = self.store.get(&Self::key(id)).await?;
        Ok(found.and_then(|found| serde_json::from_str(&found.value).ok()))
    }

    /// Changes the task `id` with `change` (which says whether it changed anything), retried
    /// against concurrent writers. The record after, or `None` when there is no such task.
    pub(crate) async fn modify(
        &self,
        id: &str,
        mut change: impl FnMut(&mut TaskRecord) -> bool,
    ) -> Result<Option<TaskRecord>, TaskWriteError> {
        let key = Self::key(id);
        for _ in 0..ATTEMPTS {
            let Some(found) = self.store.get(&key).await? else {
                return Ok(None);
            };
            let Ok(mut record) = serde_json::from_str::<TaskRecord>(&found.value) else {
                return Ok(None);
            };
            if !change(&mut record) {
                return Ok(Some(record));
            }
            let value =
                serde_json::to_string(&record).map_err(|e| StoreError::new(e.to_string()))?;
            if value.len() > self.settings.max_bytes {
                return Err(TaskWriteError::TooLarge);
            }
            let left = record.expires_ms.saturating_sub(now_ms()).max(1);
            let ttl = Duration::from_millis(left);
            if self.store.replace(&key, found.version, value, ttl).await? {
                return Ok(Some(record));
            }
        }
        Err(StoreError::new("the task kept changing under concurrent writes").into())
    }

    /// Completes when the task `id` may have changed, or after the watch interval.
    pub(crate) async fn changed(&self, id: &str) {
        let key = Self::key(id);
        if self.store.changed(&key, self.settings.watch).await.is_err() {
            tokio::time::sleep(self.settings.watch).await;
        }
    }
}

/// A call's link to the task it runs as, or may start: held by its context.
pub(crate) struct TaskLink {
    tasks: Tasks,
    owner: Option<String>,
    /// What the client declared, for the questions the tool asks inside the task.
    pub(crate) capabilities: ClientCapabilities,
    /// The task's id, once it started.
    id: Mutex<Option<String>>,
    /// Tells the request that the task started (or could not): it then answers with the
    /// task.
    started: Mutex<Option<oneshot::Sender<CreateTaskResult>>>,
    unnamed: AtomicUsize,
}

/// Where the request learns that its task started.
pub(crate) type Started = oneshot::Receiver<CreateTaskResult>;

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl TaskLink {
    pub(crate) fn new(
        tasks: Tasks,
        owner: Option<String>,
        capabilities: ClientCapabilities,
    ) -> (Self, Started) {
        let (sender, receiver) = oneshot::channel();
        let link = Self {
            tasks,
            owner,
            capabilities,
            id: Mutex::new(None),
            started: Mutex::new(Some(sender)),
            unnamed: AtomicUsize::new(0),
        };
        (link, receiver)
    }

    pub(crate) fn tasks(&self) -> &Tasks {
        &self.tasks
    }

    /// The task's id, once started.
    pub(crate) fn id(&self) -> Option<String> {
        lock(&self.id).clone()
    }

    /// Starts the task: writes it, then tells the request its id. Does nothing the second
    /// time.
    pub(crate) async fn start(&self) -> Result<(), StoreError> {
        if self.id().is_some() {
            return Ok(());
        }
        let record = self.tasks.create(self.owner.clone()).await?;
        *lock(&self.id) = Some(record.task.task_id.clone());
        if let Some(sender) = lock(&self.started).take() {
            let _ = sender.send(CreateTaskResult::new(record.task));
        }
        Ok(())
    }

    pub(crate) fn key(&self, key: Option<Cow<'static, str>>, kind: &str) -> String {
        match key {
            Some(key) => key.into_owned(),
            None => {
                let number = self.unnamed.fetch_add(1, Ordering::Relaxed) + 1;
                format!("{kind}-{number}")
            }
        }
    }

    /// Parks `request` under `key` (the task is then `input_required`) and waits for the
    /// client's answer through `tasks/update`.
    pub(crate) async fn answer<T: DeserializeOwned>(
        &self,
        key: String,
        request: InputRequest,
    ) -> Result<T, ContextError> {
        let id = self.id().ok_or(ContextError::Detached)?;
        let asked = self
            .tasks
            .modify(&id, |record| {
                if record.task.status.is_terminal() {
                    return false;
                }
                record.input_requests.insert(key.clone(), request.clone());
                record.task.status = TaskStatus::InputRequired;
                record.touch();
                true
            })
            .await
            .map_err(ContextError::from)?;
        if asked.is_none_or(|record| record.task.status.is_terminal()) {
            return Err(ContextError::Cancelled);
        }
        let value = self.wait_for(&id, &key).await?;
        serde_json::from_value(value).map_err(|error| ContextError::Response { key, error })
    }

    /// The answer to `key` once `tasks/update` brings it, taken out of the record.
    async fn wait_for(&self, id: &str, key: &str) -> Result<serde_json::Value, ContextError> {
        loop {
            let mut taken = None;
            let record = self
                .tasks
                .modify(id, |record| {
                    taken = record.answers.remove(key);
                    taken.is_some()
                })
                .await
                .map_err(ContextError::from)?;
            if let Some(value) = taken {
                return Ok(value);
            }
            match record {
                Some(record) if !record.task.status.is_terminal() => {}
                _ => return Err(ContextError::Cancelled),
            }
            self.tasks.changed(id).await;
        }
    }

    /// Shows `message` as the task's `statusMessage`.
    pub(crate) async fn set_status(&self, message: &str) -> Result<(), ContextError> {
        let Some(id) = self.id() else {
            return Ok(());
        };
        self.tasks
            .modify(&id, |record| {
                if record.task.status.is_terminal() {
                    return false;
                }
                record.task.status_message = Some(message.to_string());
                record.touch();
                true
            })
            .await
            .map_err(ContextError::from)?;
        Ok(())
    }
}

impl From<TaskWriteError> for ContextError {
    fn from(error: TaskWriteError) -> Self {
        match error {
            TaskWriteError::Store(error) => ContextError::Store(error),
            TaskWriteError::TooLarge => ContextError::TaskTooLarge,
        }
    }
}
