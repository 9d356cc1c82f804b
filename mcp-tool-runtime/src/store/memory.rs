//! The in-process store: a map behind a mutex, with expiries checked on read and swept as
//! it grows.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

use super::{Store, StoreError, StoreFuture, Versioned};

/// The default store: one process's memory. Tasks and rate limits are not shared with
/// other instances, and end with the process.
#[derive(Debug, Default)]
pub struct MemoryStore {
    entries: Mutex<Entries>,
    /// Woken on every write, so that a task waiting for its answers sees them at once.
    written: Notify,
}

#[derive(Debug, Default)]
struct Entries {
    values: HashMap<String, Entry>,
    /// The map's size after the last sweep: the next sweep waits until it doubles.
    swept_at: usize,
}

#[derive(Debug)]
struct Entry {
    version: u64,
    value: String,
    expires: Instant,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    fn with<T>(&self, change: impl FnOnce(&mut Entries, Instant) -> T) -> T {
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        let now = Instant::now();
        if entries.values.len() > 64.max(entries.swept_at * 2) {
            entries.values.retain(|_, entry| entry.expires > now);
            entries.swept_at = entries.values.len();
        }
        change(&mut entries, now)
    }
}

fn live(entries: &Entries, key: &str, now: Instant) -> Option<(u64, String)> {
    entries
        .values
        .get(key)
        .filter(|entry| entry.expires > now)
        .map(|entry| (entry.version, entry.value.clone()))
}

impl Store for MemoryStore {
    fn insert<'a>(&'a self, key: &'a str, value: String, ttl: Duration) -> StoreFuture<'a, bool> {
        let inserted = self.with(|entries, now| {
            if live(entries, key, now).is_some() {
                return false;
            }
            let entry = Entry {
                version: 1,
                value,
                expires: now + ttl,
            };
            entries.values.insert(key.to_string(), entry);
            true
        });
        self.written.notify_waiters();
        Box::pin(std::future::ready(Ok(inserted)))
    }

    fn get<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Option<Versioned>> {
        let found = self.with(|entries, now| live(entries, key, now));
        let found = found.map(|(version, value)| Versioned { version, value });
        Box::pin(std::future::ready(Ok(found)))
    }

    fn replace<'a>(
        &'a self,
        key: &'a str,
        version: u64,
        value: String,
        ttl: Duration,
    ) -> StoreFuture<'a, bool> {
        let replaced = self.with(|entries, now| match entries.values.get_mut(key) {
            Some(entry) if entry.expires > now && entry.version == version => {
                entry.version += 1;
                entry.value = value;
                entry.expires = now + ttl;
                true
            }
            _ => false,
        });
        self.written.notify_waiters();
        Box::pin(std::future::ready(Ok(replaced)))
    }

    fn hit<'a>(&'a self, key: &'a str, window: Duration) -> StoreFuture<'a, (u64, Duration)> {
        let counted = self.with(|entries, now| {
            let entry = entries
                .values
                .entry(key.to_string())
                .and_modify(|entry| {
                    if entry.expires <= now {
                        *entry = fresh(now, window);
                    }
                })
                .or_insert_with(|| fresh(now, window));
            entry.version += 1;
            (entry.version, entry.expires.saturating_duration_since(now))
        });
        Box::pin(std::future::ready(Ok::<_, StoreError>(counted)))
    }

    fn changed<'a>(&'a self, _key: &'a str, poll: Duration) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let _ = tokio::time::timeout(poll, self.written.notified()).await;
            Ok(())
        })
    }
}

/// A counter's entry at the start of its window: no hits yet.
fn fresh(now: Instant, window: Duration) -> Entry {
    Entry {
        version: 0,
        value: String::new(),
        expires: now + window,
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::{MemoryStore, Store};

    #[tokio::test]
    async fn a_replace_wins_only_against_the_version_it_read() {
        let store = MemoryStore::new();
        let ttl = Duration::from_secs(60);
        assert!(store.insert("k", "a".into(), ttl).await.unwrap());
        assert!(!store.insert("k", "b".into(), ttl).await.unwrap());
        let read = store.get("k").await.unwrap().unwrap();
        assert_eq!((read.version, read.value.as_str()), (1, "a"));
        assert!(store.replace("k", 1, "c".into(), ttl).await.unwrap());
        assert!(!store.replace("k", 1, "d".into(), ttl).await.unwrap());
        assert_eq!(store.get("k").await.unwrap().unwrap().value, "c");
    }

    #[tokio::test]
    async fn values_expire_and_counters_restart_with_their_window() {
        let store = MemoryStore::new();
        assert!(
            store
                .insert("k", "a".into(), Duration::from_millis(20))
                .await
                .unwrap()
        );
        let window = Duration::from_millis(50);
        assert_eq!(store.hit("n", window).await.unwrap().0, 1);
        assert_eq!(store.hit("n", window).await.unwrap().0, 2);
        tokio::time::sleep(Duration::from_millis(60)).await;
        assert_eq!(store.get("k").await.unwrap(), None);
        assert_eq!(store.hit("n", window).await.unwrap().0, 1);
    }
}
