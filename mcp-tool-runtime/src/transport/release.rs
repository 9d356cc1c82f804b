//! Giving freed memory back to the system once the load that took it has passed.
//!
//! glibc's allocator keeps what a process frees for reuse, spread over one arena per thread:
//! after 2,000 sessions expired the HTTP server still held 124 MB where it had started at 11,
//! and after one valid 400 KB stdio call the process held 17 MB more than before it
//! (BENCHMARKS.md). `malloc_trim` returns the free pages. It walks the heap under the
//! allocator's locks, so the transports call it at most every few seconds, and only once
//! enough was freed: sessions closed, or large inputs parsed (each takes tens of times its
//! size while parsed). How much is enough, and why this is the library's default rather than
//! an option, is in [`crate::large`].

use std::sync::Weak;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::large::COUNTED_INPUT_BYTES;

/// How often what was read is looked at.
pub(super) const LOOK_EVERY: Duration = Duration::from_secs(5);

/// The bytes read so far of inputs (request bodies, lines) large enough to count.
#[derive(Default)]
pub(super) struct InputBytes(AtomicU64);

impl InputBytes {
    pub(super) fn add(&self, bytes: usize) {
        if bytes >= COUNTED_INPUT_BYTES {
            self.0.fetch_add(bytes as u64, Ordering::Relaxed);
        }
    }

    pub(super) fn read(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// Gives freed memory back whenever `after` more bytes of large inputs were read, for as
/// long as `read` lives.
pub(super) async fn release_after_reads(read: Weak<InputBytes>, after: u64) {
    let mut read_then = 0;
    let mut clock = tokio::time::interval(LOOK_EVERY);
    loop {
        clock.tick().await;
        let Some(read_now) = read.upgrade().map(|read| read.read()) else {
            return;
        };
        if read_now - read_then >= after {
            release_free_memory();
            read_then = read_now;
        }
    }
}

/// Returns the allocator's free pages to the system.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub(super) fn release_free_memory() {
    // SAFETY: `malloc_trim` has no preconditions: it takes glibc's own arena locks and only
    // releases pages that hold no allocation. It is not called from a signal handler.
    let released = unsafe { libc::malloc_trim(0) };
    tracing::debug!(released, "gave freed memory back to the system");
}

/// Other allocators give memory back on their own terms.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub(super) fn release_free_memory() {}
