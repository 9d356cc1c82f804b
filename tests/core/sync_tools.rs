//! Sync tools run on the blocking pool: one that blocks stalls no other call, even on a
//! current-thread runtime, and its time limit answers `timeout` while its thread runs on.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

use mcp_tool_runtime::{McpServer, mcp_tool, mcp_tools};
use serde_json::json;

use mcp_tool_test_support::results::{envelope, text};

/// Long enough that a test never waits it out when the runtime works, short enough that a
/// regression fails the test instead of hanging it.
const HOLD_AT_MOST: Duration = Duration::from_secs(5);

/// A state whose tools block their thread until the test lets them go.
struct Gate {
    release: Mutex<Receiver<()>>,
    finished: AtomicUsize,
}

impl Gate {
    fn new() -> (Self, Sender<()>) {
        let (sender, receiver) = channel();
        let gate = Self {
            release: Mutex::new(receiver),
            finished: AtomicUsize::new(0),
        };
        (gate, sender)
    }

    /// Blocks the calling thread until released (or `HOLD_AT_MOST` passes).
    fn block(&self) -> &'static str {
        let released = match self.release.lock() {
            Ok(receiver) => receiver.recv_timeout(HOLD_AT_MOST).is_ok(),
            Err(_) => false,
        };
        self.finished.fetch_add(1, Ordering::SeqCst);
        if released { "released" } else { "gave up" }
    }
}

#[mcp_tools]
impl Gate {
    /// Block until the test releases the gate.
    #[mcp_tool]
    fn hold(&self) -> String {
        self.block().to_string()
    }

    /// Block like `hold`, under a 100 ms limit.
    #[mcp_tool(timeout = "100ms")]
    fn hold_with_limit(&self) -> String {
        self.block().to_string()
    }

    /// Answer at once.
    #[mcp_tool]
    fn quick(&self) -> String {
        "quick".to_string()
    }
}

fn server() -> (McpServer<Gate>, Sender<()>) {
    let (gate, release) = Gate::new();
    let server = McpServer::builder(gate)
        .tool_set()
        .build()
        .expect("the gate's tools build");
    (server, release)
}

#[tokio::test(flavor = "current_thread")]
async fn a_blocking_sync_tool_does_not_stall_other_calls_on_a_current_thread_runtime() {
    let (server, release) = server();
    let held = tokio::spawn({
        let server = server.clone();
        async move { server.call("hold", Some(json!({}))).await }
    });
    // Let `hold` start and block before `quick` is called.
    tokio::task::yield_now().await;

    let quick = server
        .call("quick", Some(json!({})))
        .await
        .expect("quick exists");
    assert_eq!(text(&quick), "quick");
    assert!(
        !held.is_finished(),
        "quick was answered only after hold finished"
    );

    release.send(()).expect("hold is waiting");
    let held = held.await.expect("the call task").expect("hold exists");
    assert_eq!(text(&held), "released");
}

#[tokio::test(flavor = "current_thread")]
async fn a_sync_tool_answers_timeout_at_its_limit_and_its_thread_runs_on() {
    let (server, release) = server();
    let result = server
        .call("hold_with_limit", Some(json!({})))
        .await
        .expect("hold_with_limit exists");
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        text(&result),
        "Tool 'hold_with_limit' did not finish within its time limit of 100 ms; its answer \
         was abandoned, but its work may still complete.\nThis is temporary: the same call \
         may succeed if retried."
    );
    assert_eq!(envelope(&result)["code"], "timeout");
    assert_eq!(server.state().finished.load(Ordering::SeqCst), 0);

    // The abandoned work still completes once it can.
    release
        .send(())
        .expect("the tool's thread is still waiting");
    for _ in 0..500 {
        if server.state().finished.load(Ordering::SeqCst) == 1 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the abandoned thread never finished");
}
