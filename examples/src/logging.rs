//! Logging for stdio servers: stdout carries the protocol, so the log goes to stderr.

use tracing_subscriber::EnvFilter;

/// Sends `tracing` output to stderr, at `info` unless `RUST_LOG` says otherwise.
pub fn init_stderr() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    // A second initialisation (tests, embedding) keeps the first subscriber.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
}
