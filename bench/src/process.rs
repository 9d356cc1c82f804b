//! Goals measured against real server processes over stdio pipes (P5, P7), with one plain
//! JSON-lines client for every server so that only the server differs.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// The workspace root, where `cargo build` runs.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the bench package sits in the workspace")
        .to_path_buf()
}

/// The directory of release binaries: the one the running executable sits in (or above, for
/// `target/release/deps/<bench>`), so that a custom target dir works too.
pub fn release_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the current executable has a path");
    exe.ancestors()
        .find(|dir| dir.file_name().is_some_and(|name| name == "release"))
        .map(Path::to_path_buf)
        .unwrap_or_else(|| workspace_root().join("target").join("release"))
}

/// Builds, in release mode, the binaries the process goals run: our and rmcp's stdio servers,
/// rmcp's HTTP server and the `inventory` example. One cargo run per package: built together,
/// their features are unified, the runtime then differs from the one `cargo run -p
/// mcp-tool-bench` builds, and each of the two builds undid the other, about 110 s of every
/// summary run.
pub fn build_servers() {
    build(&[
        "-p",
        "mcp-tool-bench",
        "--bin",
        "bench-ours-stdio",
        "--bin",
        "bench-rmcp-stdio",
        "--bin",
        "bench-rmcp-http",
    ]);
    build(&["-p", "mcp-tool-examples", "--bin", "inventory"]);
}

/// `cargo build --release -q` of `targets`.
fn build(targets: &[&str]) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(workspace_root())
        .args(["build", "--release", "-q"])
        .args(targets)
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building {targets:?} failed");
}

/// A running server with an initialized MCP session.
pub struct Session {
    child: Child,
    // `None` only while a run of calls has lent it to the writer thread.
    stdin: Option<BufWriter<ChildStdin>>,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

/// What came back from a run of calls.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    /// Results without `isError`.
    pub ok: usize,
    /// Results with `isError: true`.
    pub tool_errors: usize,
    /// JSON-RPC errors.
    pub rpc_errors: usize,
}

impl Session {
    /// Starts `binary` and performs the MCP handshake.
    pub fn start(binary: &Path) -> Self {
        Self::start_command(Command::new(binary))
    }

    /// Starts `command` (any stdio MCP server) and performs the MCP handshake.
    pub fn start_command(mut command: Command) -> Self {
        let described = format!("{command:?}");
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .env("RUST_LOG", "warn")
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start {described}: {error}"));
        let stdin = Some(BufWriter::new(child.stdin.take().expect("piped stdin")));
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut session = Self {
            child,
            stdin,
            stdout,
            next_id: 1,
        };
        session.send(
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"mcp-tool-bench","version":"0.1.0"}}}"#,
        );
        let mut line = String::new();
        session
            .stdout
            .read_line(&mut line)
            .expect("initialize answer");
        assert!(line.contains("\"result\""), "initialize failed: {line}");
        session.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        session
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is back from the writer");
        stdin.write_all(line.as_bytes()).expect("write to server");
        stdin.write_all(b"\n").expect("write to server");
        stdin.flush().expect("flush to server");
    }

    /// Sends one request and returns its answer's `result` (or the whole answer on an error).
    pub fn request(&mut self, method: &str, params: serde_json::Value) -> serde_json::Value {
        let id = self.next_id;
        self.next_id += 1;
        let request =
            serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send(&request.to_string());
        loop {
            let mut line = String::new();
            let read = self.stdout.read_line(&mut line).expect("an answer");
            assert!(
                read > 0,
                "the server closed stdout before answering {method}"
            );
            let Ok(message) = serde_json::from_str::<serde_json::Value>(&line) else {
                continue;
            };
            if message["id"] == id {
                return message.get("result").cloned().unwrap_or(message);
            }
        }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends `count` `tools/call` requests, `arguments(i)` giving the tool and arguments of
    /// the `i`-th, with at most `window` unanswered at any time, and reads every answer.
    /// Returns the wall time from the first request to the last answer.
    pub fn calls(
        &mut self,
        count: usize,
        window: usize,
        call: impl Fn(usize) -> (&'static str, String) + Send + 'static,
    ) -> (Duration, Tally) {
        let first_id = self.next_id;
        self.next_id += count as u64;
        let (credit_tx, credit_rx) = mpsc::channel::<()>();
        let stdin = self.stdin.take().expect("stdin is back from the writer");
        let start = Instant::now();
        let writer = thread::spawn(move || {
            let mut stdin = stdin;
            for i in 0..count {
                if i >= window {
                    stdin.flush().expect("flush to server");
                    credit_rx.recv().expect("the reader hands out credits");
                }
                let (tool, arguments) = call(i);
                writeln!(
                    stdin,
                    r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}"#,
                    first_id + i as u64
                )
                .expect("write to server");
            }
            stdin.flush().expect("flush to server");
            stdin
        });
        let mut tally = Tally::default();
        let mut line = String::new();
        let mut answered = 0;
        while answered < count {
            line.clear();
            let read = self.stdout.read_line(&mut line).expect("read from server");
            assert!(
                read > 0,
                "the server closed its output after {answered} answers"
            );
            if !line.contains("\"id\"") {
                continue;
            }
            answered += 1;
            if line.contains("\"isError\":true") {
                tally.tool_errors += 1;
            } else if line.starts_with("{\"jsonrpc\":\"2.0\",\"id\"")
                && line.contains("\"error\":{")
            {
                tally.rpc_errors += 1;
            } else {
                tally.ok += 1;
            }
            let _ = credit_tx.send(());
        }
        let elapsed = start.elapsed();
        self.stdin = Some(writer.join().expect("the writer thread finishes"));
        (elapsed, tally)
    }

    /// The peak resident set size of the server so far, in kB (`VmHWM`).
    pub fn peak_rss_kb(&self) -> u64 {
        mcp_tool_test_support::peak_memory(self.pid()) / 1024
    }

    /// Closes stdin, which ends the session, and waits up to `within` for the server to exit;
    /// one that lingers is killed. True when it exited on its own.
    pub fn end(&mut self, within: Duration) -> bool {
        drop(self.stdin.take());
        let deadline = Instant::now() + within;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        false
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.end(Duration::from_secs(5));
    }
}

