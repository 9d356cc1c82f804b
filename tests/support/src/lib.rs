//! Shared helpers of mcp-tool's tests, used as a dev-dependency by the tests, examples and
//! corpus packages.
//!
//! - [`results`]: reading tool results and checking schemas in the in-process tests.
//! - [`stdio`]: a JSON-RPC client that speaks to a server process over real pipes.
//! - [`http`]: a server process on 127.0.0.1 and a plain HTTP/1.1 client.
//! - [`clients`]: the official MCP clients and schema validators, installed on first use.

pub mod clients;
pub mod http;
pub mod results;
pub mod stdio;

/// Sends process `pid` the signal `name` (`TERM`, `INT`) with `kill -s`.
pub fn send_signal(pid: u32, name: &str) {
    let status = std::process::Command::new("kill")
        .args(["-s", name, &pid.to_string()])
        .status()
        .expect("run kill");
    assert!(status.success(), "kill -s {name} {pid} failed");
}
