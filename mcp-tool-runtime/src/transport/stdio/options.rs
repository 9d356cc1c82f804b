//! What a user sets of the stdio transport.

use std::time::Duration;

/// The default time the calls already read get to finish after a shutdown signal.
const DEFAULT_GRACE_PERIOD: Duration = Duration::from_secs(10);

/// The default size limit of one incoming message: 4 MiB.
const DEFAULT_MAX_MESSAGE_BYTES: usize = 4 * 1024 * 1024;

/// Options of the stdio transport.
///
/// ```
/// let options = mcp_tool_runtime::StdioOptions::default().max_message_bytes(1 << 20);
/// assert_eq!(options.limit(), 1 << 20);
/// ```
#[derive(Clone, Debug)]
pub struct StdioOptions {
    pub(super) max_message_bytes: usize,
    pub(super) grace_period: Duration,
}

impl Default for StdioOptions {
    fn default() -> Self {
        Self {
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
            grace_period: DEFAULT_GRACE_PERIOD,
        }
    }
}

impl StdioOptions {
    /// The largest message accepted, in bytes (default 4 MiB). A longer
    /// line is discarded without being buffered and answered with an error.
    pub fn max_message_bytes(mut self, bytes: usize) -> Self {
        self.max_message_bytes = bytes.max(1);
        self
    }

    /// How long the calls already read get to finish after SIGTERM or SIGINT (default
    /// 10 s): input is no longer read, what was read is answered, then the session ends.
    pub fn grace_period(mut self, limit: Duration) -> Self {
        self.grace_period = limit;
        self
    }

    /// The configured size limit.
    pub fn limit(&self) -> usize {
        self.max_message_bytes
    }
}
