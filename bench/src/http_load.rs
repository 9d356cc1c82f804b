//! P8 and the latency table: one Streamable HTTP load generator for every server, so that
//! only the server differs.
//!
//! Each of C connections is one kept-alive HTTP/1.1 connection that performs the MCP
//! handshake (stateful: its own session, whose `Mcp-Session-Id` it then sends), makes a few
//! untimed warm-up calls, waits for the others, and then takes `tools/call get_user
//! {"user_id": 2}` requests from a shared count until the run's total is reached, checking
//! that each answer is a successful result for its id and timing it from the request to the
//! last byte of the answer.
//!
//! With `HTTP_LOAD_TAGS=N` in its environment, each call is instead `search_items` with a
//! query that finds nothing and a list of N tags (both servers have the tool): a call whose
//! arguments hold many values, which is where reading a body costs the most per byte.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::{HeaderValue, Method, Request, StatusCode, header};
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::{self, SendRequest};
use hyper_util::rt::TokioIo;
use serde::Deserialize;
use serde::de::IgnoredAny;
use tokio::sync::Barrier;

use crate::process::{release_dir, workspace_root};

/// The protocol version the load generator negotiates: one every server here speaks.
const PROTOCOL_VERSION: &str = "2025-06-18";
/// Untimed calls each connection makes before the run starts.
const WARM_UP_CALLS: usize = 3;
/// The user every call looks up, and the name its answer must carry.
const USER_ID: u64 = 2;
const USER_NAME: &str = "Grace Hopper";
/// The environment variable that turns the calls into `search_items` with this many tags.
pub const TAGS_VARIABLE: &str = "HTTP_LOAD_TAGS";

/// With or without sessions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One session per connection: `initialize`, then every request names the session.
    Stateful,
    /// No sessions: every POST stands alone (the server is started with `--stateless`).
    Stateless,
}

impl Mode {
    /// Both modes, stateful first.
    pub const ALL: [Mode; 2] = [Mode::Stateful, Mode::Stateless];

    /// `stateful` or `stateless`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Stateful => "stateful",
            Mode::Stateless => "stateless",
        }
    }
}

/// A server that serves `get_user` over Streamable HTTP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Server {
    /// The `inventory` example (`--http ADDR [--stateless]`).
    Ours,
    /// rmcp's `StreamableHttpService` with a `#[tool]` server (`bench-rmcp-http`).
    Rmcp,
    /// The official Python SDK 2.x (`bench/python/http_get_user_server.py --sdk official`).
    Python,
    /// FastMCP (`bench/python/http_get_user_server.py --sdk fastmcp`).
    FastMcp,
}

impl Server {
    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Server::Ours => "ours",
            Server::Rmcp => "rmcp",
            Server::Python => "python",
            Server::FastMcp => "fastmcp",
        }
    }

    /// The server called `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        [Server::Ours, Server::Rmcp, Server::Python, Server::FastMcp]
            .into_iter()
            .find(|server| server.name() == name)
    }

    /// The command that starts this server on `addr` in `mode`; under `taskset -c LIST`
    /// when `MCP_BENCH_SERVER_CPUS=LIST` is set, so that the server gets those cores and the
    /// load generator (pinned by its own `taskset`) the others.
    pub fn command(self, addr: SocketAddr, mode: Mode) -> Command {
        let mut command = match std::env::var("MCP_BENCH_SERVER_CPUS") {
            Ok(cpus) => {
                let mut taskset = Command::new("taskset");
                taskset.arg("-c").arg(cpus).arg(self.program());
                taskset
            }
            Err(_) => Command::new(self.program()),
        };
        if let Server::Python | Server::FastMcp = self {
            command
                .arg(workspace_root().join("bench/python/http_get_user_server.py"))
                .arg("--sdk")
                .arg(if self == Server::Python {
                    "official"
                } else {
                    "fastmcp"
                });
        }
        command.arg("--http").arg(addr.to_string());
        if mode == Mode::Stateless {
            command.arg("--stateless");
        }
        command
    }

    /// The executable that runs this server.
    fn program(self) -> std::path::PathBuf {
        match self {
            Server::Ours => release_dir().join("inventory"),
            Server::Rmcp => release_dir().join("bench-rmcp-http"),
            Server::Python | Server::FastMcp => workspace_root().join(".ci/.deps/venv/bin/python"),
        }
    }
}

