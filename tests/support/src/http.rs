//! A server process on 127.0.0.1 and a plain HTTP/1.1 client over real sockets.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

/// A free port on 127.0.0.1, found by binding port 0.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .expect("bind 127.0.0.1:0")
}

/// A server started with `--http 127.0.0.1:PORT`; killed on drop.
pub struct HttpServer {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

impl HttpServer {
    /// Starts `program --http 127.0.0.1:PORT args…` with `env`, and waits until it accepts.
    pub fn start(program: &str, args: &[&str], env: &[(&str, &str)]) -> Self {
        Self::launch(|| Command::new(program), args, env)
    }

    /// Like [`HttpServer::start`], with the process's open-file limit set to `files`
    /// (`ulimit -n`), to run it out of file descriptors.
    pub fn start_with_file_limit(
        program: &str,
        args: &[&str],
        env: &[(&str, &str)],
        files: u32,
    ) -> Self {
        let command = || {
            let mut command = Command::new("sh");
            command
                .arg("-c")
                .arg(format!("ulimit -n {files} && exec \"$0\" \"$@\""))
                .arg(program);
            command
        };
        Self::launch(command, args, env)
    }

    /// Starts the server on a free port. Tests run in parallel, so another test's server
    /// may take the port between its choice and the bind: the failed server exits, and its
    /// readiness probe would reach the other one. A server that exits is started again on
    /// another port.
    fn launch(command: impl Fn() -> Command, args: &[&str], env: &[(&str, &str)]) -> Self {
        for _ in 0..5 {
            if let Some(server) = Self::try_launch(command(), args, env) {
                return server;
            }
        }
        panic!("the server exited at start on five free ports in a row");
    }

    fn try_launch(mut command: Command, args: &[&str], env: &[(&str, &str)]) -> Option<Self> {
        let addr = format!("127.0.0.1:{}", free_port());
        command
            .arg("--http")
            .arg(&addr)
            .args(args)
            .env_remove("MCP_ALLOWED_HOSTS")
            .env_remove("MCP_ALLOWED_ORIGINS")
            .env_remove("MCP_AUTH_TOKEN")
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        for (key, value) in env {
            command.env(key, value);
        }
        let mut child = command
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start {command:?}: {error}"));
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(&addr).is_err() {
            assert!(
                Instant::now() < deadline,
                "{command:?} did not listen on {addr}"
            );
            if child.try_wait().expect("wait for the server").is_some() {
                return None;
            }
            thread::sleep(Duration::from_millis(20));
        }
        // A server that lost the port to another exits at once; give it the time to.
        thread::sleep(Duration::from_millis(50));
        if child.try_wait().expect("wait for the server").is_some() {
            return None;
        }
        Some(Self { child, addr })
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The exit status, if the server has exited.
    pub fn exited(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().expect("wait for the server")
    }

    /// Sends the process `signal` (`TERM`, `INT`) with `kill -s`.
    pub fn signal(&self, signal: &str) {
        crate::send_signal(self.child.id(), signal);
    }

    /// Waits up to `within` for the process to exit; its status, or `None` if still running.
    pub fn wait_exit(&mut self, within: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + within;
        while Instant::now() < deadline {
            if let Some(status) = self.exited() {
                return Some(status);
            }
            thread::sleep(Duration::from_millis(10));
        }
        self.exited()
    }

    /// `http://127.0.0.1:PORT/mcp`.
    pub fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }

    /// POSTs `body` to `/mcp` with [`POST_HEADERS`] and then `extra` (which may set `Host`).
    pub fn post(&self, extra: &[(&str, &str)], body: impl AsRef<[u8]>) -> Reply {
        let mut headers = POST_HEADERS.to_vec();
        headers.extend_from_slice(extra);
        request(&self.addr, "POST", "/mcp", &headers, body.as_ref())
    }

