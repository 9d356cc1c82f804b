//! How HTTP connections are served: latency on a kept-alive session. Against the real
//! `inventory` binary over sockets on 127.0.0.1.

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use mcp_tool_test_support::http::{Connection, HttpServer, initialize_body};
use mcp_tool_test_support::in_process::serve_http;
use serde_json::json;

const INVENTORY: &str = env!("CARGO_BIN_EXE_inventory");

/// Opens a session on `connection` and returns its id.
fn open_session(connection: &mut Connection) -> String {
    let reply = connection.post(&[], initialize_body().as_bytes());
    assert_eq!(reply.status, 200, "{reply:?}");
    let session = reply
        .header("mcp-session-id")
        .expect("a session id")
        .to_string();
    let notified = connection.post(
        &[("Mcp-Session-Id", &session)],
        br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    );
    assert_eq!(notified.status, 202, "{notified:?}");
    session
}

/// The median time of 50 requests on `connection`, each body made by `body(id)` and its
/// answer checked by `check`.
fn p50(
    connection: &mut Connection,
    headers: &[(&str, &str)],
    body: impl Fn(u64) -> serde_json::Value,
    check: impl Fn(&serde_json::Value),
) -> Duration {
    let mut times: Vec<Duration> = (0..50)
        .map(|id| {
            let started = Instant::now();
            let reply = connection.post(headers, body(id).to_string().as_bytes());
            let took = started.elapsed();
            check(&reply.messages()[0]);
            took
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

#[test]
fn stateful_calls_on_one_connection_answer_in_under_20_ms_at_p50() {
    let server = HttpServer::start(INVENTORY, &[], &[]);
    let mut connection = Connection::open(&server.addr);
    let session = open_session(&mut connection);
    let headers = [
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    let ping = p50(
        &mut connection,
        &headers,
        |id| json!({"jsonrpc": "2.0", "id": id, "method": "ping"}),
        |answer| assert_eq!(answer["result"], json!({}), "{answer}"),
    );
    let call = p50(
        &mut connection,
        &headers,
        |id| {
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                   "params": {"name": "get_user", "arguments": {"user_id": 2}}})
        },
        |answer| assert_eq!(answer["result"]["isError"], false, "{answer}"),
    );
    eprintln!("stateful over one connection: ping p50 {ping:?}, tools/call p50 {call:?}");
    // Nagle's algorithm meeting delayed ACKs costs about 40 ms per answer; without it a ping
    // takes well under 2 ms. The bound is generous so that a loaded machine does not fail it.
    assert!(ping < Duration::from_millis(20), "ping p50 {ping:?}");
    assert!(call < Duration::from_millis(20), "tools/call p50 {call:?}");
}

/// Opens `count` connections that send nothing, as an idle client holds them.
fn idle_connections(addr: &str, count: usize) -> Vec<TcpStream> {
    (0..count)
        .map(|_| TcpStream::connect(addr).expect("connect"))
        .collect()
}

#[test]
fn running_out_of_file_descriptors_does_not_stop_the_listener() {
    // 48 files: the process needs some two dozen of its own; the connections take the rest
    // well before the default cap of 512 would refuse them.
    let mut server = HttpServer::start_with_file_limit(INVENTORY, &["--stateless"], &[], 48);
    let idle = idle_connections(&server.addr, 80);
    thread::sleep(Duration::from_millis(500));
    assert_eq!(
        server.exited(),
        None,
        "the server died out of file descriptors"
    );
    drop(idle);
    let reply = server.post(&[], initialize_body());
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(server.exited(), None);
}

#[test]
fn connections_past_the_cap_get_503_and_the_others_are_served() {
    let server = HttpServer::start(INVENTORY, &["--stateless", "--max-connections", "4"], &[]);
    // `start` probed the port with a connection of its own: until the server has seen it
    // close, it holds a place, and a busy machine (the other tests run alongside) may still
    // be on it when the idle ones arrive, refusing one of them instead of the request below.
    thread::sleep(Duration::from_millis(500));
    let mut idle = idle_connections(&server.addr, 4);
    thread::sleep(Duration::from_millis(200));
    let reply = server.post(&[], initialize_body());
    assert_eq!(reply.status, 503, "{reply:?}");
    assert_eq!(reply.header("retry-after"), Some("1"));
    let body = reply.json();
    assert_eq!(
        body["error"],
        json!({"code": -32000, "message": "Service unavailable: the server is serving its \
            limit of 4 connections. Retry in a moment, or reuse an open connection.",
            "data": {"maxConnections": 4, "httpStatus": 503}})
    );
    // One closes: its place is free again.
    drop(idle.pop());
    thread::sleep(Duration::from_millis(200));
    let reply = server.post(&[], initialize_body());
    assert_eq!(reply.status, 200, "{reply:?}");
}

/// Reads until the server closes `stream`: what it sent, and how long that took. Fails the
/// test if the server keeps the connection open for `within`.
fn read_until_closed(mut stream: TcpStream, within: Duration) -> (String, Duration) {
    let started = Instant::now();
    stream.set_read_timeout(Some(within)).expect("timeout");
    let mut received = Vec::new();
    let mut buffer = [0; 4096];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => break,
            Ok(count) => received.extend_from_slice(&buffer[..count]),
            Err(error) if error.kind() == ErrorKind::ConnectionReset => break,
            Err(error) => panic!("still open after {:?}: {error}", started.elapsed()),
        }
    }
    (
        String::from_utf8_lossy(&received).into_owned(),
        started.elapsed(),
    )
}