/// A server process listening on a free port of 127.0.0.1; killed on drop.
pub struct Running {
    child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
}

impl Running {
    /// Starts `server` in `mode` and waits (up to 30 s: Python imports are slow) until it
    /// accepts connections.
    pub fn start(server: Server, mode: Mode) -> Self {
        let addr = free_addr();
        Self::launch(server.command(addr, mode), addr, Stdio::null())
    }

    /// Starts `command`, a server that will listen on `addr`, its stderr going to `stderr`,
    /// and waits (up to 30 s) until it accepts connections.
    pub fn launch(mut command: Command, addr: SocketAddr, stderr: Stdio) -> Self {
        let described = format!("{command:?}");
        let child = command
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start {described}: {error}"));
        let mut running = Self { child, addr };
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(addr).is_err() {
            if let Ok(Some(status)) = running.child.try_wait() {
                panic!("{described} exited at start: {status}");
            }
            assert!(Instant::now() < deadline, "{described} never listened");
            thread::sleep(Duration::from_millis(20));
        }
        running
    }
}

/// An address of 127.0.0.1 with a port that was free a moment ago.
pub fn free_addr() -> SocketAddr {
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port();
    SocketAddr::from(([127, 0, 0, 1], port))
}

impl Running {
    /// Sends the server SIGTERM and waits for it to exit.
    pub fn terminate(&mut self) {
        mcp_tool_test_support::send_signal(self.child.id(), "TERM");
        let _ = self.child.wait();
    }

    /// The CPU time (user and system, all threads) the server has used so far, from
    /// `/proc/<pid>/stat` in clock ticks of 10 ms (Linux's `USER_HZ` on every common
    /// platform).
    pub fn cpu_time(&self) -> Duration {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id()))
            .expect("/proc/<pid>/stat is readable");
        // The command name may hold spaces: the fields are counted after its ')'.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .map_or("", |(_, rest)| rest)
            .split_whitespace()
            .collect();
        let ticks: u64 = [11, 12]
            .iter()
            .filter_map(|at| fields.get(*at).and_then(|field| field.parse::<u64>().ok()))
            .sum();
        Duration::from_millis(ticks * 10)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What one run measured.
#[derive(Clone, Debug)]
pub struct Load {
    /// From the moment every connection was ready to the last answer.
    pub elapsed: Duration,
    /// Each timed call's latency, sorted.
    pub latencies: Vec<Duration>,
    /// The server's CPU time during the run (user and system), when it was measured.
    pub server_cpu: Option<Duration>,
}

impl Load {
    /// Calls answered per second.
    pub fn throughput(&self) -> f64 {
        self.latencies.len() as f64 / self.elapsed.as_secs_f64()
    }

    /// The server's CPU time per call, when it was measured: the cost of a call with
    /// the noise of the machine's other work taken out (unlike `throughput`).
    pub fn cpu_per_call(&self) -> Option<Duration> {
        let calls = u32::try_from(self.latencies.len()).ok()?.max(1);
        self.server_cpu.map(|cpu| cpu / calls)
    }

    /// The `percent`-th percentile latency (nearest rank).
    pub fn percentile(&self, percent: f64) -> Duration {
        let rank = (percent / 100.0 * self.latencies.len() as f64).ceil() as usize;
        self.latencies[rank.clamp(1, self.latencies.len()) - 1]
    }
}

/// Runs `requests` calls over `connections` connections to `addr` in `mode`, on a
/// single-threaded runtime of its own (so the client takes at most one core from the server).
pub fn run(addr: SocketAddr, mode: Mode, connections: usize, requests: usize) -> Load {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(drive(addr, mode, connections.max(1), requests))
}

async fn drive(addr: SocketAddr, mode: Mode, connections: usize, requests: usize) -> Load {
    let ready = Arc::new(Barrier::new(connections + 1));
    let taken = Arc::new(AtomicUsize::new(0));
    let calls = Calls::from_environment();
    let tasks: Vec<_> = (0..connections)
        .map(|_| {
            let client = Client::new(addr, mode, &calls);
            let (ready, taken) = (Arc::clone(&ready), Arc::clone(&taken));
            tokio::spawn(async move { client.work(&ready, &taken, requests).await })
        })
        .collect();
    ready.wait().await;
    let started = Instant::now();
    let mut latencies = Vec::with_capacity(requests);
    let mut last = started;
    for task in tasks {
        let (mine, finished) = task
            .await
            .expect("a connection task panicked")
            .unwrap_or_else(|error| panic!("{mode:?} run against {addr}: {error}"));
        latencies.extend(mine);
        last = last.max(finished);
    }
    latencies.sort_unstable();
    Load {
        elapsed: last - started,
        latencies,
        server_cpu: None,
    }
}