    /// Opens a session (`initialize` at 2025-11-25, then `notifications/initialized`), each
    /// request with `extra` headers too, and returns its id.
    pub fn open_session(&self, extra: &[(&str, &str)]) -> String {
        let reply = self.post(extra, initialize_body());
        assert_eq!(reply.status, 200, "{reply:?}");
        assert_eq!(
            reply.messages()[0]["result"]["protocolVersion"],
            "2025-11-25"
        );
        let session = reply
            .header("mcp-session-id")
            .expect("a session id")
            .to_string();
        let mut in_session = vec![
            ("Mcp-Session-Id", session.as_str()),
            ("MCP-Protocol-Version", "2025-11-25"),
        ];
        in_session.extend_from_slice(extra);
        let notified = self.post(
            &in_session,
            br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        );
        assert_eq!(notified.status, 202, "{notified:?}");
        session
    }
}

/// The body of a `tools/call` of `name` with `arguments`, as request `id`.
pub fn call_body(id: u64, name: &str, arguments: Value) -> String {
    serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": name, "arguments": arguments}})
    .to_string()
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP response.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    /// Header names in lower case.
    pub headers: HashMap<String, String>,
    pub body: String,
}

impl Reply {
    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|error| panic!("body is not JSON ({error}): {}", self.body))
    }

    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .get(&name.to_ascii_lowercase())
            .map(String::as_str)
    }

    /// The JSON-RPC messages of a body that is JSON or a server-sent event stream.
    pub fn messages(&self) -> Vec<Value> {
        if self
            .header("content-type")
            .is_some_and(|kind| kind.starts_with("text/event-stream"))
        {
            self.body
                .lines()
                .filter_map(|line| line.strip_prefix("data:"))
                .map(str::trim)
                .filter(|data| !data.is_empty())
                .filter_map(|data| serde_json::from_str(data).ok())
                .collect()
        } else {
            vec![self.json()]
        }
    }
}

fn dechunk(mut body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(end) = body.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size_text = String::from_utf8_lossy(&body[..end]);
        let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("0").trim(), 16)
            .unwrap_or(0);
        body = &body[end + 2..];
        if size == 0 || body.len() < size {
            out.extend_from_slice(&body[..size.min(body.len())]);
            return out;
        }
        out.extend_from_slice(&body[..size]);
        body = body.get(size + 2..).unwrap_or_default();
    }
}

/// Sends one request with `Connection: close` and reads the whole response. `headers` may
/// override `Host`.
pub fn request(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Reply {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("timeout");
    let mut head = format!("{method} {path} HTTP/1.1\r\n");
    if !headers
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("host"))
    {
        head.push_str(&format!("Host: {addr}\r\n"));
    }
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    ));
    stream.write_all(head.as_bytes()).expect("write head");
    // A server may answer (413) before reading the whole body and close the socket.
    let _ = stream.write_all(body);
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no response head in {:?}", String::from_utf8_lossy(&raw)));
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|line| line.split_whitespace().nth(1))
        .and_then(|code| code.parse().ok())
        .expect("status line");
    let headers: HashMap<String, String> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_string()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    if headers
        .get("transfer-encoding")
        .is_some_and(|value| value.contains("chunked"))
    {
        body = dechunk(&body);
    }
    Reply {
        status,
        headers,
        body: String::from_utf8_lossy(&body).to_string(),
    }
}

/// Headers a Streamable HTTP client sends with a JSON-RPC POST.
pub const POST_HEADERS: &[(&str, &str)] = &[
    ("Content-Type", "application/json"),
    ("Accept", "application/json, text/event-stream"),
];

/// A 2026-07-28 request (no session: the revision and the client's `capabilities` in
/// `_meta`), with the headers such a client sends (`Mcp-Name` from `params.name` or
/// `params.taskId`).
pub struct Stateless {
    pub body: String,
    method: String,
    name: Option<String>,
}

