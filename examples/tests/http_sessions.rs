//! How many HTTP sessions live, and for how long: the session cap and idle expiry. Against
//! the real `inventory` binary over sockets on 127.0.0.1.

use std::thread;
use std::time::{Duration, Instant};

use mcp_tool_test_support::http::{HttpServer, Reply, initialize_body, request};
use serde_json::json;

const INVENTORY: &str = env!("CARGO_BIN_EXE_inventory");

/// A `ping` with id `id` on `session`.
fn ping(server: &HttpServer, session: &str, id: u64) -> Reply {
    server.post(
        &[("Mcp-Session-Id", session)],
        json!({"jsonrpc": "2.0", "id": id, "method": "ping"}).to_string(),
    )
}

/// Asserts that `reply` is the answer to an `initialize` past a cap of `cap` sessions.
fn assert_refused(reply: &Reply, cap: usize) {
    assert_eq!(reply.status, 503, "{reply:?}");
    assert_eq!(reply.header("retry-after"), Some("30"));
    assert_eq!(reply.header("mcp-session-id"), None);
    assert_eq!(
        reply.json(),
        json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32000,
            "message": format!("Service unavailable: the server holds its limit of {cap} \
                sessions. Retry later, or reuse an open session; a session frees its place \
                when closed (DELETE with its Mcp-Session-Id) or left idle until it expires."),
            "data": {"maxSessions": cap, "httpStatus": 503}}})
    );
}

#[test]
fn initialize_past_the_session_cap_gets_503_and_open_sessions_keep_working() {
    let server = HttpServer::start(INVENTORY, &["--max-sessions", "3"], &[]);
    let sessions: Vec<String> = (0..3).map(|_| server.open_session(&[])).collect();
    for _ in 0..2 {
        assert_refused(&server.post(&[], initialize_body()), 3);
    }
    for (id, session) in sessions.iter().enumerate() {
        let reply = ping(&server, session, id as u64 + 10);
        assert_eq!(reply.status, 200, "{reply:?}");
        assert_eq!(reply.messages()[0]["result"], json!({}), "{reply:?}");
    }
    // Closing one frees its place.
    let closed = request(
        &server.addr,
        "DELETE",
        "/mcp",
        &[("Mcp-Session-Id", &sessions[0])],
        b"",
    );
    assert_eq!(closed.status, 204, "{closed:?}");
    server.open_session(&[]);
    assert_refused(&server.post(&[], initialize_body()), 3);
}

#[test]
fn concurrent_initializes_never_take_the_sessions_past_the_cap() {
    let server = HttpServer::start(INVENTORY, &["--max-sessions", "5"], &[]);
    let server = &server;
    let statuses: Vec<u16> = thread::scope(|scope| {
        let opening: Vec<_> = (0..40)
            .map(|_| scope.spawn(move || server.post(&[], initialize_body()).status))
            .collect();
        opening
            .into_iter()
            .map(|thread| thread.join().expect("the client thread"))
            .collect()
    });
    let opened = statuses.iter().filter(|status| **status == 200).count();
    let refused = statuses.iter().filter(|status| **status == 503).count();
    assert_eq!((opened, refused), (5, 35), "{statuses:?}");
}

#[test]
fn an_idle_session_expires_answers_404_and_frees_its_place() {
    let server = HttpServer::start(
        INVENTORY,
        &["--max-sessions", "1", "--session-idle-timeout-ms", "1500"],
        &[],
    );
    let busy = server.open_session(&[]);
    // Messages keep a session alive past the idle timeout: it counts idle time, not age.
    let started = Instant::now();
    let mut id = 100;
    let mut last_message = started;
    while started.elapsed() < Duration::from_millis(2500) {
        let reply = ping(&server, &busy, id);
        last_message = Instant::now();
        assert_eq!(
            reply.status,
            200,
            "alive after {:?}: {reply:?}",
            started.elapsed()
        );
        id += 1;
        thread::sleep(Duration::from_millis(300));
    }
    assert_refused(&server.post(&[], initialize_body()), 1);
    // Left alone, it expires and frees its place (watched through `initialize`, which does
    // not touch it)...
    let deadline = last_message + Duration::from_secs(15);
    let reopened = loop {
        thread::sleep(Duration::from_millis(250));
        let reply = server.post(&[], initialize_body());
        if reply.status != 503 || Instant::now() > deadline {
            break reply;
        }
        assert_refused(&reply, 1);
    };
    assert_eq!(reopened.status, 200, "{reopened:?}");
    // Its answer reached us a moment after the session's timer started.
    assert!(
        last_message.elapsed() >= Duration::from_millis(1400),
        "expired {:?} after its last message",
        last_message.elapsed()
    );
    // ...and its id answers 404.
    let gone = ping(&server, &busy, id);
    assert_eq!(gone.status, 404, "{gone:?}");
    assert_eq!(
        gone.json()["error"]["message"],
        "Not found: there is no session with this Mcp-Session-Id; it was closed or has expired. \
         Start a new session: send 'initialize' without an Mcp-Session-Id header."
    );
}
