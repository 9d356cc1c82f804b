//! A token-bucket rate limit: for the server, per tool, per caller, or both.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::time::Instant;

use super::{Middleware, Next, ToolRequest};
use crate::dispatch::CallOutcome;
use crate::error::ToolError;
use crate::render;
use crate::store::Store;

/// How many idle buckets a limit keeps before it forgets the full ones.
const PRUNE_ABOVE: usize = 4096;

/// Middleware: at most `calls` calls per `per`, as a token bucket (a burst of `calls`, then
/// one more each `per / calls`). A call over the limit is answered `rate_limited`, with the
/// seconds until the next call is allowed in the envelope's `retryAfter`; the tool does not
/// run.
///
/// By default one bucket serves the whole server. [`RateLimit::per_tool`] gives each tool its
/// own, [`RateLimit::per_principal`] each caller ([`crate::Principal`]; calls without one
/// share a bucket), both together each caller of each tool; [`RateLimit::only`] limits some
/// tools and lets the others through.
///
/// ```
/// use std::time::Duration;
///
/// use mcp_tool_runtime::{McpServer, mcp_tool, middleware::RateLimit};
///
/// /// Reserve stock.
/// #[mcp_tool]
/// fn reserve(quantity: u32) -> String { format!("reserved {quantity}") }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let server = McpServer::builder(())
///     .tool(reserve_tool())
///     .middleware(RateLimit::new(2, Duration::from_secs(60)).per_tool().per_principal())
///     .build()?;
/// let arguments = Some(serde_json::json!({"quantity": 1}));
/// for _ in 0..2 {
///     assert_eq!(server.call("reserve", arguments.clone()).await?.is_error, Some(false));
/// }
/// let refused = server.call("reserve", arguments).await?;
/// let text = format!("{:?}", refused.content);
/// assert!(text.contains("Too many calls to tool 'reserve' from this caller"));
/// assert!(text.contains("retry after 30 seconds"));
/// # Ok(()) }
/// ```
pub struct RateLimit {
    calls: u32,
    per: Duration,
    per_tool: bool,
    per_principal: bool,
    only: Option<Vec<String>>,
    buckets: Mutex<Buckets>,
    /// Where the counts live when they are shared ([`RateLimit::in_store`]).
    store: Option<Arc<dyn Store>>,
}

/// Buckets by tool (`""` when not per tool), then by caller (`""` when not per caller, or
/// anonymous): both looked up by `&str`, so a call allocates only for a new key.
#[derive(Default)]
struct Buckets {
    by_tool: HashMap<String, HashMap<String, Bucket>>,
    count: usize,
    /// The count at which full buckets are next forgotten.
    prune_at: usize,
}

impl fmt::Debug for RateLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RateLimit")
            .field("calls", &self.calls)
            .field("per", &self.per)
            .field("per_tool", &self.per_tool)
            .field("per_principal", &self.per_principal)
            .field("only", &self.only)
            .finish()
    }
}

/// Tokens left, as of `updated`.
#[derive(Clone, Copy)]
struct Bucket {
    tokens: f64,
    updated: Instant,
}

impl RateLimit {
    /// At most `calls` calls per `per`, for the whole server. `calls` is at least 1 and `per`
    /// at least a millisecond.
    pub fn new(calls: u32, per: Duration) -> Self {
        Self {
            calls: calls.max(1),
            per: per.max(Duration::from_millis(1)),
            per_tool: false,
            per_principal: false,
            only: None,
            buckets: Mutex::default(),
            store: None,
        }
    }

    /// Counts calls in `store` instead of this process's memory, so that every instance
    /// sharing the store (a [`RedisStore`](crate::store::Store) behind a load balancer)
    /// shares the limit: at most `calls` in each window of `per`, which starts with its first
    /// call (a fixed window, one store round trip per call, where the in-memory limit is a
    /// token bucket). When the store cannot be reached, a limited call is answered with a
    /// retryable `unavailable` error and does not run.
    pub fn in_store(mut self, store: Arc<dyn Store>) -> Self {
        self.store = Some(store);
        self
    }

    /// Counts this call in the store's window: `Ok(Err(wait))` when it is over the limit.
    async fn take_shared(
        &self,
        store: &dyn Store,
        tool: &str,
        caller: &str,
    ) -> Result<Result<(), Duration>, ToolError> {
        let key = format!("mcp-tool:rate:{}:{tool}:{caller}", self.calls);
        match store.hit(&key, self.per).await {
            Ok((count, _)) if count <= u64::from(self.calls) => Ok(Ok(())),
            Ok((_, left)) => Ok(Err(left.max(Duration::from_millis(1)))),
            Err(error) => {
                tracing::warn!(%error, "the rate limit's store is unavailable");
                Err(ToolError::unavailable(render::STORE_UNAVAILABLE)
                    .with_retry_after(Duration::from_secs(1)))
            }
        }
    }

    /// Each tool gets its own bucket.
    pub fn per_tool(mut self) -> Self {
        self.per_tool = true;
        self
    }

    /// Each caller gets its own bucket, by its principal's subject.
    pub fn per_principal(mut self) -> Self {
        self.per_principal = true;
        self
    }

