//! The cap on live sessions. A session costs rmcp some 57 KiB (its tasks and their channels)
//! for as long as it lives, and one unauthenticated POST opens one, so their number is what
//! bounds the server's memory. rmcp's idle expiry (its `keep_alive`) ends the ones a client
//! left; the cap stops the ones a client opens faster than that; `release` gives the memory
//! of closed ones back to the system.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use futures_core::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::common::server_side_http::{ServerSseMessage, SessionId};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError, LocalSessionWorker,
};
use rmcp::transport::streamable_http_server::session::{
    EventStore, RestoreOutcome, SessionManager,
};
use rmcp::transport::worker::WorkerTransport;

/// The places under the cap: live sessions, and the `initialize` requests on their way to
/// becoming one.
pub(super) struct SessionCap {
    cap: usize,
    /// Places held for `initialize` requests whose session rmcp has not stored yet.
    opening: AtomicUsize,
    /// Sessions rmcp stored while their request still held its place: the place is given
    /// back at storage, so that a session is never counted twice (stored, and opening).
    stored_early: AtomicUsize,
    /// How many places were ever given: with the live count, how many sessions closed.
    given: AtomicUsize,
}

/// A place held for one `initialize` until rmcp has stored its session (or failed to).
pub(super) struct Opening<'c>(&'c SessionCap);

impl SessionCap {
    pub(super) fn new(cap: usize) -> Self {
        Self {
            cap,
            opening: AtomicUsize::new(0),
            stored_early: AtomicUsize::new(0),
            given: AtomicUsize::new(0),
        }
    }

    /// A place for one more session, or `None` when the cap is reached. Counted under rmcp's
    /// read lock, which its insertions wait for: no session is stored between the count of
    /// the live ones and the claim, and a claim is given back only once its session is
    /// stored, so concurrent `initialize` requests never take the count past the cap. A
    /// refused request claims nothing, so that it cannot crowd out one that fits.
    pub(super) async fn reserve(&self, sessions: &LocalSessionManager) -> Option<Opening<'_>> {
        let live = sessions.sessions.read().await;
        let free = self.cap.saturating_sub(live.len());
        self.opening
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |opening| {
                (opening < free).then_some(opening + 1)
            })
            .ok()?;
        self.given.fetch_add(1, Ordering::Relaxed);
        Some(Opening(self))
    }

    /// rmcp stored a session: its request's place is given back now, not when the request
    /// ends (the handshake lies between), or it would be counted twice meanwhile.
    fn stored(&self) {
        let given_back = self
            .opening
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |opening| {
                opening.checked_sub(1)
            })
            .is_ok();
        if given_back {
            self.stored_early.fetch_add(1, Ordering::SeqCst);
        }
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
    /// Gives the place back, unless its session was stored and gave it back already.
    fn drop(&mut self) {
        let cap = self.0;
        let already = cap
            .stored_early
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |early| {
                early.checked_sub(1)
            })
            .is_ok();
        if !already {
            cap.opening.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// rmcp's local sessions, telling the cap the moment one is stored.
pub(super) struct CountedSessions {
    pub(super) local: Arc<LocalSessionManager>,
    pub(super) cap: Arc<SessionCap>,
}

impl SessionManager for CountedSessions {
    type Error = LocalSessionManagerError;
    type Transport = WorkerTransport<LocalSessionWorker>;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let created = self.local.create_session().await?;
        self.cap.stored();
        Ok(created)
    }

    fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<ServerJsonRpcMessage, Self::Error>> + Send {
        self.local.initialize_session(id, message)
    }

    fn has_session(
        &self,
        id: &SessionId,
    ) -> impl Future<Output = Result<bool, Self::Error>> + Send {
        self.local.has_session(id)
    }

    fn close_session(
        &self,
        id: &SessionId,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.local.close_session(id)
    }

    fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> impl Future<
        Output = Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error>,
    > + Send {
        self.local.create_stream(id, message)
    }

    fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.local.accept_message(id, message)
    }

    fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> impl Future<
        Output = Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error>,
    > + Send {
        self.local.create_standalone_stream(id)
    }

    fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> impl Future<
        Output = Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error>,
    > + Send {
        self.local.resume(id, last_event_id)
    }

    fn restore_session(
        &self,
        id: SessionId,
    ) -> impl Future<Output = Result<RestoreOutcome<Self::Transport>, Self::Error>> + Send {
        self.local.restore_session(id)
    }

    fn event_store(&self) -> Option<Arc<dyn EventStore>> {
        self.local.event_store()
    }
}

/// Which principal opened each session, so that no other can use it (the MCP security best
/// practice: session ids are bound to the user, never a credential of their own). A
/// principal is its issuer and subject.
#[derive(Default)]
pub(super) struct SessionOwners {
    owners: std::sync::Mutex<std::collections::HashMap<Arc<str>, Arc<str>>>,
}

impl SessionOwners {
    /// The key that names `principal` as an owner: the issuer (if the verifier recorded
    /// one) and the subject, which together name one caller.
    pub(super) fn key(principal: &crate::tool::Principal) -> Arc<str> {
        let issuer = principal
            .claim("iss")
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default();
        Arc::from(format!("{issuer}\n{}", principal.subject()))
    }

    /// Records that `owner` opened `session`, and forgets the sessions rmcp no longer holds
    /// once the table has grown past twice `live` (closed and expired ones leave no other
    /// trace here).
    pub(super) async fn bind(
        &self,
        session: &str,
        owner: Arc<str>,
        sessions: &LocalSessionManager,
        live: usize,
    ) {
        let grown = {
            let mut owners = self.lock();
            owners.insert(Arc::from(session), owner);
            owners.len() > live.saturating_mul(2).max(64)
        };
        if grown {
            let alive: std::collections::HashSet<Arc<str>> =
                sessions.sessions.read().await.keys().cloned().collect();
            self.lock().retain(|id, _| alive.contains(id));
        }
    }

    /// Whether `owner` may use `session`: it opened it, or the session is unknown here
    /// (rmcp then answers an unknown session itself).
    pub(super) fn allows(&self, session: &str, owner: &str) -> bool {
        self.lock()
            .get(session)
            .is_none_or(|bound| &**bound == owner)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<Arc<str>, Arc<str>>> {
        self.owners
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}