#[test]
fn silent_slow_and_idle_connections_are_closed_after_the_header_timeout() {
    let server = HttpServer::start(
        INVENTORY,
        &["--stateless", "--header-timeout-ms", "500"],
        &[],
    );
    let within = Duration::from_secs(5);
    // Nothing at all.
    let silent = TcpStream::connect(&server.addr).expect("connect");
    let (_, took) = read_until_closed(silent, within);
    eprintln!("silent connection closed after {took:?}");
    assert!(took >= Duration::from_millis(400), "closed after {took:?}");
    // Half a header, then nothing.
    let mut slow = TcpStream::connect(&server.addr).expect("connect");
    slow.write_all(b"POST /mcp HTTP/1.1\r\nHost: localhost\r\n")
        .expect("write");
    let (_, took) = read_until_closed(slow, within);
    eprintln!("slow header closed after {took:?}");
    // One answered request, then idle.
    let mut connection = Connection::open(&server.addr);
    let reply = connection.post(&[], initialize_body().as_bytes());
    assert_eq!(reply.status, 200, "{reply:?}");
    let (_, took) = read_until_closed(connection.into_stream(), within);
    eprintln!("idle connection closed after {took:?}");
}

/// Sleeps `millis` milliseconds.
#[mcp_tool_runtime::mcp_tool]
async fn nap(millis: u64) -> String {
    tokio::time::sleep(Duration::from_millis(millis)).await;
    format!("slept {millis} ms")
}

/// A server with `nap` on 127.0.0.1, in this process, whose connections may wait `timeout`
/// for a request head; it stops when the returned sender is dropped.
fn serve_nap(timeout: Duration, stateless: bool) -> (String, tokio::sync::oneshot::Sender<()>) {
    let options = mcp_tool_runtime::HttpOptions::default()
        .header_timeout(timeout)
        .stateless(stateless);
    serve_http(options, || {
        mcp_tool_runtime::McpServer::builder(())
            .tool(nap_tool())
            .build()
            .expect("a server")
    })
}

/// The header timeout counts only while a connection waits for a request head: an answer
/// that takes four times as long is sent whole, and the connection is closed once it has
/// then waited the timeout.
#[test]
fn an_answer_longer_than_the_header_timeout_is_not_cut() {
    let timeout = Duration::from_millis(300);
    for stateless in [false, true] {
        let (addr, _stop) = serve_nap(timeout, stateless);
        let mut connection = Connection::open(&addr);
        let mut headers = vec![("MCP-Protocol-Version", "2025-11-25")];
        let session;
        if !stateless {
            session = open_session(&mut connection);
            headers = vec![("Mcp-Session-Id", session.as_str())];
        }
        let call = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
            "params": {"name": "nap", "arguments": {"millis": 1200}}});
        let reply = connection.post(&headers, call.to_string().as_bytes());
        assert_eq!(reply.status, 200, "stateless {stateless}: {reply:?}");
        let answer = &reply.messages()[0];
        assert_eq!(
            answer["result"]["content"][0]["text"], "slept 1200 ms",
            "{answer}"
        );
        let (_, took) = read_until_closed(connection.into_stream(), Duration::from_secs(5));
        assert!(took >= Duration::from_millis(250), "closed after {took:?}");
    }
}

