//! What a client reads about tasks (the tasks extension) and about the shared store behind
//! them and the rate limits.

use super::phrases::{byte_size, echoed_datum};

/// The store (Redis) could not be reached in time: the call did not run, and may be retried.
pub(crate) const STORE_UNAVAILABLE: &str = "The server cannot reach its shared store right now, so this call did not run. \
     Retry in a moment.";

/// The task was cancelled while its tool waited for an answer.
pub(crate) const TASK_CANCELLED: &str = "The task was cancelled.";

/// A task's result, questions or answers would pass the server's size limit.
pub(crate) fn task_too_large(limit: usize) -> String {
    format!(
        "The task's data would exceed the {} the server keeps for one task.",
        byte_size(limit)
    )
}

/// `tasks/get`, `tasks/update` or `tasks/cancel` for an id the server does not know: it
/// never existed, its time to live passed, or it belongs to another caller. A -32602 message.
pub(crate) fn unknown_task(id: &str) -> String {
    format!(
        "No task with id {}: it does not exist or has expired.",
        echoed_datum(id)
    )
}
