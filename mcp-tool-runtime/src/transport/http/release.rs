//! Giving freed memory back once closed sessions or large request bodies have left it free
//! (see the transports' `release` module).

use std::sync::Arc;

use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

use super::super::release::{LOOK_EVERY, release_free_memory};
use crate::large::{RELEASE_AFTER_BODY_BYTES, RELEASE_AFTER_CLOSED_SESSIONS};

/// What `release_memory` looks at: how many session places were ever given, the sessions,
/// and the body bytes read.
pub(super) type Reading = (usize, Arc<LocalSessionManager>, u64);

/// Gives freed memory back to the system whenever enough sessions closed or enough bytes
/// were read, until `look` finds nothing to look at (the endpoint is gone).
pub(super) async fn release_memory(look: impl Fn() -> Option<Reading>) {
    let (mut given_then, mut live_then, mut read_then) = (0, 0, 0);
    let mut clock = tokio::time::interval(LOOK_EVERY);
    loop {
        clock.tick().await;
        let Some((given, sessions, read_now)) = look() else {
            return;
        };
        let live = sessions.sessions.read().await.len();
        // Opened since then, less what is live now beyond what was live then.
        let closed = (given - given_then + live_then).saturating_sub(live);
        if closed >= RELEASE_AFTER_CLOSED_SESSIONS
            || read_now - read_then >= RELEASE_AFTER_BODY_BYTES
        {
            release_free_memory();
            (given_then, live_then, read_then) = (given, live, read_now);
        }
    }
}