/// The valid `add_item` call both stdio servers answer.
pub(crate) fn add_item_call(_: usize) -> (&'static str, String) {
    ("add_item", crate::valid_arguments().to_string())
}

/// P5: wall time of `calls` pipelined valid calls to our stdio server and to rmcp's, the
/// median over `rounds` (alternating which goes first). Returns (ours, rmcp).
pub fn stdio_throughput(calls: usize, rounds: usize) -> (Duration, Duration) {
    stdio_throughput_with(calls, rounds, &[])
}

/// P5m: P5 with our server started with `ours_args` (`--noop-middleware`).
pub fn stdio_throughput_with(
    calls: usize,
    rounds: usize,
    ours_args: &[&str],
) -> (Duration, Duration) {
    let dir = release_dir();
    let ours_binary = dir.join("bench-ours-stdio");
    let rmcp_binary = dir.join("bench-rmcp-stdio");
    let run = |binary: &Path| {
        let args: &[&str] = if binary == ours_binary {
            ours_args
        } else {
            &[]
        };
        let mut command = Command::new(binary);
        command.args(args);
        let mut session = Session::start_command(command);
        // A short warm-up, so that both servers have their lazies and threads up.
        session.calls(200, usize::MAX, add_item_call);
        let (elapsed, tally) = session.calls(calls, usize::MAX, add_item_call);
        assert_eq!(tally.ok, calls, "{}: {tally:?}", binary.display());
        elapsed
    };
    let mut ours = Vec::new();
    let mut rmcp = Vec::new();
    for round in 0..rounds {
        if round.is_multiple_of(2) {
            ours.push(run(&ours_binary));
            rmcp.push(run(&rmcp_binary));
        } else {
            rmcp.push(run(&rmcp_binary));
            ours.push(run(&ours_binary));
        }
    }
    ours.sort();
    rmcp.sort();
    (ours[ours.len() / 2], rmcp[rmcp.len() / 2])
}

/// The `i`-th call of the memory run: half valid (`get_user`, `search_items`), half invalid
/// (three violations for `add_item`, a range violation for `get_user`). `add_item` is never
/// valid here, since each valid one adds a cart row (data, not a leak), and `reserve_stock`
/// is rate limited.
pub fn mixed_inventory_call(i: usize) -> (&'static str, String) {
    match i % 4 {
        0 => ("get_user", r#"{"user_id":1}"#.into()),
        1 => (
            "add_item",
            r#"{"sku":"abc","quantity":"five","quantiy":3}"#.into(),
        ),
        2 => ("search_items", r#"{"query":"tea","sort":"desc"}"#.into()),
        _ => ("get_user", r#"{"user_id":0}"#.into()),
    }
}

/// What P7 measured.
#[derive(Clone, Copy, Debug)]
pub struct RssGrowth {
    /// `VmHWM` after the first calls, in kB.
    pub after_few_kb: u64,
    /// `VmHWM` after all calls, in kB.
    pub after_all_kb: u64,
    /// The answers of all calls.
    pub tally: Tally,
}

impl RssGrowth {
    /// `after_all / after_few`.
    pub fn ratio(&self) -> f64 {
        self.after_all_kb as f64 / self.after_few_kb as f64
    }
}

/// P7: peak memory of the `inventory` server after `few` mixed calls and after `all`, with at
/// most `window` calls in flight (the same concurrency in both phases).
pub fn rss_growth(few: usize, all: usize, window: usize) -> RssGrowth {
    let inventory = release_dir().join("inventory");
    let (peaks, tally) = rss_curve(&inventory, &[few, all], window);
    RssGrowth {
        after_few_kb: peaks[0],
        after_all_kb: peaks[1],
        tally,
    }
}

/// P7's load on `binary` over as many calls as the last of `checkpoints` (ascending): its
/// `VmHWM` in kB after each, and the answers of all calls.
pub fn rss_curve(binary: &Path, checkpoints: &[usize], window: usize) -> (Vec<u64>, Tally) {
    let mut session = Session::start(binary);
    let mut tally = Tally::default();
    let mut peaks = Vec::with_capacity(checkpoints.len());
    let mut done = 0;
    for &upto in checkpoints {
        let (_, part) = session.calls(upto - done, window, move |i| mixed_inventory_call(i + done));
        tally.ok += part.ok;
        tally.tool_errors += part.tool_errors;
        tally.rpc_errors += part.rpc_errors;
        peaks.push(session.peak_rss_kb());
        done = upto;
    }
    (peaks, tally)
}
