//! Shared helpers of mcp-tool's tests, used as a dev-dependency by the tests, examples and
//! corpus packages.
//!
//! - [`results`]: reading tool results and checking schemas in the in-process tests.
//! - [`stdio`]: a JSON-RPC client that speaks to a server process over real pipes.
//! - [`http`]: a server process on 127.0.0.1 and a plain HTTP/1.1 client.
//! - `in_process` (feature `serve`): a server of the test's own process over real HTTP.
//! - `jwt` (feature `jwt`): a token issuer's signing key.
//! - [`clients`]: the official MCP clients and schema validators, installed on first use.
//! - [`frameworks`]: agent frameworks as MCP clients, judged on what they hand the model.

pub mod clients;
pub mod frameworks;
pub mod http;
#[cfg(feature = "serve")]
pub mod in_process;
#[cfg(feature = "jwt")]
pub mod jwt;
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

/// Item 12 of the reliability issue: any single call peaks within 20 times its message
/// plus this. Tiny values cost more than 20 times their bytes: `0,` becomes a 72-byte
/// `serde_json::Value`, `"a",` that and the smallest heap block of its text, and then the
/// tool's own `String`. The values limit (200,000 in a call by default) caps how many there
/// can be, so what they cost past 20 times is bounded: about 8 MiB in the densest calls the
/// tests send.
pub const PEAK_CONSTANT_BYTES: u64 = 16 * 1024 * 1024;

/// Asserts that the call `name`, of a `message` bytes, took at most item 12's bound at its
/// peak (`peak` bytes), after noting it in `report`, which a failure prints whole.
pub fn assert_peak_within_bound(report: &mut Vec<String>, name: &str, peak: u64, message: usize) {
    let allowed = 20 * message as u64 + PEAK_CONSTANT_BYTES;
    report.push(format!(
        "{name}: {peak} bytes at the peak for a message of {message}"
    ));
    assert!(
        peak <= allowed,
        "{name}: {peak} bytes, over {allowed}\n{report:#?}"
    );
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
