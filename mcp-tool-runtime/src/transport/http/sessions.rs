//! The cap on live sessions. A session costs rmcp some 57 KiB (its tasks and their channels)
//! for as long as it lives, and one unauthenticated POST opens one, so their number is what
//! bounds the server's memory. rmcp's idle expiry (its `keep_alive`) ends the ones a client
//! left; the cap stops the ones a client opens faster than that; `release` gives the memory
//! of closed ones back to the system.

use std::sync::atomic::{AtomicUsize, Ordering};

use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

/// The places under the cap: live sessions, and the `initialize` requests on their way to
/// becoming one.
pub(super) struct SessionCap {
    cap: usize,
    opening: AtomicUsize,
    /// How many places were ever given: with the live count, how many sessions closed.
    given: AtomicUsize,
}

/// A place held for one `initialize` until rmcp has stored its session (or failed to).
pub(super) struct Opening<'c>(&'c AtomicUsize);

impl SessionCap {
    pub(super) fn new(cap: usize) -> Self {
        Self {
            cap,
            opening: AtomicUsize::new(0),
            given: AtomicUsize::new(0),
        }
    }

    /// A place for one more session, or `None` when the cap is reached. Counted under rmcp's
    /// read lock, which its insertions wait for: no session is stored between the count of
    /// the live ones and the claim, and a claim is given back only once its session is
    /// stored, so concurrent `initialize` requests never take the count past the cap.
    pub(super) async fn reserve(&self, sessions: &LocalSessionManager) -> Option<Opening<'_>> {
        let live = sessions.sessions.read().await;
        let opening = self.opening.fetch_add(1, Ordering::SeqCst);
        let held = Opening(&self.opening);
        let free = live.len() + opening < self.cap;
        if free {
            self.given.fetch_add(1, Ordering::Relaxed);
        }
        free.then_some(held)
    }

    /// The cap.
    pub(super) fn cap(&self) -> usize {
        self.cap
    }

    /// How many places were ever given: with the live count, how many sessions closed.
    pub(super) fn given(&self) -> usize {
        self.given.load(Ordering::Relaxed)
    }
}

impl Drop for Opening<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}