    /// Only calls to these tools are limited.
    pub fn only<I, N>(mut self, tools: I) -> Self
    where
        I: IntoIterator<Item = N>,
        N: Into<String>,
    {
        self.only = Some(tools.into_iter().map(Into::into).collect());
        self
    }

    /// Takes a token for this call, or says how long until one is free.
    fn take(&self, tool: &str, caller: &str, now: Instant) -> Result<(), Duration> {
        let capacity = f64::from(self.calls);
        let per_token = self.per.as_secs_f64() / capacity;
        let mut guard = self.buckets.lock().unwrap_or_else(PoisonError::into_inner);
        let buckets = &mut *guard;
        if buckets.count > buckets.prune_at.max(PRUNE_ABOVE) {
            buckets.count = prune(&mut buckets.by_tool, now, capacity, per_token);
            // Not again before the live buckets have doubled: pruning stays amortised.
            buckets.prune_at = 2 * buckets.count;
        }
        let callers = match buckets.by_tool.get_mut(tool) {
            Some(callers) => callers,
            None => buckets.by_tool.entry(tool.to_string()).or_default(),
        };
        let bucket = match callers.get_mut(caller) {
            Some(bucket) => bucket,
            None => {
                buckets.count += 1;
                callers.entry(caller.to_string()).or_insert(Bucket {
                    tokens: capacity,
                    updated: now,
                })
            }
        };
        let refilled = now.saturating_duration_since(bucket.updated).as_secs_f64() / per_token;
        bucket.tokens = (bucket.tokens + refilled).min(capacity);
        bucket.updated = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            // Never more than `per`; `try_` only because a float could round past `Duration`.
            let wait = Duration::try_from_secs_f64((1.0 - bucket.tokens) * per_token);
            Err(wait.unwrap_or(self.per).min(self.per))
        }
    }
}

/// Forgets the buckets that have refilled, since a full bucket is the same as none, and
/// counts the others.
fn prune(
    by_tool: &mut HashMap<String, HashMap<String, Bucket>>,
    now: Instant,
    capacity: f64,
    per_token: f64,
) -> usize {
    for callers in by_tool.values_mut() {
        callers.retain(|_, bucket| {
            let idle = now.saturating_duration_since(bucket.updated).as_secs_f64();
            bucket.tokens + idle / per_token < capacity
        });
    }
    by_tool.retain(|_, callers| !callers.is_empty());
    by_tool.values().map(HashMap::len).sum()
}

impl Middleware for RateLimit {
    async fn handle(
        &self,
        request: ToolRequest<'_>,
        next: Next<'_>,
    ) -> Result<CallOutcome, ToolError> {
        let name = request.tool().name();
        if !super::covers(self.only.as_deref(), name) {
            return Ok(next.run(request).await);
        }
        let tool = if self.per_tool { name } else { "" };
        let caller = match (self.per_principal, request.principal()) {
            (true, Some(principal)) => principal.subject(),
            _ => "",
        };
        let taken = match &self.store {
            Some(store) => self.take_shared(store.as_ref(), tool, caller).await?,
            None => self.take(tool, caller, Instant::now()),
        };
        if let Err(wait) = taken {
            let limited = (self.per_tool || self.only.as_ref().is_some_and(|only| only.len() == 1))
                .then_some(name);
            let message = render::rate_limited(limited, self.per_principal, self.calls, self.per);
            return Err(ToolError::rate_limited(message).with_retry_after(wait));
        }
        Ok(next.run(request).await)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use tokio::time::Instant;

    use super::RateLimit;

    #[test]
    fn a_bucket_allows_a_burst_then_one_call_per_interval() {
        let limit = RateLimit::new(3, Duration::from_secs(30));
        let start = Instant::now();
        for _ in 0..3 {
            assert_eq!(limit.take("", "", start), Ok(()));
        }
        assert_eq!(limit.take("", "", start), Err(Duration::from_secs(10)));
        let later = start + Duration::from_secs(4);
        let wait = limit.take("", "", later).expect_err("still empty");
        assert!((wait.as_secs_f64() - 6.0).abs() < 1e-6, "{wait:?}");
        assert_eq!(limit.take("", "", start + Duration::from_secs(10)), Ok(()));
        // Other keys have buckets of their own.
        assert_eq!(limit.take("other", "", start), Ok(()));
        assert_eq!(limit.take("", "bob", start), Ok(()));
    }

    #[test]
    fn full_buckets_are_forgotten_when_there_are_many() {
        let limit = RateLimit::new(1, Duration::from_secs(1)).per_principal();
        let start = Instant::now();
        for caller in 0..=super::PRUNE_ABOVE {
            assert_eq!(limit.take("", &caller.to_string(), start), Ok(()));
        }
        let later = start + Duration::from_secs(2);
        assert_eq!(limit.take("", "new", later), Ok(()));
        let buckets = limit.buckets.lock().expect("not poisoned");
        assert_eq!(buckets.count, 1);
        assert_eq!(buckets.by_tool[""].len(), 1);
    }
}
