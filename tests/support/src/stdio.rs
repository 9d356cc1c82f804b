//! A JSON-RPC client that speaks to a server process over real pipes, line by line.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long any single answer may take before the test fails instead of hanging.
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(20);

/// A running server and the client side of its stdio.
pub struct StdioSession {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
    next_id: u64,
    /// Messages read while waiting for another id: notifications and stray responses.
    pub unsolicited: Vec<Value>,
}

impl StdioSession {
    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Starts `program` with `args`, without the MCP handshake.
    pub fn spawn(program: &str, args: &[&str]) -> Self {
        let mut child = Command::new(program)
            .args(args)
            .env("RUST_LOG", "info")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start {program}: {error}"));
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut child_stderr = child.stderr.take().expect("piped stderr");
        let sink = Arc::clone(&stderr);
        thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(read) = child_stderr.read(&mut buffer) {
                if read == 0 {
                    break;
                }
                sink.lock()
                    .expect("stderr buffer")
                    .push_str(&String::from_utf8_lossy(&buffer[..read]));
            }
        });
        let stdin = child.stdin.take();
        Self {
            child,
            stdin,
            lines,
            stderr,
            next_id: 1,
            unsolicited: Vec::new(),
        }
    }

    /// Starts `program` and completes the MCP handshake.
    pub fn start(program: &str, args: &[&str]) -> Self {
        let mut session = Self::spawn(program, args);
        let init = session.request(
            "initialize",
            json!({
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "e2e", "version": "1.0"}
            }),
        );
        assert!(init.get("result").is_some(), "initialize failed: {init}");
        session.notify("notifications/initialized", None);
        session
    }

    /// Writes one raw line, exactly as given.
    pub fn send_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).expect("write to server");
        stdin.write_all(b"\n").expect("write to server");
        stdin.flush().expect("flush to server");
    }

    /// Writes `bytes` exactly as given: no newline is added.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to server");
        stdin.flush().expect("flush to server");
    }

    /// Closes the server's stdin (end of input), keeping the session to read what follows.
    pub fn close_stdin(&mut self) {
        drop(self.stdin.take());
    }

    /// Waits for the process to exit, failing the test after [`ANSWER_TIMEOUT`].
    pub fn wait_exit(&mut self) -> std::process::ExitStatus {
        let deadline = Instant::now() + ANSWER_TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for server") {
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("server did not exit; stderr:\n{}", self.stderr());
            }
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Sends the process `signal` (`TERM`, `INT`) with `kill -s`.
    pub fn signal(&self, signal: &str) {
        crate::send_signal(self.child.id(), signal);
    }

    /// Sends a notification.
    pub fn notify(&mut self, method: &str, params: Option<Value>) {
        let mut message = json!({"jsonrpc": "2.0", "method": method});
        if let Some(params) = params {
            message["params"] = params;
        }
        self.send_line(&message.to_string());
    }

    /// Sends a request and returns the whole response message.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send_line(&message.to_string());
        self.wait_for_id(&json!(id))
    }

    /// Reads messages until the response with `id` arrives.
    pub fn wait_for_id(&mut self, id: &Value) -> Value {
        let deadline = Instant::now() + ANSWER_TIMEOUT;
        loop {
            let message = self.read_message(deadline);
            if message.get("id") == Some(id)
                && (message.get("result").is_some() || message.get("error").is_some())
            {
                return message;
            }
            self.unsolicited.push(message);
        }
    }

    /// Fails the test if an answer to request `id` arrived among the messages read so far
    /// (a cancelled request must get none).
    pub fn assert_no_answer_to(&self, id: &str) {
        assert!(
            !self.unsolicited.iter().any(|message| message["id"] == id),
            "a cancelled call sends no result: {:?}",
            self.unsolicited
        );
    }

    /// The next message from the server, failing the test at `deadline`.
    pub fn read_message(&mut self, deadline: Instant) -> Value {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => serde_json::from_str(&line)
                .unwrap_or_else(|error| panic!("server wrote a non-JSON line {line:?}: {error}")),
            Err(RecvTimeoutError::Timeout) => {
                panic!(
                    "no answer within {ANSWER_TIMEOUT:?}; stderr:\n{}",
                    self.stderr()
                )
            }
            Err(RecvTimeoutError::Disconnected) => {
                panic!("server closed stdout; stderr:\n{}", self.stderr())
            }
        }
    }

    /// Calls a tool and returns the `result` (panics on a JSON-RPC error).
    pub fn call_tool(&mut self, name: &str, arguments: Value) -> Value {
        let response = self.request("tools/call", json!({"name": name, "arguments": arguments}));
        match response.get("result") {
            Some(result) => result.clone(),
            None => panic!("tools/call {name} answered with an error: {response}"),
        }
    }

    /// Everything the server wrote to stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().expect("stderr buffer").clone()
    }

    /// Waits until stderr contains `needle`, for log lines written after the response.
    pub fn wait_for_stderr(&self, needle: &str) -> String {
        let deadline = Instant::now() + ANSWER_TIMEOUT;
        loop {
            let text = self.stderr();
            if text.contains(needle) || Instant::now() > deadline {
                return text;
            }
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Closes stdin and waits for the process to exit.
    pub fn close(mut self) -> std::process::ExitStatus {
        self.close_stdin();
        self.wait_exit()
    }
}

impl Drop for StdioSession {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The text of a tool result's first content block.
pub fn text_of(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text content in {result}"))
        .to_string()
}

/// The error envelope of a tool result, as it is on the wire.
pub fn envelope_of(result: &Value) -> &Value {
    &result["_meta"]["rs.mcp-tool/error"]
}

/// The error envelope of a tool result as a client reads it, with `error` and each
/// violation's `message` read back from the text (see [`crate::results::client_envelope`]).
pub fn client_envelope_of(result: &Value) -> mcp_tool_runtime::client::RemoteError {
    let result: mcp_tool_runtime::rmcp::model::CallToolResult =
        serde_json::from_value(result.clone()).expect("a CallToolResult");
    crate::results::client_envelope(&result)
}

/// A child process killed on drop, so that a failing test leaves nothing running.
pub struct Killed(pub Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Killed {
    /// Reads the process's piped stderr to its end, then waits for the process: what it
    /// wrote, and whether it exited 0.
    pub fn stderr_and_success(&mut self) -> (String, bool) {
        let mut stderr = String::new();
        if let Some(mut pipe) = self.0.stderr.take() {
            let _ = pipe.read_to_string(&mut stderr);
        }
        let success = self.0.wait().is_ok_and(|status| status.success());
        (stderr, success)
    }
}

/// Starts `program` on raw pipes, with `RUST_LOG` set to `filter` (or unset) and stderr as
/// `stderr`, and completes the MCP handshake: for tests that control reading and writing
/// themselves (a client that stops reading, a stderr nobody reads).
pub fn start_raw(
    program: &str,
    filter: Option<&str>,
    stderr: Stdio,
) -> (Killed, ChildStdin, BufReader<ChildStdout>) {
    let mut command = Command::new(program);
    match filter {
        Some(filter) => command.env("RUST_LOG", filter),
        None => command.env_remove("RUST_LOG"),
    };
    let child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap_or_else(|error| panic!("cannot start {program}: {error}"));
    let mut server = Killed(child);
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
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    writeln!(stdin, "{initialized}").expect("write initialized");
    (server, stdin, stdout)
}
