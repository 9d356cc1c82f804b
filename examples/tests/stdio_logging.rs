//! Logging never stalls a stdio server: a client that never reads stderr still gets every
//! answer, and the default filter keeps rmcp's per-request lines out of the log. Against the
//! real `inventory` binary over real pipes.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const INVENTORY: &str = env!("CARGO_BIN_EXE_inventory");

/// A child process killed on drop, so that a failing test leaves nothing running.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts the inventory over stdio with `RUST_LOG` set to `filter` (or unset), stderr piped.
fn start(filter: Option<&str>) -> (Killed, ChildStdin, BufReader<ChildStdout>) {
    let mut command = Command::new(INVENTORY);
    match filter {
        Some(filter) => command.env("RUST_LOG", filter),
        None => command.env_remove("RUST_LOG"),
    };
    let mut server = Killed(
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start inventory"),
    );
    let mut stdin = server.0.stdin.take().expect("piped stdin");
    let mut stdout = BufReader::new(server.0.stdout.take().expect("piped stdout"));
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "e2e", "version": "1"}}});
    writeln!(stdin, "{initialize}").expect("write initialize");
    let mut answer = String::new();
    stdout
        .read_line(&mut answer)
        .expect("read initialize answer");
    assert!(answer.contains("\"result\""), "{answer}");
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
    )
    .expect("write");
    (server, stdin, stdout)
}

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
    let (mut server, mut stdin, stdout) = start(Some("info"));
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
    let mut stderr = String::new();
    let _ = server
        .0
        .stderr
        .take()
        .expect("piped stderr")
        .read_to_string(&mut stderr);
    assert!(server.0.wait().expect("wait").success());
    assert!(
        stderr.contains("log lines were dropped: stderr was not being read"),
        "{} bytes of stderr, no count of dropped lines",
        stderr.len()
    );
}

#[test]
fn by_default_only_failures_are_logged() {
    let (mut server, mut stdin, stdout) = start(None);
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
    let mut stderr = String::new();
    let _ = server
        .0
        .stderr
        .take()
        .expect("piped stderr")
        .read_to_string(&mut stderr);
    assert!(server.0.wait().expect("wait").success());
    let masked = stderr.lines().filter(|line| line.contains("ERROR")).count();
    assert_eq!(masked, 1, "the masked failure is logged once:\n{stderr}");
    assert!(
        !stderr.contains(" INFO rmcp") && !stderr.contains("rejected: invalid arguments"),
        "per-request lines at the default filter:\n{stderr}"
    );
}
