//! Logging for stdio servers: stdout carries the protocol, so the log goes to stderr.

use mcp_tool_runtime::stdio::StderrLog;
use tracing_subscriber::EnvFilter;

/// The filter unless `RUST_LOG` says otherwise: rmcp logs an `info` line per request and the
/// runtime one per rejected call, which under load is megabytes of stderr; at `warn` only
/// failures are logged. The binaries' own `info` lines (where they listen) stay.
pub const DEFAULT_FILTER: &str = "info,rmcp=warn,mcp_tool_runtime=warn";

/// Sends `tracing` output to stderr through [`StderrLog`], so that a client that never reads
/// stderr cannot block the server: lines past its bound are dropped and counted.
pub fn init_stderr() {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(DEFAULT_FILTER));
    // A second initialisation (tests, embedding) keeps the first subscriber.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(StderrLog::default)
        .with_ansi(false)
        .try_init();
}

/// Gives queued log lines up to a second to reach stderr before the process exits.
pub fn flush() {
    StderrLog::flush_for(std::time::Duration::from_secs(1));
}
