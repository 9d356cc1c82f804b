//! The request ids in flight on each session. rmcp routes an answer by its request id, so
//! two requests of one session with the same id share one route: one is answered, the
//! others wait until the session expires. The guard claims each id here first and refuses a
//! duplicate at once.

use std::collections::HashSet;
use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use http::HeaderValue;
use rmcp::model::{NumberOrString, RequestId};

/// The `(session, request id)` pairs whose answers have not gone out yet.
#[derive(Default)]
pub(super) struct InFlight {
    ids: Arc<Mutex<Ids>>,
    /// Seeded per process, as a `HashSet`'s own: the ids are the clients' to choose. Not
    /// SipHash: foldhash took the claim of a stateful call from 642 to 419 instructions
    /// (callgrind, `bench/scripts/callgrind_http.sh`). Its weaker resistance to chosen
    /// collisions is bounded here: the set holds only the requests being answered, each
    /// holding a connection (or a stream of one) for as long.
    hasher: foldhash::fast::RandomState,
}

type Ids = HashSet<Key, BuildHasherDefault<Prehashed>>;

/// A claimed id: released when dropped, which is when its answer's body is done or the
/// client went away.
pub(super) struct Claim {
    ids: Arc<Mutex<Ids>>,
    key: Key,
}

/// A session and a request id, hashed once when claimed. The key holds the request's own
/// `Mcp-Session-Id` value, which shares the bytes hyper read (as the request's headers do,
/// in rmcp's request context, until its handler returns), and the release reuses the
/// hash: a `(String, RequestId)` key copied the session twice and hashed it twice, and an
/// `Arc<str>` copied it once (claim and release 1,506, then 743 instructions of a stateful
/// call; callgrind, `bench/scripts/callgrind_http.sh`).
#[derive(Clone)]
struct Key {
    hash: u64,
    session: HeaderValue,
    id: RequestId,
}

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash && self.id == other.id && self.session == other.session
    }
}

impl Eq for Key {}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// The hasher of the set, which is given each key's hash whole.
#[derive(Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `write_u64` is called (`Key::hash`); any other input is still mixed in.
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }

    fn write_u64(&mut self, hash: u64) {
        self.0 = hash;
    }
}

impl InFlight {
    /// Claims `id` on `session`; `None` when a request with that id is still in flight there.
    pub(super) fn claim(&self, session: &HeaderValue, id: &RequestId) -> Option<Claim> {
        let key = Key {
            hash: self.hash(session.as_bytes(), id),
            session: session.clone(),
            id: id.clone(),
        };
        lock(&self.ids).insert(key.clone()).then(|| Claim {
            ids: Arc::clone(&self.ids),
            key,
        })
    }

    /// The key's hash, from its bytes alone: a `(&str, &RequestId)` tuple hashed the
    /// session's terminator and the id's variant as writes of their own, which cost more
    /// than the bytes. Keys whose bytes run together (`a` + `bc`, `ab` + `c`)
    /// share a hash, and the set tells them apart.
    fn hash(&self, session: &[u8], id: &RequestId) -> u64 {
        let mut hasher = self.hasher.build_hasher();
        hasher.write(session);
        match id {
            NumberOrString::Number(number) => hasher.write_i64(*number),
            NumberOrString::String(text) => hasher.write(text.as_bytes()),
        }
        hasher.finish()
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        lock(&self.ids).remove(&self.key);
    }
}

/// The set, even after a panic elsewhere: it holds no invariant a panic could break.
fn lock(ids: &Mutex<Ids>) -> MutexGuard<'_, Ids> {
    ids.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_claimed_once_per_session_until_released() {
        let in_flight = InFlight::default();
        let (a, b) = (HeaderValue::from_static("a"), HeaderValue::from_static("b"));
        let one = NumberOrString::Number(1);
        let first = in_flight.claim(&a, &one).expect("a new id");
        assert!(in_flight.claim(&a, &one).is_none());
        let other_session = in_flight.claim(&b, &one).expect("another session");
        let text_id = NumberOrString::String("1".into());
        let same_text = in_flight
            .claim(&a, &text_id)
            .expect("a string id is another id");
        drop(first);
        assert!(in_flight.claim(&a, &one).is_some());
        drop((other_session, same_text));
        assert!(lock(&in_flight.ids).is_empty());
    }
}
