//! Logging never stalls a stdio server: a client that never reads stderr still gets every
//! answer, and the default filter keeps rmcp's per-request lines out of the log. Against the
//! real `inventory` binary over real pipes.

use std::io::{BufRead, BufReader, Write};
use std::process::{ChildStdout, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use mcp_tool_test_support::stdio::start_raw;
use serde_json::{Value, json};

const INVENTORY: &str = env!("CARGO_BIN_EXE_inventory");

fn call(id: u64, tool: &str, arguments: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": tool, "arguments": arguments}})
    .to_string()
}

/// Reads answers until `count` have come or `limit` has passed; how many came.
fn count_answers(stdout: BufReader<ChildStdout>, count: usize, limit: Duration) -> usize {
    let (sender, received) = mpsc::channel();
    thread::spawn(move || {
        for line in stdout.lines() {
            let Ok(line) = line else { break };
            if line.contains("\"id\"") && sender.send(()).is_err() {
                break;
            }
        }
    });
    let deadline = Instant::now() + limit;
    let mut answered = 0;
    while answered < count {
        let left = deadline.saturating_duration_since(Instant::now());
        if received.recv_timeout(left).is_err() {
            break;
        }
        answered += 1;
    }
    answered
}

#[test]
fn a_stderr_nobody_reads_never_stops_the_answers() {
    const CALLS: u64 = 2_000;
    // `info` for the most log volume: every `legacy_report` call logs its masked failure.
    let (mut server, mut stdin, stdout) = start_raw(INVENTORY, Some("info"), Stdio::piped());
    let writer = thread::spawn(move || {
        for id in 1..=CALLS {
            let line = call(id, "legacy_report", json!({"year": 2024}));
            if writeln!(stdin, "{line}").is_err() {
                break;
            }
        }
        stdin
    });
    let started = Instant::now();
    let answered = count_answers(stdout, CALLS as usize, Duration::from_secs(30));
    eprintln!("{answered} of {CALLS} answered in {:?}", started.elapsed());
    assert_eq!(
        answered, CALLS as usize,
        "calls went unanswered while stderr was full"
    );
    drop(writer.join().expect("writer thread"));
    // Now read stderr: the lines that did not fit were dropped, and their count is logged.
    let (stderr, success) = server.stderr_and_success();
    assert!(success, "{stderr}");
    assert!(
        stderr.contains("log lines were dropped: stderr was not being read"),
        "{} bytes of stderr, no count of dropped lines",
        stderr.len()
    );
}

#[test]
fn by_default_only_failures_are_logged() {
    let (mut server, mut stdin, stdout) = start_raw(INVENTORY, None, Stdio::piped());
    for id in 1..=20 {
        writeln!(stdin, "{}", call(id, "get_user", json!({"user_id": 2}))).expect("write");
    }
    writeln!(stdin, "{}", call(21, "get_user", json!({"user_id": "two"}))).expect("write");
    writeln!(
        stdin,
        "{}",
        call(22, "legacy_report", json!({"year": 2024}))
    )
    .expect("write");
    assert_eq!(count_answers(stdout, 22, Duration::from_secs(20)), 22);
    drop(stdin);
    let (stderr, success) = server.stderr_and_success();
    assert!(success, "{stderr}");
    let masked = stderr.lines().filter(|line| line.contains("ERROR")).count();
    assert_eq!(masked, 1, "the masked failure is logged once:\n{stderr}");
    assert!(
        !stderr.contains(" INFO rmcp") && !stderr.contains("rejected: invalid arguments"),
        "per-request lines at the default filter:\n{stderr}"
    );
}