/// One connection's client.
struct Client {
    addr: SocketAddr,
    host: HeaderValue,
    mode: Mode,
    session: Option<HeaderValue>,
    next_id: u64,
    calls: Calls,
}

impl Client {
    fn new(addr: SocketAddr, mode: Mode, calls: &Calls) -> Self {
        Self {
            addr,
            host: HeaderValue::from_str(&addr.to_string()).expect("an address is a header"),
            mode,
            session: None,
            next_id: 1,
            calls: calls.clone(),
        }
    }

    /// Connects, shakes hands, warms up, waits at `ready` for the others, then calls until
    /// `taken` reaches `total`. Returns the latencies and when the last answer came.
    async fn work(
        mut self,
        ready: &Barrier,
        taken: &AtomicUsize,
        total: usize,
    ) -> Result<(Vec<Duration>, Instant), String> {
        // Every failure still reaches the barrier, or the other connections would wait forever.
        let connected = self.connect().await;
        ready.wait().await;
        let mut sender = connected?;
        let mut latencies = Vec::new();
        while taken.fetch_add(1, Ordering::Relaxed) < total {
            let sent = Instant::now();
            self.call(&mut sender).await?;
            latencies.push(sent.elapsed());
        }
        let finished = Instant::now();
        if self.session.is_some() {
            self.end_session(&mut sender).await?;
        }
        Ok((latencies, finished))
    }

    async fn connect(&mut self) -> Result<SendRequest<Full<Bytes>>, String> {
        let stream = tokio::net::TcpStream::connect(self.addr)
            .await
            .map_err(|error| format!("connect: {error}"))?;
        stream
            .set_nodelay(true)
            .map_err(|error| format!("nodelay: {error}"))?;
        let (mut sender, connection) = http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|error| format!("handshake: {error}"))?;
        tokio::spawn(connection);
        self.initialize(&mut sender).await?;
        for _ in 0..WARM_UP_CALLS {
            self.call(&mut sender).await?;
        }
        Ok(sender)
    }

    async fn initialize(&mut self, sender: &mut SendRequest<Full<Bytes>>) -> Result<(), String> {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{PROTOCOL_VERSION}","capabilities":{{}},"clientInfo":{{"name":"mcp-tool-bench","version":"0.1.0"}}}}}}"#
        );
        let (status, headers, body) = self.send(sender, Method::POST, body, false).await?;
        if status != StatusCode::OK || !contains(&body, b"\"protocolVersion\"") {
            return Err(format!(
                "initialize: {status} {}",
                String::from_utf8_lossy(&body)
            ));
        }
        if self.mode == Mode::Stateful {
            let session = headers
                .get("mcp-session-id")
                .ok_or("initialize: no Mcp-Session-Id in a stateful answer")?;
            self.session = Some(session.clone());
        }
        let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        let (status, _, body) = self
            .send(sender, Method::POST, initialized.into(), true)
            .await?;
        if !status.is_success() {
            return Err(format!(
                "notifications/initialized: {status} {}",
                String::from_utf8_lossy(&body)
            ));
        }
        Ok(())
    }

    /// One call, checked.
    async fn call(&mut self, sender: &mut SendRequest<Full<Bytes>>) -> Result<(), String> {
        let id = self.next_id;
        self.next_id += 1;
        let params = &self.calls.params;
        let body =
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{params}}}"#);
        let (status, _, body) = self.send(sender, Method::POST, body, true).await?;
        match self.calls.finds_user {
            true => check_answer(status, &body, id),
            false => check_nothing_found(status, &body, id),
        }
    }

    async fn end_session(&mut self, sender: &mut SendRequest<Full<Bytes>>) -> Result<(), String> {
        let (status, _, body) = self
            .send(sender, Method::DELETE, String::new(), true)
            .await?;
        match status.is_success() {
            true => Ok(()),
            false => Err(format!(
                "DELETE: {status} {}",
                String::from_utf8_lossy(&body)
            )),
        }
    }

    async fn send(
        &self,
        sender: &mut SendRequest<Full<Bytes>>,
        method: Method,
        body: String,
        initialized: bool,
    ) -> Result<(StatusCode, http::HeaderMap, Bytes), String> {
        let mut request = Request::new(Full::new(Bytes::from(body)));
        *request.method_mut() = method;
        *request.uri_mut() = http::Uri::from_static("/mcp");
        let headers = request.headers_mut();
        headers.insert(header::HOST, self.host.clone());
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        headers.insert(
            header::ACCEPT,
            HeaderValue::from_static("application/json, text/event-stream"),
        );
        if initialized {
            headers.insert(
                "mcp-protocol-version",
                HeaderValue::from_static(PROTOCOL_VERSION),
            );
        }
        if let Some(session) = &self.session {
            headers.insert("mcp-session-id", session.clone());
        }
        sender
            .ready()
            .await
            .map_err(|error| format!("connection lost: {error}"))?;
        let response = sender
            .send_request(request)
            .await
            .map_err(|error| format!("request failed: {error}"))?;
        let (parts, body) = response.into_parts();
        let body = body
            .collect()
            .await
            .map_err(|error| format!("answer broken off: {error}"))?
            .to_bytes();
        Ok((parts.status, parts.headers, body))
    }
}

