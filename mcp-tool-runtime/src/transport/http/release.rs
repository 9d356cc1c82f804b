//! Giving freed memory back to the system once the load that took it has passed.
//!
//! glibc's allocator keeps what a process frees for reuse, spread over one arena per thread:
//! after 2,000 sessions expired the server still held 124 MB where it had started at 11, and
//! after 30 concurrent heavy calls it held 196 MB a second later (BENCHMARKS.md). rmcp freed
//! all of it; `malloc_trim` returns the free pages. It walks the heap under the allocator's
//! locks, so it runs at most every few seconds, and only once enough was freed: sessions
//! closed, or request bodies parsed (each takes tens of times its size while parsed).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

/// How often the sessions and the bytes read are looked at.
const LOOK_EVERY: Duration = Duration::from_secs(5);
/// How many sessions must have closed since memory was last given back (some 14 MiB of
/// them) before it is given back again.
const AFTER_CLOSED_SESSIONS: usize = 256;
/// How many bytes of large request bodies must have been read since then (some hundreds of
/// MiB while parsed).
const AFTER_BODY_BYTES: u64 = 4 * 1024 * 1024;

/// The smallest body that counts towards giving memory back. A small body's parse is small
/// and its memory is reused by the next request; counting them made a steady stream of small
/// calls trim every few seconds, and each trim costs the pages it released in page faults
/// (three to four times rmcp's count at 32 connections, BENCHMARKS.md, P8).
const COUNTED_BODY_BYTES: usize = 16 * 1024;

/// The bytes read so far of request bodies large enough to count.
#[derive(Default)]
pub(super) struct BodyBytes(AtomicU64);

impl BodyBytes {
    pub(super) fn add(&self, bytes: usize) {
        if bytes >= COUNTED_BODY_BYTES {
            self.0.fetch_add(bytes as u64, Ordering::Relaxed);
        }
    }

    pub(super) fn read(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

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
        if closed >= AFTER_CLOSED_SESSIONS || read_now - read_then >= AFTER_BODY_BYTES {
            release_free_memory();
            (given_then, live_then, read_then) = (given, live, read_now);
        }
    }
}

/// Returns the allocator's free pages to the system.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn release_free_memory() {
    // SAFETY: `malloc_trim` has no preconditions: it takes glibc's own arena locks and only
    // releases pages that hold no allocation. It is not called from a signal handler.
    let released = unsafe { libc::malloc_trim(0) };
    tracing::debug!(released, "gave freed memory back to the system");
}

/// Other allocators give memory back on their own terms.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn release_free_memory() {}
