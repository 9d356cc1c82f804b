//! P8i and P5i: instructions per call over HTTP and over stdio, ours against rmcp, counted by
//! callgrind.
//!
//! Throughput on this shared machine moves by several percent between runs (P5, P8); the
//! count of instructions moves by well under one, so a change of a few percent in a
//! transport's path shows here first. P8i: one connection, `get_user` as in P8. P5i: P5's
//! `add_item` calls, pipelined. Each figure is the difference between 2,500 and 500 calls,
//! divided by 2,000, so that start-up and shutdown cancel out. Needs `valgrind`
//! (`bench/scripts/callgrind_http.sh` and `callgrind_stdio.sh` are the same measures for one
//! binary, by hand).

use std::fs::File;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::http_load::{self, Mode, Running, Server};
use crate::process::{Session, add_item_call};

/// The call counts whose difference is measured.
const FEW_CALLS: usize = 500;
const MANY_CALLS: usize = 2_500;

/// Whether `valgrind` can be run.
pub fn available() -> bool {
    Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success())
}

/// The instructions one call to `server` in `mode` takes.
pub fn per_call(server: Server, mode: Mode) -> u64 {
    one_calls_share(|calls| total(server, mode, calls))
}

/// One call's share of what `total` counts for a number of calls: the difference between
/// many calls and few, over the difference in calls.
fn one_calls_share(total: impl Fn(usize) -> u64) -> u64 {
    let few = total(FEW_CALLS);
    let many = total(MANY_CALLS);
    many.saturating_sub(few) / (MANY_CALLS - FEW_CALLS) as u64
}

/// `valgrind` running callgrind, which keeps no profile: only the count in its log.
fn callgrind() -> Command {
    let mut command = Command::new("valgrind");
    command.args(["--tool=callgrind", "--callgrind-out-file=/dev/null"]);
    command
}

/// The instructions `server` ran in all, from its start to its exit after `calls` calls.
fn total(server: Server, mode: Mode, calls: usize) -> u64 {
    let addr = http_load::free_addr();
    let inner = server.command(addr, mode);
    let mut command = callgrind();
    command.arg(inner.get_program()).args(inner.get_args());
    let log_path = std::env::temp_dir().join(format!("p8i-{}-{}.log", std::process::id(), calls));
    let log = File::create(&log_path).expect("a log file for valgrind");
    let mut running = Running::launch(command, addr, Stdio::from(log));
    http_load::run(running.addr, mode, 1, calls);
    running.terminate();
    let log = std::fs::read_to_string(&log_path).expect("valgrind's log");
    let _ = std::fs::remove_file(&log_path);
    count(&log)
}

/// The instructions one of P5's stdio calls takes in the server `binary`.
pub fn stdio_per_call(binary: &Path) -> u64 {
    one_calls_share(|calls| stdio_total(binary, calls))
}

/// The instructions the stdio server `binary` ran in all, from its start to its exit at the
/// end of its input, after the handshake and `calls` calls.
fn stdio_total(binary: &Path, calls: usize) -> u64 {
    let log_path = std::env::temp_dir().join(format!("p5i-{}-{}.log", std::process::id(), calls));
    let mut command = callgrind();
    command
        .arg(format!("--log-file={}", log_path.display()))
        .arg(binary);
    let mut session = Session::start_command(command);
    let (_, tally) = session.calls(calls, usize::MAX, add_item_call);
    assert_eq!(tally.ok, calls, "{}: {tally:?}", binary.display());
    // Under callgrind a server takes seconds to exit and write its counts.
    let exited = session.end(Duration::from_secs(60));
    let log = std::fs::read_to_string(&log_path).unwrap_or_default();
    let _ = std::fs::remove_file(&log_path);
    assert!(
        exited,
        "{} did not exit at the end of its input",
        binary.display()
    );
    count(&log)
}

/// The count of valgrind's `log`, which must hold one.
fn count(log: &str) -> u64 {
    instructions(log).unwrap_or_else(|| panic!("no instruction count in valgrind's log:\n{log}"))
}

/// The count of valgrind's `I   refs:      362,263,854` line.
fn instructions(log: &str) -> Option<u64> {
    let line = log.lines().find(|line| line.contains("I   refs:"))?;
    line.rsplit(' ').next()?.replace(',', "").parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_count_is_read_from_valgrinds_summary() {
        let log = "==7== Events    : Ir\n==7== Collected : 362263854\n==7== \n\
                   ==7== I   refs:      362,263,854\n";
        assert_eq!(instructions(log), Some(362_263_854));
        assert_eq!(instructions("==7== no summary\n"), None);
    }
}
