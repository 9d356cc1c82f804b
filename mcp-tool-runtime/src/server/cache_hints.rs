//! The caching hints of the server's own cacheable results: a leaf of `server`, set by the
//! builder and sent by the handler.

use std::time::Duration;

use rmcp::model::CacheScope;

/// The caching hints of the server's own cacheable results (2026-07-28, SEP-2549).
#[derive(Debug, Clone, Copy)]
pub(super) struct CacheHints {
    pub(super) ttl: Duration,
    pub(super) scope: CacheScope,
}

impl Default for CacheHints {
    /// Fetch again every time, share with no one: what every official SDK sends by default.
    fn default() -> Self {
        Self {
            ttl: Duration::ZERO,
            scope: CacheScope::Private,
        }
    }
}
