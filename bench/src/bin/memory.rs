//! Memory of the release `inventory` server under the loads of issue 15: HTTP sessions
//! opened and left to expire (item 10), and single heavy calls over stdio and HTTP (item 12).
//! It prints `VmRSS` and `VmHWM` from `/proc/<pid>/status` and asserts nothing: the figures
//! go to BENCHMARKS.md, "Session memory" and "Memory per call".
//!
//! ```text
//! cargo run --release -p mcp-tool-bench --bin memory [-- sessions|calls|http|curve] [-- --binary PATH]
//! ```
//!
//! `curve`, only when named, runs P7's load (its four mixed calls over stdio, 64 in flight) for 400,000 calls
//! and prints `VmHWM` on the way: a leak grows with the calls, where P7 sees a few steps at
//! call counts that differ from run to run, then a flat line (BENCHMARKS.md).
//!
//! `--binary` measures another build of the server (an older commit's, say) with the same
//! loads; the flags of this stop (`--session-idle-timeout-ms`) must be known to it. `http`
//! runs only the HTTP calls, which rmcp's own server (`bench-rmcp-http`, whose `search_items`
//! takes the same arguments) serves too.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use mcp_tool_bench::process;
use mcp_tool_test_support::memory_status;
use serde_json::{Value, json};

const MIB: f64 = 1024.0 * 1024.0;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let binary = match args.iter().position(|arg| arg == "--binary") {
        Some(at) => PathBuf::from(&args[at + 1]),
        None => {
            process::build_servers();
            process::release_dir().join("inventory")
        }
    };
    let wanted = |part: &str| {
        let parts = ["sessions", "calls", "http", "curve"];
        !args.iter().any(|a| parts.contains(&a.as_str())) || args.iter().any(|a| a == part)
    };
    if wanted("sessions") {
        sessions(&binary, 2_000);
    }
    if wanted("calls") {
        stdio_calls(&binary);
    }
    if wanted("calls") || wanted("http") {
        http_calls(&binary);
    }
    // Only when asked: it is P7's question, not one of issue 15's loads.
    if args.iter().any(|arg| arg == "curve") {
        rss_curve(&binary);
    }
}

/// `VmHWM` of the inventory under P7's load, at checkpoints up to 400,000 calls.
fn rss_curve(binary: &Path) {
    let checkpoints = [1_000, 10_000, 50_000, 100_000, 200_000, 400_000];
    let (peaks, tally) = process::rss_curve(binary, &checkpoints, 64);
    println!("P7's load over stdio, 64 in flight ({tally:?}):");
    for (calls, peak) in checkpoints.iter().zip(peaks) {
        println!("  after {calls:>7} calls: VmHWM {peak} kB");
    }
}

/// `(VmRSS, VmHWM)` of `pid`, in bytes.
fn memory(pid: u32) -> (u64, u64) {
    (memory_status(pid, "VmRSS"), memory_status(pid, "VmHWM"))
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / MIB)
}

/// The server on a free port of 127.0.0.1, with `args`; killed on drop.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(binary: &PathBuf, args: &[&str]) -> Self {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free port")
            .port();
        let addr = format!("127.0.0.1:{port}");
        let child = Command::new(binary)
            .args(["--http", &addr])
            .args(args)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the server");
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(&addr).is_err() {
            assert!(Instant::now() < deadline, "the server did not listen");
            thread::sleep(Duration::from_millis(20));
        }
        thread::sleep(Duration::from_millis(300));
        Self { child, addr }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One kept-alive HTTP/1.1 connection.