/// A `nap` call of `millis` on `connection`, stateless: the text of its answer.
fn nap_on(connection: &mut Connection, millis: u64) -> String {
    let call = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
        "params": {"name": "nap", "arguments": {"millis": millis}}});
    let headers = [("MCP-Protocol-Version", "2025-11-25")];
    let reply = connection.post(&headers, call.to_string().as_bytes());
    assert_eq!(reply.status, 200, "{reply:?}");
    reply.messages()[0]["result"]["content"][0]["text"].to_string()
}

/// When the server stops, a kept-alive connection that waits for its next request is closed
/// at once (not when the 60 s header timeout or the 10 s grace period ends), and one with a
/// call in flight gets its answer, then is closed.
#[test]
fn stopping_closes_waiting_connections_at_once_and_answers_calls_in_flight() {
    let (addr, stop) = serve_nap(Duration::from_secs(60), true);
    let mut waiting = Connection::open(&addr);
    assert_eq!(nap_on(&mut waiting, 1), "\"slept 1 ms\"");
    let mut busy = Connection::open(&addr);
    let in_flight = thread::spawn(move || (nap_on(&mut busy, 800), busy));
    thread::sleep(Duration::from_millis(300));
    drop(stop);
    let (_, took) = read_until_closed(waiting.into_stream(), Duration::from_secs(5));
    eprintln!("waiting connection closed {took:?} after the stop");
    assert!(took < Duration::from_secs(2), "closed after {took:?}");
    let (answer, busy) = in_flight.join().expect("the call in flight");
    assert_eq!(answer, "\"slept 800 ms\"");
    let (_, took) = read_until_closed(busy.into_stream(), Duration::from_secs(5));
    assert!(took < Duration::from_secs(2), "closed after {took:?}");
}

/// Dropping the future of `serve_http_until` (as a caller's `select!` does) stops the server
/// as its shutdown does: a waiting kept-alive connection is closed at once.
#[test]
fn dropping_the_server_future_closes_waiting_connections() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("bind");
    let addr = listener.local_addr().expect("an address").to_string();
    let options = mcp_tool_runtime::HttpOptions::default().stateless(true);
    let server = mcp_tool_runtime::McpServer::builder(())
        .tool(nap_tool())
        .build()
        .expect("a server");
    let serving = runtime.spawn(server.serve_http_until(listener, options, std::future::pending()));
    let mut waiting = Connection::open(&addr);
    assert_eq!(nap_on(&mut waiting, 1), "\"slept 1 ms\"");
    serving.abort();
    let (_, took) = read_until_closed(waiting.into_stream(), Duration::from_secs(5));
    eprintln!("waiting connection closed {took:?} after the drop");
    assert!(took < Duration::from_secs(2), "closed after {took:?}");
}

#[test]
fn a_slow_body_gets_408_and_its_connection_closed() {
    let server = HttpServer::start(INVENTORY, &["--stateless", "--body-timeout-ms", "500"], &[]);
    let mut stream = TcpStream::connect(&server.addr).expect("connect");
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: \
         application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{{\"jsonrpc\"",
        server.addr
    );
    stream.write_all(head.as_bytes()).expect("write");
    let (received, took) = read_until_closed(stream, Duration::from_secs(5));
    eprintln!("slow body answered and closed after {took:?}");
    assert!(received.starts_with("HTTP/1.1 408"), "{received}");
    assert!(
        received.contains(
            "\"message\":\"Request timeout: the request body did not arrive within 500 ms. \
             Send the whole body at once.\""
        ),
        "{received}"
    );
}

/// Uploads `body` (chunked in 16 KiB pieces, or with its Content-Length) and reads the
/// answer: its status line, or the socket error the client saw on the way.
fn upload(addr: &str, body: &[u8], chunked: bool) -> Result<String, std::io::Error> {
    let mut stream = TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let framing = if chunked {
        "Transfer-Encoding: chunked".to_string()
    } else {
        format!("Content-Length: {}", body.len())
    };
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: \
         application/json, text/event-stream\r\n{framing}\r\n\r\n"
    );
    stream.write_all(head.as_bytes())?;
    if chunked {
        for piece in body.chunks(16 * 1024) {
            stream.write_all(format!("{:x}\r\n", piece.len()).as_bytes())?;
            stream.write_all(piece)?;
            stream.write_all(b"\r\n")?;
        }
        stream.write_all(b"0\r\n\r\n")?;
    } else {
        stream.write_all(body)?;
    }
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer)?;
    let answer = String::from_utf8_lossy(&answer);
    Ok(answer.lines().next().unwrap_or_default().to_string())
}

