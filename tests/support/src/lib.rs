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

/// A memory figure of process `pid` from `/proc/PID/status` (`field` is `VmHWM`, `VmRSS`,
/// …), in bytes.
pub fn memory_status(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("read its status");
    let kib = status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|rest| {
            rest.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })
        .unwrap_or_else(|| panic!("no {field} line in /proc/{pid}/status"));
    kib * 1024
}

/// The peak resident memory of process `pid` so far (`VmHWM`), in bytes.
pub fn peak_memory(pid: u32) -> u64 {
    memory_status(pid, "VmHWM")
}

/// Sends process `pid` the signal `name` (`TERM`, `INT`) with `kill -s`.
pub fn send_signal(pid: u32, name: &str) {
    let status = std::process::Command::new("kill")
        .args(["-s", name, &pid.to_string()])
        .status()
        .expect("run kill");
    assert!(status.success(), "kill -s {name} {pid} failed");
}