struct Connection {
    addr: String,
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Connection {
    fn open(addr: &str) -> Self {
        let writer = TcpStream::connect(addr).expect("connect");
        writer
            .set_read_timeout(Some(Duration::from_secs(120)))
            .expect("timeout");
        writer.set_nodelay(true).expect("TCP_NODELAY");
        let reader = BufReader::new(writer.try_clone().expect("clone the socket"));
        Self {
            addr: addr.to_string(),
            reader,
            writer,
        }
    }

    /// POSTs `body`; the status, the session id if any, and the body.
    fn post(&mut self, session: Option<&str>, body: &[u8]) -> (u16, Option<String>, Vec<u8>) {
        let mut head = format!(
            "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\n",
            self.addr,
            body.len()
        );
        if let Some(session) = session {
            head.push_str(&format!("Mcp-Session-Id: {session}\r\n"));
        }
        head.push_str("\r\n");
        // One write: two would meet Nagle's algorithm and the server's delayed ACK.
        let mut request = head.into_bytes();
        request.extend_from_slice(body);
        self.writer.write_all(&request).expect("write the request");
        self.read_reply()
    }

    fn line(&mut self) -> String {
        let mut line = String::new();
        self.reader.read_line(&mut line).expect("read");
        line.trim_end().to_string()
    }

    fn read_reply(&mut self) -> (u16, Option<String>, Vec<u8>) {
        let status = self
            .line()
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .expect("a status");
        let (mut length, mut session) = (None, None);
        loop {
            let line = self.line();
            let Some((name, value)) = line.split_once(':') else {
                break;
            };
            match name.to_ascii_lowercase().as_str() {
                "content-length" => length = value.trim().parse::<usize>().ok(),
                "mcp-session-id" => session = Some(value.trim().to_string()),
                _ => {}
            }
        }
        let mut body = Vec::new();
        match length {
            Some(length) => {
                body.resize(length, 0);
                self.reader.read_exact(&mut body).expect("read body");
            }
            None => loop {
                let size = usize::from_str_radix(&self.line(), 16).expect("a chunk size");
                if size == 0 {
                    self.line();
                    break;
                }
                let mut chunk = vec![0; size + 2];
                self.reader.read_exact(&mut chunk).expect("read chunk");
                body.extend_from_slice(&chunk[..size]);
            },
        }
        (status, session, body)
    }
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"memory","version":"1"}}}"#;
const INITIALIZED: &[u8] = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// Item 10: `count` idle sessions, then their expiry.
fn sessions(binary: &PathBuf, count: usize) {
    let idle = Duration::from_secs(5);
    let idle_ms = idle.as_millis().to_string();
    let server = Server::start(binary, &["--session-idle-timeout-ms", &idle_ms]);
    let pid = server.child.id();
    let (baseline, _) = memory(pid);
    let mut connection = Connection::open(&server.addr);
    let started = Instant::now();
    let mut last = String::new();
    for _ in 0..count {
        let (status, session, _) = connection.post(None, INITIALIZE.as_bytes());
        assert_eq!(status, 200, "initialize");
        last = session.expect("a session id");
        let (status, _, _) = connection.post(Some(&last), INITIALIZED);
        assert_eq!(status, 202, "initialized");
    }
    let opened_in = started.elapsed();
    thread::sleep(Duration::from_millis(500));
    let (open, _) = memory(pid);
    println!(
        "sessions: baseline {}; {count} idle sessions (opened in {opened_in:.1?}): {} ({:.1} KiB a session)",
        mib(baseline),
        mib(open),
        open.saturating_sub(baseline) as f64 / 1024.0 / count as f64
    );
    // Expiry comes `idle` after each session's last message, and the memory is given back
    // at the next count of the sessions (every 5 s): wait for both, then for RSS to settle.
    thread::sleep(idle);
    let mut previous = open;
    for _ in 0..20 {
        thread::sleep(Duration::from_secs(1));
        let (now, _) = memory(pid);
        if now == previous && now < open {
            break;
        }
        previous = now;
    }
    let (status, _, _) =
        connection.post(Some(&last), br#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#);
    let (expired, _) = memory(pid);
    println!(
        "sessions: after expiry (the last session's id answers {status}): {} ({} above baseline)",
        mib(expired),
        mib(expired.saturating_sub(baseline))
    );
}

/// A stdio server with an initialized session.
struct StdioServer {
    child: Child,
    reader: BufReader<std::process::ChildStdout>,
}

impl StdioServer {
    fn start(binary: &PathBuf) -> Self {
        let mut child = Command::new(binary)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the server");
        let reader = BufReader::new(child.stdout.take().expect("stdout"));
        let mut server = Self { child, reader };
        server.send(INITIALIZE.as_bytes());
        server.answer();
        server.send(INITIALIZED);
        server.send(&call(2, "search_items", json!({"query": "tea"})));
        server.answer();
        server
    }

    fn send(&mut self, line: &[u8]) {
        let stdin = self.child.stdin.as_mut().expect("stdin");
        stdin.write_all(line).expect("write");
        stdin.write_all(b"\n").expect("write");
        stdin.flush().expect("flush");
    }

    fn answer(&mut self) -> Value {
        let mut line = String::new();
        self.reader.read_line(&mut line).expect("an answer");
        serde_json::from_str(&line).expect("JSON")
    }
}

impl Drop for StdioServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn call(id: u64, tool: &str, arguments: Value) -> Vec<u8> {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": tool, "arguments": arguments}})
    .to_string()
    .into_bytes()
}

/// How a call was answered, in a few words.
fn outcome(answer: &Value) -> String {
    let result = &answer["result"];
    if result["isError"] == true {
        let text = result["content"][0]["text"].as_str().unwrap_or_default();
        let problem = text.lines().nth(1).unwrap_or(text);
        format!("isError: {}", problem.chars().take(90).collect::<String>())
    } else if result.is_object() {
        "served".into()
    } else {
        format!("error {}", answer["error"]["code"])
    }
}

/// Item 12 over stdio: one heavy line each on a fresh server.
fn stdio_calls(binary: &PathBuf) {
    let ints = |n: usize| Value::from(vec![0; n]);
    let strings = |n: usize| Value::from(vec!["a"; n]);
    let spread = |arrays: usize, each: usize, item: Value| {
        let mut arguments = serde_json::Map::new();
        arguments.insert("query".into(), json!("tea"));
        for at in 0..arrays {
            arguments.insert(format!("x{at}"), Value::from(vec![item.clone(); each]));
        }
        Value::Object(arguments)
    };
    let cases = [
        (
            "1M short strings in tags",
            json!({"query": "tea", "tags": strings(1_000_000)}),
        ),
        (
            "1M integers in tags",
            json!({"query": "tea", "tags": ints(1_000_000)}),
        ),
        (
            "2M integers in 20 arrays of 100k",
            spread(20, 100_000, json!(0)),
        ),
        (
            "1M short strings in 20 arrays of 50k",
            spread(20, 50_000, json!("a")),
        ),
        (
            "100k short strings in tags (valid)",
            json!({"query": "tea", "tags": strings(100_000)}),
        ),
        (
            "20k tags of 16 characters (valid)",
            json!({"query": "tea", "tags": vec!["single-origin-00"; 20_000]}),
        ),
        (
            "100k integers in tags (each the wrong type)",
            json!({"query": "tea", "tags": ints(100_000)}),
        ),
        (
            "190k integers in 2 arrays of 95k",
            spread(2, 95_000, json!(0)),
        ),
    ];
    for (name, arguments) in cases {
        let mut server = StdioServer::start(binary);
        let line = call(3, "search_items", arguments);
        let (_, before) = memory(server.child.id());
        let started = Instant::now();
        server.send(&line);
        let answer = server.answer();
        let took = started.elapsed();
        let (_, after) = memory(server.child.id());
        thread::sleep(Duration::from_secs(1));
        let (later, _) = memory(server.child.id());
        // Freed memory is given back at the server's next look, every 5 s.
        thread::sleep(Duration::from_secs(5));
        let (settled, _) = memory(server.child.id());
        let grew = after.saturating_sub(before);
        println!(
            "stdio {name}: line {}; VmHWM {} -> {} (+{}, {:.1}x the line); VmRSS 1 s later {}, 6 s later {}; {took:.0?}; {}",
            mib(line.len() as u64),
            mib(before),
            mib(after),
            mib(grew),
            grew as f64 / line.len() as f64,
            mib(later),
            mib(settled),
            outcome(&answer)
        );
    }
}

/// Item 12 over HTTP: 30 concurrent calls of some 240 KB on one session each.
fn http_calls(binary: &PathBuf) {
    let bad = json!({"query": "tea", "tags": vec![0; 120_000]});
    let mut split = serde_json::Map::new();
    split.insert("query".into(), json!("tea"));
    split.insert("x0".into(), Value::from(vec![0; 60_000]));
    split.insert("x1".into(), Value::from(vec![0; 60_000]));
    let cases = [
        (
            "60k one-letter tags, valid",
            json!({"query": "tea", "tags": vec!["a"; 60_000]}),
        ),
        ("120k bad items in tags", bad),
        ("120k integers in 2 arrays of 60k", Value::Object(split)),
    ];
    for (name, arguments) in cases {
        let server = Server::start(binary, &[]);
        let pid = server.child.id();
        let body = call(3, "search_items", arguments);
        let mut connections: Vec<(Connection, String)> = (0..30)
            .map(|_| {
                let mut connection = Connection::open(&server.addr);
                let (_, session, _) = connection.post(None, INITIALIZE.as_bytes());
                let session = session.expect("a session");
                connection.post(Some(&session), INITIALIZED);
                (connection, session)
            })
            .collect();
        let (_, before) = memory(pid);
        let started = Instant::now();
        let answers: Vec<String> = thread::scope(|scope| {
            let calls: Vec<_> = connections
                .iter_mut()
                .map(|(connection, session)| {
                    let body = &body;
                    scope.spawn(move || {
                        let (status, _, reply) = connection.post(Some(session), body);
                        let text = String::from_utf8_lossy(&reply);
                        let data = text
                            .lines()
                            .filter_map(|l| l.strip_prefix("data:"))
                            .find(|d| !d.trim().is_empty());
                        let answer = data
                            .and_then(|d| serde_json::from_str(d.trim()).ok())
                            .unwrap_or(Value::Null);
                        format!("{status} {}", outcome(&answer))
                    })
                })
                .collect();
            calls
                .into_iter()
                .map(|c| c.join().expect("a call"))
                .collect()
        });
        let took = started.elapsed();
        let (_, after) = memory(pid);
        thread::sleep(Duration::from_secs(1));
        let (later, _) = memory(pid);
        // Freed memory is given back at the server's next look, every 5 s.
        thread::sleep(Duration::from_secs(5));
        let (settled, _) = memory(pid);
        let grew = after.saturating_sub(before);
        println!(
            "http 30 x {name}: body {} KB; VmHWM {} -> {} (+{}, {:.1}x the 30 bodies); VmRSS 1 s later {}, 6 s later {}; {took:.0?}; first answer: {}",
            body.len() / 1000,
            mib(before),
            mib(after),
            mib(grew),
            grew as f64 / (30 * body.len()) as f64,
            mib(later),
            mib(settled),
            answers[0]
        );
    }
}
