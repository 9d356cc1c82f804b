//! Where the server keeps what outlives one call and may be shared by several instances:
//! tasks (their status, questions, answers and results) and rate-limit counters.
//!
//! [`MemoryStore`] is the default: one process, nothing to run.
#![cfg_attr(feature = "redis", doc = "[`RedisStore`]")]
// Linked only where it is built: without the feature the link would be broken.
#![cfg_attr(not(feature = "redis"), doc = "`RedisStore`")]
//! (feature `redis`) shares it between instances behind a load balancer. A store of your
//! own implements [`Store`]: versioned values that expire, and counters per time window.
//!
#![doc = include_str!("../../docs/store.md")]

mod memory;
#[cfg(feature = "redis")]
mod redis;

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

pub use memory::MemoryStore;
#[cfg(feature = "redis")]
pub use redis::RedisStore;

/// A store's answer, boxed so that [`Store`] can be used as `dyn Store`.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// A value and its version, which [`Store::replace`] compares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Versioned {
    /// Starts at 1; each successful replace adds 1.
    pub version: u64,
    /// The value as written.
    pub value: String,
}

/// What the runtime needs of a shared store: values that expire, replaced only when
/// unchanged since they were read (so that two instances updating one task do not lose a
/// write), and hit counters per window (rate limits).
///
/// Every method may fail with [`StoreError`]; the runtime then answers the call that needed
/// it with a retryable `unavailable` error and keeps serving the rest.
pub trait Store: Send + Sync + 'static {
    /// Writes `value` under `key` if nothing is there; it expires after `ttl`. `false` when
    /// the key exists.
    fn insert<'a>(&'a self, key: &'a str, value: String, ttl: Duration) -> StoreFuture<'a, bool>;

    /// The value under `key`, if any and not expired.
    fn get<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Option<Versioned>>;

    /// Writes `value` under `key` if its version is still `version`, with a new expiry
    /// `ttl`. `false` when it changed (or expired) since it was read.
    fn replace<'a>(
        &'a self,
        key: &'a str,
        version: u64,
        value: String,
        ttl: Duration,
    ) -> StoreFuture<'a, bool>;

    /// Counts one hit on `key` in its current window of length `window` (the window starts
    /// with its first hit): the hits so far, this one included, and the time left in the
    /// window.
    fn hit<'a>(&'a self, key: &'a str, window: Duration) -> StoreFuture<'a, (u64, Duration)>;

    /// Completes when `key` may have changed, or after `poll` at most. The default waits
    /// `poll`; a store that can tell sooner (the in-memory one) does.
    fn changed<'a>(&'a self, key: &'a str, poll: Duration) -> StoreFuture<'a, ()> {
        let _ = key;
        Box::pin(async move {
            tokio::time::sleep(poll).await;
            Ok(())
        })
    }
}

/// Why the store could not answer: it is unreachable, it timed out, or it answered
/// something the runtime did not write.
#[derive(Debug)]
pub struct StoreError {
    message: String,
}

impl StoreError {
    /// An error with its cause, as the log shows it.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the store failed: {}", self.message)
    }
}

impl std::error::Error for StoreError {}