#[test]
fn every_oversized_upload_sees_its_413() {
    let server = HttpServer::start(INVENTORY, &["--stateless"], &[]);
    // 1 MiB against the 256 KiB limit: far more than the socket buffers hold, so an answer
    // sent without reading the upload meets a reset.
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"pad":"{}"}}}}"#,
        "x".repeat(1024 * 1024)
    );
    let mut failures = Vec::new();
    for chunked in [false, true] {
        for attempt in 0..20 {
            match upload(&server.addr, body.as_bytes(), chunked) {
                Ok(status) if status.starts_with("HTTP/1.1 413") => {}
                other => failures.push(format!("chunked={chunked} #{attempt}: {other:?}")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of 40 uploads lost the 413:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A bad call of about 240 KB: 78,000 tags of the wrong type, each a violation to find.
fn heavy_bad_call(id: u64) -> Vec<u8> {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": "search_items",
                      "arguments": {"query": "x", "tags": vec![1; 78_000]}}})
    .to_string()
    .into_bytes()
}

/// Ten heavy bad calls at once must not delay a ping or a valid call past 100 ms: their
/// bodies are read and their arguments checked off the executor, a few at a time.
#[test]
fn heavy_bad_calls_do_not_starve_a_ping_or_a_valid_call() {
    let server = HttpServer::start(INVENTORY, &[], &[]);
    let mut light = Connection::open(&server.addr);
    let session = open_session(&mut light);
    let headers = [
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    let finished = Arc::new(AtomicUsize::new(0));
    let heavy: Vec<_> = (0..10)
        .map(|id| {
            let (addr, session) = (server.addr.clone(), session.clone());
            let finished = Arc::clone(&finished);
            thread::spawn(move || {
                let mut connection = Connection::open(&addr);
                let headers = [
                    ("Mcp-Session-Id", session.as_str()),
                    ("MCP-Protocol-Version", "2025-11-25"),
                ];
                let reply = connection.post(&headers, &heavy_bad_call(100 + id));
                finished.fetch_add(1, Ordering::SeqCst);
                assert_eq!(reply.messages()[0]["result"]["isError"], true, "{reply:?}");
            })
        })
        .collect();

    let (mut slowest, mut rounds_while_all_ran) = (Duration::ZERO, 0);
    while finished.load(Ordering::SeqCst) < 10 {
        let started = Instant::now();
        let ping = light.post(&headers, br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
        assert_eq!(ping.messages()[0]["result"], json!({}), "{ping:?}");
        slowest = slowest.max(started.elapsed());
        let started = Instant::now();
        let call = light.post(
            &headers,
            br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_user","arguments":{"user_id":2}}}"#,
        );
        assert_eq!(call.messages()[0]["result"]["isError"], false, "{call:?}");
        slowest = slowest.max(started.elapsed());
        if finished.load(Ordering::SeqCst) == 0 {
            rounds_while_all_ran += 1;
        }
    }
    for call in heavy {
        call.join().expect("a heavy call");
    }
    eprintln!(
        "while 10 heavy bad calls ran: slowest light call {slowest:?} \
         ({rounds_while_all_ran} rounds before the first heavy one finished)"
    );
    assert!(
        rounds_while_all_ran >= 3,
        "the heavy calls were not running"
    );
    // 100 ms is the goal for a release build (BENCHMARKS.md). A debug build runs about ten
    // times slower and rmcp still reads each heavy body once on the executor; starved, a
    // light call would wait for a whole heavy check (over 300 ms in a debug build).
    let bound = if cfg!(debug_assertions) { 250 } else { 100 };
    assert!(
        slowest < Duration::from_millis(bound),
        "a light call took {slowest:?}"
    );
}
