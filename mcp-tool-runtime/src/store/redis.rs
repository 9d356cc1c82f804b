//! The Redis store: one multiplexed connection that reconnects by itself (redis-rs's
//! `ConnectionManager`), every command bounded by a time limit, and the two changes that
//! must be atomic (a versioned replace, a counted hit) as Lua scripts: one round trip each.

use std::fmt;
use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{Client, Script};

use super::{Store, StoreError, StoreFuture, Versioned};

/// A value is stored as `{version}\n{value}`.
const REPLACE: &str = r"
local current = redis.call('GET', KEYS[1])
if not current then return 0 end
local newline = string.find(current, '\n', 1, true)
if not newline then return 0 end
local version = tonumber(string.sub(current, 1, newline - 1))
if version ~= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], (version + 1) .. '\n' .. ARGV[2], 'PX', ARGV[3])
return 1
";

/// Counts a hit; the first hit of a window sets its expiry.
const HIT: &str = r"
local count = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return {count, left}
";

/// Tasks and rate limits in Redis, shared by every instance that uses the same server (and
/// key prefix). Feature `redis`.
///
/// Each command waits at most the store's time limit (default 1 s): when Redis is down, the
/// call that needed it is answered with a retryable `unavailable` error at once, the rest of
/// the server goes on, and the connection comes back by itself when Redis does.
///
/// ```no_run
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use mcp_tool_runtime::store::RedisStore;
/// let store = RedisStore::connect("redis://127.0.0.1:6379").await?;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct RedisStore {
    connection: ConnectionManager,
    prefix: String,
    limit: Duration,
    replace: Script,
    hit: Script,
}

impl fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisStore")
            .field("prefix", &self.prefix)
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

fn failed(error: impl fmt::Display) -> StoreError {
    StoreError::new(format!("redis: {error}"))
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis())
        .unwrap_or(u64::MAX)
        .max(1)
}

impl RedisStore {
    /// Connects to the Redis at `url` (`redis://host:port/db`, `rediss://` for TLS when
    /// redis-rs is built with it). Fails when Redis cannot be reached now; once connected,
    /// the store reconnects by itself.
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        Self::connect_with(url, Duration::from_secs(1)).await
    }

    /// [`RedisStore::connect`] with `limit` as the time any one command may take.
    pub async fn connect_with(url: &str, limit: Duration) -> Result<Self, StoreError> {
        let client = Client::open(url).map_err(failed)?;
        // Reconnection is tried a few times with short pauses, then again on the next
        // command: a command never waits for more than `limit` either way.
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(limit)
            .set_response_timeout(limit)
            .set_number_of_retries(2)
            .set_factor(50)
            .set_max_delay(millis(limit));
        let connecting = ConnectionManager::new_with_config(client, config);
        let connection = tokio::time::timeout(limit.saturating_mul(3), connecting)
            .await
            .map_err(|_| failed("no connection within the time limit"))?
            .map_err(failed)?;
        Ok(Self {
            connection,
            prefix: String::new(),
            limit,
            replace: Script::new(REPLACE),
            hit: Script::new(HIT),
        })
    }

    /// The same store with every key under `prefix` (for several servers in one Redis).
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    fn key(&self, key: &str) -> String {
        format!("{}{key}", self.prefix)
    }

    /// Runs one command within the time limit.
    async fn bounded<T>(
        &self,
        command: impl Future<Output = redis::RedisResult<T>>,
    ) -> Result<T, StoreError> {
        match tokio::time::timeout(self.limit, command).await {
            Ok(answer) => answer.map_err(failed),
            Err(_) => Err(failed("no answer within the time limit")),
        }
    }
}

impl Store for RedisStore {
    fn insert<'a>(&'a self, key: &'a str, value: String, ttl: Duration) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let mut connection = self.connection.clone();
            let mut command = redis::cmd("SET");
            command
                .arg(self.key(key))
                .arg(format!("1\n{value}"))
                .arg("NX")
                .arg("PX")
                .arg(millis(ttl));
            let answer: Option<String> = self.bounded(command.query_async(&mut connection)).await?;
            Ok(answer.is_some())
        })
    }

    fn get<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Option<Versioned>> {
        Box::pin(async move {
            let mut connection = self.connection.clone();
            let mut command = redis::cmd("GET");
            command.arg(self.key(key));
            let stored: Option<String> = self.bounded(command.query_async(&mut connection)).await?;
            let Some(stored) = stored else {
                return Ok(None);
            };
            let (version, value) = stored
                .split_once('\n')
                .ok_or_else(|| failed("a value without a version"))?;
            let version = version
                .parse()
                .map_err(|_| failed("a value with a bad version"))?;
            Ok(Some(Versioned {
                version,
                value: value.to_string(),
            }))
        })
    }

    fn replace<'a>(
        &'a self,
        key: &'a str,
        version: u64,
        value: String,
        ttl: Duration,
    ) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let mut connection = self.connection.clone();
            let mut invocation = self.replace.key(self.key(key));
            invocation.arg(version).arg(value).arg(millis(ttl));
            let replaced: i64 = self
                .bounded(invocation.invoke_async(&mut connection))
                .await?;
            Ok(replaced == 1)
        })
    }

    fn hit<'a>(&'a self, key: &'a str, window: Duration) -> StoreFuture<'a, (u64, Duration)> {
        Box::pin(async move {
            let mut connection = self.connection.clone();
            let mut invocation = self.hit.key(self.key(key));
            invocation.arg(millis(window));
            let (count, left): (u64, u64) = self
                .bounded(invocation.invoke_async(&mut connection))
                .await?;
            Ok((count, Duration::from_millis(left)))
        })
    }
}