/// What every call of a run is: `get_user`, or with `HTTP_LOAD_TAGS=N` set, `search_items`
/// with N tags.
#[derive(Clone)]
struct Calls {
    /// Whether each answer is to be `get_user`'s (else `search_items`' finding nothing).
    finds_user: bool,
    /// The call's `params`, written once.
    params: Arc<str>,
}

impl Calls {
    fn from_environment() -> Self {
        let tags = std::env::var(TAGS_VARIABLE).ok().map(|count| {
            count
                .parse::<usize>()
                .unwrap_or_else(|_| panic!("{TAGS_VARIABLE}: a number of tags, not '{count}'"))
        });
        let params = match tags {
            None => format!(r#"{{"name":"get_user","arguments":{{"user_id":{USER_ID}}}}}"#),
            Some(count) => {
                let tags: Vec<String> = (0..count).map(|tag| format!(r#""tag-{tag}""#)).collect();
                format!(
                    r#"{{"name":"search_items","arguments":{{"query":"{NOTHING}","tags":[{}]}}}}"#,
                    tags.join(",")
                )
            }
        };
        Self {
            finds_user: tags.is_none(),
            params: params.into(),
        }
    }
}

/// What `search_items` is asked for: no item or user has it in its name.
const NOTHING: &str = "no such thing";

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle)
}

/// The parts of a `tools/call` answer that are checked.
#[derive(Deserialize)]
struct Answer {
    id: u64,
    result: Option<CallResult>,
    error: Option<IgnoredAny>,
}

#[derive(Deserialize)]
struct CallResult {
    #[serde(rename = "isError", default)]
    is_error: bool,
    #[serde(rename = "structuredContent")]
    structured: Option<UserOut>,
}

#[derive(Deserialize)]
struct UserOut {
    id: u64,
    name: String,
}

/// A `search_items` answer: structured content whose one member is the empty list of what
/// it found (`items` in ours, `users` in rmcp's).
#[derive(Deserialize)]
struct SearchAnswer {
    id: u64,
    result: Option<SearchResult>,
}

#[derive(Deserialize)]
struct SearchResult {
    #[serde(rename = "isError", default)]
    is_error: bool,
    #[serde(rename = "structuredContent")]
    structured: Option<serde_json::Map<String, serde_json::Value>>,
}

/// `Ok` when the answer is a 200 carrying a successful `search_items` result for `id` that
/// found nothing.
fn check_nothing_found(status: StatusCode, body: &[u8], id: u64) -> Result<(), String> {
    let found_nothing = |result: &SearchResult| {
        let lists = result.structured.as_ref().map(|found| found.values());
        !result.is_error
            && lists.is_some_and(|mut lists| {
                lists.len() == 1 && lists.all(|list| list.as_array().is_some_and(Vec::is_empty))
            })
    };
    match serde_json::from_slice::<SearchAnswer>(message(body)) {
        Ok(SearchAnswer {
            id: got,
            result: Some(result),
        }) if status == StatusCode::OK && got == id && found_nothing(&result) => Ok(()),
        _ => Err(format!(
            "call {id}: not a successful search_items result that found nothing: {status} {}",
            String::from_utf8_lossy(body)
        )),
    }
}

/// The JSON-RPC message of an answer: the whole body, or the last `data:` line of an SSE
/// stream that holds one (the first event of a stream may be an empty priming event).
fn message(body: &[u8]) -> &[u8] {
    let text = body.trim_ascii_start();
    if text.first() == Some(&b'{') {
        return text;
    }
    body.split(|byte| *byte == b'\n')
        .filter_map(|line| line.strip_prefix(b"data:"))
        .map(<[u8]>::trim_ascii)
        .rfind(|data| data.first() == Some(&b'{'))
        .unwrap_or_default()
}

/// `Ok` when the answer is a 200 carrying a successful result for `id` with the user.
fn check_answer(status: StatusCode, body: &[u8], id: u64) -> Result<(), String> {
    let fail = |why: &str| {
        Err(format!(
            "call {id}: {why}: {status} {}",
            String::from_utf8_lossy(body)
        ))
    };
    if status != StatusCode::OK {
        return fail("not 200");
    }
    let Ok(answer) = serde_json::from_slice::<Answer>(message(body)) else {
        return fail("not a JSON-RPC answer");
    };
    match answer {
        Answer { id: got, .. } if got != id => fail("another id"),
        Answer { error: Some(_), .. } => fail("a JSON-RPC error"),
        Answer {
            result: Some(result),
            ..
        } if !result.is_error
            && result
                .structured
                .as_ref()
                .is_some_and(|user| user.id == USER_ID && user.name == USER_NAME) =>
        {
            Ok(())
        }
        _ => fail("not a successful get_user result"),
    }
}

/// Throughput of one server against another, over interleaved runs.
#[derive(Clone, Copy, Debug)]
pub struct Versus {
    /// Calls per second of the first server (median).
    pub ours: f64,
    /// Calls per second of the second server (median).
    pub theirs: f64,
    /// The median of the rounds' ratios, each of two runs back to back.
    pub paired_ratio: f64,
    /// The first server's CPU time per call (median).
    pub ours_cpu: Duration,
    /// The second server's CPU time per call (median).
    pub theirs_cpu: Duration,
}

impl Versus {
    /// The first server's throughput over the second's: the median of the rounds' ratios.
    /// On a shared machine the throughput of both drifts by tens of percent over a run; the
    /// two runs of a round are seconds apart, so their ratio mostly cancels the drift, where
    /// the ratio of the two medians does not.
    pub fn ratio(&self) -> f64 {
        self.paired_ratio
    }
}

/// `rounds` runs of `requests` calls over `connections` connections against each of
/// `servers` (started once, in `mode`), alternating which goes first. Returns each server's
/// loads, in the order of `servers`.
pub fn interleaved(
    servers: &[Server],
    mode: Mode,
    connections: usize,
    requests: usize,
    rounds: usize,
) -> Vec<Vec<Load>> {
    let running: Vec<Running> = servers
        .iter()
        .map(|server| Running::start(*server, mode))
        .collect();
    let mut loads = vec![Vec::new(); servers.len()];
    for round in 0..rounds {
        let mut order: Vec<usize> = (0..servers.len()).collect();
        order.rotate_left(round % servers.len().max(1));
        for index in order {
            let server = &running[index];
            let before = server.cpu_time();
            let mut load = run(server.addr, mode, connections, requests);
            load.server_cpu = Some(server.cpu_time().saturating_sub(before));
            loads[index].push(load);
        }
    }
    loads
}

/// The median of `values` (sorted here).
pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// P8: our throughput against rmcp's in `mode`, the median of `rounds` interleaved runs.
pub fn versus_rmcp(mode: Mode, connections: usize, requests: usize, rounds: usize) -> Versus {
    let loads = interleaved(
        &[Server::Ours, Server::Rmcp],
        mode,
        connections,
        requests,
        rounds,
    );
    let rate = |loads: &[Load]| median(loads.iter().map(Load::throughput).collect());
    let ratios = loads[0]
        .iter()
        .zip(&loads[1])
        .map(|(ours, theirs)| ours.throughput() / theirs.throughput())
        .collect();
    let cpu = |loads: &[Load]| {
        let seconds = loads
            .iter()
            .filter_map(Load::cpu_per_call)
            .map(|cpu| cpu.as_secs_f64())
            .collect();
        Duration::from_secs_f64(median(seconds))
    };
    Versus {
        ours: rate(&loads[0]),
        theirs: rate(&loads[1]),
        paired_ratio: median(ratios),
        ours_cpu: cpu(&loads[0]),
        theirs_cpu: cpu(&loads[1]),
    }
}

/// Whether the Python environment of `.ci/setup-clients` is there.
pub fn python_available() -> bool {
    Path::new(&workspace_root().join(".ci/.deps/venv/bin/python")).exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    const USER: &str = r#"{"id":2,"name":"Grace Hopper","email":"grace@example.com"}"#;

    fn result(id: u64, is_error: bool) -> String {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[],"structuredContent":{USER},"isError":{is_error}}}}}"#
        )
    }

    #[test]
    fn a_json_answer_and_an_sse_stream_with_a_priming_event_are_both_read() {
        assert_eq!(
            check_answer(StatusCode::OK, result(7, false).as_bytes(), 7),
            Ok(())
        );
        let stream = format!(
            "data: \nid: 0/0\nretry: 3000\n\ndata: {}\nid: 1/0\n\n",
            result(7, false)
        );
        assert_eq!(check_answer(StatusCode::OK, stream.as_bytes(), 7), Ok(()));
        let crlf = format!("event: message\r\ndata: {}\r\n\r\n", result(7, false));
        assert_eq!(check_answer(StatusCode::OK, crlf.as_bytes(), 7), Ok(()));
    }

    #[test]
    fn anything_but_the_users_successful_result_for_the_id_fails() {
        let ok = result(7, false);
        assert!(check_answer(StatusCode::BAD_REQUEST, ok.as_bytes(), 7).is_err());
        assert!(check_answer(StatusCode::OK, ok.as_bytes(), 8).is_err());
        assert!(check_answer(StatusCode::OK, result(7, true).as_bytes(), 7).is_err());
        let other_user = ok.replace("Grace Hopper", "Ada Lovelace");
        assert!(check_answer(StatusCode::OK, other_user.as_bytes(), 7).is_err());
        let error = r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"no"}}"#;
        assert!(check_answer(StatusCode::OK, error.as_bytes(), 7).is_err());
        assert!(check_answer(StatusCode::OK, b"data: \n\n", 7).is_err());
    }

    #[test]
    fn a_search_answer_passes_only_when_it_found_nothing() {
        let found = |structured: &str, is_error: bool| {
            format!(
                r#"{{"jsonrpc":"2.0","id":7,"result":{{"content":[],"structuredContent":{structured},"isError":{is_error}}}}}"#
            )
        };
        let nothing = found(r#"{"items":[]}"#, false);
        assert_eq!(
            check_nothing_found(StatusCode::OK, nothing.as_bytes(), 7),
            Ok(())
        );
        let users = found(r#"{"users":[]}"#, false);
        assert_eq!(
            check_nothing_found(StatusCode::OK, users.as_bytes(), 7),
            Ok(())
        );
        assert!(check_nothing_found(StatusCode::OK, nothing.as_bytes(), 8).is_err());
        let something = found(r#"{"items":[{"sku":"A"}]}"#, false);
        assert!(check_nothing_found(StatusCode::OK, something.as_bytes(), 7).is_err());
        let failed = found(r#"{"items":[]}"#, true);
        assert!(check_nothing_found(StatusCode::OK, failed.as_bytes(), 7).is_err());
        assert!(check_nothing_found(StatusCode::OK, found("{}", false).as_bytes(), 7).is_err());
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let load = Load {
            elapsed: Duration::from_secs(1),
            latencies: (1..=100).map(Duration::from_millis).collect(),
            server_cpu: Some(Duration::from_millis(50)),
        };
        assert_eq!(load.percentile(50.0), Duration::from_millis(50));
        assert_eq!(load.percentile(99.0), Duration::from_millis(99));
        assert_eq!(load.throughput(), 100.0);
        assert_eq!(load.cpu_per_call(), Some(Duration::from_micros(500)));
    }
}
