//! SIGTERM and SIGINT shut a server down gracefully: new connections are refused, calls in
//! flight are answered, and the process exits 0. Against the `conformance` binary, whose
//! `sleep_ms` tool keeps a call in flight, over real sockets and pipes.

use std::net::TcpStream;
use std::thread;
use std::time::{Duration, Instant};

use mcp_tool_test_support::http::{HttpServer, initialize_body};
use mcp_tool_test_support::stdio::{StdioSession, text_of};
use serde_json::json;

const CONFORMANCE: &str = env!("CARGO_BIN_EXE_conformance");

/// Five `sleep_ms(800)` calls in flight on one session, then `signal`: all five answered,
/// exit 0, and no connection accepted after the signal.
fn calls_in_flight_are_answered_after(signal: &str) {
    let mut server = HttpServer::start(CONFORMANCE, &[], &[]);
    let reply = server.post(&[], initialize_body());
    let session = reply
        .header("mcp-session-id")
        .expect("a session id")
        .to_string();
    let in_session = [("Mcp-Session-Id", session.as_str())];
    let notified = server.post(
        &in_session,
        br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    );
    assert_eq!(notified.status, 202, "{notified:?}");
    let started = Instant::now();
    let answers: Vec<String> = thread::scope(|scope| {
        let calls: Vec<_> = (0..5)
            .map(|id| {
                let (server, in_session) = (&server, &in_session);
                scope.spawn(move || {
                    let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                        "params": {"name": "sleep_ms", "arguments": {"millis": 800}}});
                    let reply = server.post(in_session, body.to_string());
                    reply.messages()[0]["result"]["content"][0]["text"].to_string()
                })
            })
            .collect();
        thread::sleep(Duration::from_millis(300));
        server.signal(signal);
        thread::sleep(Duration::from_millis(100));
        assert!(
            TcpStream::connect(&server.addr).is_err(),
            "a connection was accepted after SIG{signal}"
        );
        calls
            .into_iter()
            .map(|call| call.join().expect("a call"))
            .collect()
    });
    eprintln!("SIG{signal}: {answers:?} after {:?}", started.elapsed());
    assert!(
        answers.iter().all(|text| text == "\"slept 800 ms\""),
        "{answers:?}"
    );
    let status = server.wait_exit(Duration::from_secs(5));
    eprintln!(
        "exited {status:?} {:?} after the calls began",
        started.elapsed()
    );
    assert!(status.is_some_and(|status| status.success()), "{status:?}");
}

#[test]
fn sigterm_answers_http_calls_in_flight_then_exits_0() {
    calls_in_flight_are_answered_after("TERM");
}

#[test]
fn sigint_answers_http_calls_in_flight_then_exits_0() {
    calls_in_flight_are_answered_after("INT");
}

/// Three `sleep_ms(800)` calls read over stdio, then `signal`: all three answered, exit 0,
/// though stdin stays open.
fn stdio_calls_read_are_answered_after(signal: &str) {
    let mut session = StdioSession::start(CONFORMANCE, &[]);
    let started = Instant::now();
    for id in 1..=3 {
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "sleep_ms", "arguments": {"millis": 800}}});
        session.send_line(&call.to_string());
    }
    thread::sleep(Duration::from_millis(300));
    session.signal(signal);
    // The answers come in any order.
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut answered: Vec<i64> = (0..3)
        .map(|_| {
            let answer = session.read_message(deadline);
            assert_eq!(text_of(&answer["result"]), "slept 800 ms", "{answer}");
            answer["id"].as_i64().expect("a numeric id")
        })
        .collect();
    answered.sort();
    assert_eq!(answered, [1, 2, 3]);
    let status = session.wait_exit();
    eprintln!(
        "SIG{signal} over stdio: exited {status} {:?} after the calls began",
        started.elapsed()
    );
    assert!(status.success(), "{status}");
}

#[test]
fn sigterm_answers_stdio_calls_read_then_exits_0() {
    stdio_calls_read_are_answered_after("TERM");
}

#[test]
fn sigint_answers_stdio_calls_read_then_exits_0() {
    stdio_calls_read_are_answered_after("INT");
}