impl Stateless {
    pub fn new(id: u64, method: &str, mut params: Value, capabilities: Value) -> Self {
        params["_meta"] = serde_json::json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "mcp-tool-tests", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": capabilities,
        });
        let name = params
            .get("name")
            .or_else(|| params.get("taskId"))
            .and_then(Value::as_str)
            .map(str::to_string);
        let body =
            serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        Self {
            body: body.to_string(),
            method: method.to_string(),
            name,
        }
    }

    /// The headers beyond [`POST_HEADERS`].
    pub fn headers(&self) -> Vec<(&str, &str)> {
        let mut headers = vec![
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", self.method.as_str()),
        ];
        if let Some(name) = &self.name {
            headers.push(("Mcp-Name", name.as_str()));
        }
        headers
    }

    /// POSTs it to `addr` on a connection of its own: the JSON-RPC answer to `id`, and the
    /// reply.
    pub fn post(&self, addr: &str, id: u64) -> (Value, Reply) {
        let mut headers = POST_HEADERS.to_vec();
        headers.extend(self.headers());
        let reply = request(addr, "POST", "/mcp", &headers, self.body.as_bytes());
        let answer = reply
            .messages()
            .into_iter()
            .find(|message| message["id"] == serde_json::json!(id))
            .unwrap_or_else(|| panic!("no answer to {id}: {reply:?}"));
        (answer, reply)
    }
}

/// The `initialize` request body.
pub fn initialize_body() -> String {
    serde_json::json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "e2e", "version": "1.0"}
        }
    })
    .to_string()
}

/// One kept-alive HTTP/1.1 connection: requests go one after another on the same socket, as a
/// real client sends them within a session.
pub struct Connection {
    addr: String,
    writer: TcpStream,
    reader: BufReader<TcpStream>,
}

impl Connection {
    /// Connects to `addr` (`127.0.0.1:PORT`).
    pub fn open(addr: &str) -> Self {
        let writer = TcpStream::connect(addr).expect("connect");
        writer
            .set_read_timeout(Some(Duration::from_secs(20)))
            .expect("timeout");
        let reader = BufReader::new(writer.try_clone().expect("clone the socket"));
        Self {
            addr: addr.to_string(),
            writer,
            reader,
        }
    }

    /// POSTs `body` to `/mcp` with [`POST_HEADERS`] and `extra`, and reads the whole response
    /// (by `Content-Length` or chunked), leaving the connection open for the next one.
    pub fn post(&mut self, extra: &[(&str, &str)], body: &[u8]) -> Reply {
        let mut head = format!("POST /mcp HTTP/1.1\r\nHost: {}\r\n", self.addr);
        for (name, value) in POST_HEADERS.iter().chain(extra) {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
        let mut request = head.into_bytes();
        request.extend_from_slice(body);
        self.writer.write_all(&request).expect("write request");
        self.read_reply()
    }

    /// The socket, to watch what the server does with the connection next.
    pub fn into_stream(self) -> TcpStream {
        self.writer
    }

    fn read_line(&mut self) -> String {
        let mut line = String::new();
        self.reader.read_line(&mut line).expect("read response");
        line.trim_end_matches(['\r', '\n']).to_string()
    }

    fn read_reply(&mut self) -> Reply {
        let status_line = self.read_line();
        let status = status_line
            .split_whitespace()
            .nth(1)
            .and_then(|code| code.parse().ok())
            .unwrap_or_else(|| panic!("no status line: {status_line:?}"));
        let mut headers = HashMap::new();
        loop {
            let line = self.read_line();
            let Some((name, value)) = line.split_once(':') else {
                break;
            };
            headers.insert(name.trim().to_ascii_lowercase(), value.trim().to_string());
        }
        let body = match headers.get("content-length") {
            Some(length) => {
                let mut body = vec![0; length.parse().expect("a length")];
                self.reader.read_exact(&mut body).expect("read body");
                body
            }
            None => self.read_chunks(),
        };
        Reply {
            status,
            headers,
            body: String::from_utf8_lossy(&body).to_string(),
        }
    }

    fn read_chunks(&mut self) -> Vec<u8> {
        let mut body = Vec::new();
        loop {
            let size_line = self.read_line();
            let size = usize::from_str_radix(size_line.split(';').next().unwrap_or("").trim(), 16)
                .unwrap_or_else(|_| panic!("bad chunk size {size_line:?}"));
            if size == 0 {
                // The (empty) trailer ends with a blank line.
                while !self.read_line().is_empty() {}
                return body;
            }
            let mut chunk = vec![0; size + 2];
            self.reader.read_exact(&mut chunk).expect("read chunk");
            body.extend_from_slice(&chunk[..size]);
        }
    }
}
