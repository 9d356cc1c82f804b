//! Tokens already checked, kept until they expire: a token seen before costs a hash and a
//! comparison, not a signature check.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::{Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::tool::Principal;

/// One accepted token.
struct Entry {
    token: Box<str>,
    principal: Principal,
    /// When it stops being valid, in seconds since the epoch.
    expires: u64,
}

/// How much of a token's end is hashed: a JWT ends with its signature, and any token with
/// tens of random characters; two tokens that share their ends only share a slot.
const HASHED_BYTES: usize = 64;

/// Accepted tokens by a keyed hash of their end, at most `capacity` of them.
pub(super) struct TokenCache {
    capacity: usize,
    hasher: RandomState,
    entries: Mutex<HashMap<u64, Entry>>,
}

impl TokenCache {
    pub(super) fn new(capacity: usize) -> Self {
        Self {
            capacity,
            hasher: RandomState::new(),
            entries: Mutex::default(),
        }
    }

    /// The principal of `token`, if it was accepted and has not expired.
    pub(super) fn get(&self, token: &str) -> Option<Principal> {
        if self.capacity == 0 {
            return None;
        }
        let key = self.key(token);
        let entries = self.lock();
        let entry = entries.get(&key)?;
        // A plain comparison: a guess reaches it only with the hash of a token held, under a
        // random key it cannot know, so its timing tells nothing about the tokens held.
        let same = *entry.token == *token;
        (same && now() < entry.expires).then(|| entry.principal.clone())
    }

    /// Keeps `principal` for `token` until `expires`. A full cache drops the expired entries
    /// first, then an eighth of the others: only accepted tokens get in, so no caller can
    /// fill it with junk, and a dropped one costs one more signature check.
    pub(super) fn insert(&self, token: &str, principal: Principal, expires: u64) {
        if self.capacity == 0 {
            return;
        }
        let key = self.key(token);
        let mut entries = self.lock();
        if entries.len() >= self.capacity {
            let now = now();
            entries.retain(|_, entry| entry.expires > now);
        }
        if entries.len() >= self.capacity {
            let drop: Vec<u64> = entries
                .keys()
                .take((self.capacity / 8).max(1))
                .copied()
                .collect();
            for key in drop {
                entries.remove(&key);
            }
        }
        entries.insert(
            key,
            Entry {
                token: token.into(),
                principal,
                expires,
            },
        );
    }

    fn key(&self, token: &str) -> u64 {
        let bytes = token.as_bytes();
        self.hasher
            .hash_one(&bytes[bytes.len().saturating_sub(HASHED_BYTES)..])
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Entry>> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Seconds since the epoch.
pub(super) fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs())
}
