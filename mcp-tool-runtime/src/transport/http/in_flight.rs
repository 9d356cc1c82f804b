//! The request ids in flight on each session. rmcp routes an answer by its request id, so
//! two requests of one session with the same id share one route: one is answered, the
//! others wait until the session expires. The guard claims each id here first and refuses a
//! duplicate at once.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use rmcp::model::RequestId;

type Key = (String, RequestId);

/// The `(session, request id)` pairs whose answers have not gone out yet.
#[derive(Default)]
pub(super) struct InFlight(Arc<Mutex<HashSet<Key>>>);

/// A claimed id: released when dropped, which is when its answer's body is done or the
/// client went away.
pub(super) struct Claim {
    ids: Arc<Mutex<HashSet<Key>>>,
    key: Key,
}

impl InFlight {
    /// Claims `id` on `session`; `None` when a request with that id is still in flight there.
    pub(super) fn claim(&self, session: &str, id: &RequestId) -> Option<Claim> {
        let key = (session.to_string(), id.clone());
        lock(&self.0).insert(key.clone()).then(|| Claim {
            ids: Arc::clone(&self.0),
            key,
        })
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        lock(&self.ids).remove(&self.key);
    }
}

/// The set, even after a panic elsewhere: it holds no invariant a panic could break.
fn lock(ids: &Mutex<HashSet<Key>>) -> MutexGuard<'_, HashSet<Key>> {
    ids.lock().unwrap_or_else(PoisonError::into_inner)
}
