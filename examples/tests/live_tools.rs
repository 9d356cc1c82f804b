//! The live tool set against the real `live_tools` binary over real pipes, through rmcp's
//! client: `notifications/tools/list_changed` reaches the client after each change, and the
//! list and calls follow the change.

use std::process::Stdio;
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult, ClientConfig, ContentBlock};
use rmcp::service::{NotificationContext, RoleClient, RunningService, ServiceError};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, ServiceExt};
use serde_json::{Value, json};
use tokio::process::Command;
use tokio::sync::mpsc;

const LIVE_TOOLS: &str = env!("CARGO_BIN_EXE_live_tools");

/// A client that reports each `notifications/tools/list_changed` on a channel.
struct Watcher {
    changed: mpsc::UnboundedSender<()>,
}

impl ClientHandler for Watcher {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.changed.send(());
    }

    fn get_info(&self) -> ClientConfig {
        ClientConfig::default()
    }
}

struct Session {
    client: RunningService<RoleClient, Watcher>,
    changed: mpsc::UnboundedReceiver<()>,
}

impl Session {
    async fn start() -> Self {
        let mut command = Command::new(LIVE_TOOLS);
        command.env("RUST_LOG", "warn");
        let (transport, _stderr) = TokioChildProcess::builder(command)
            .stderr(Stdio::null())
            .spawn()
            .expect("start live_tools");
        let (sender, changed) = mpsc::unbounded_channel();
        let client = Watcher { changed: sender }
            .serve(transport)
            .await
            .expect("MCP handshake");
        Self { client, changed }
    }

    async fn names(&self) -> Vec<String> {
        let listed = self.client.list_all_tools().await.expect("tools/list");
        listed.iter().map(|tool| tool.name.to_string()).collect()
    }

    async fn call(&self, name: &str, arguments: Value) -> Result<CallToolResult, ServiceError> {
        let arguments = arguments.as_object().cloned().expect("an object");
        self.client
            .call_tool(CallToolRequestParams::new(name.to_string()).with_arguments(arguments))
            .await
    }

    /// Waits for the next `list_changed`; fails after five seconds.
    async fn list_changed(&mut self, after: &str) {
        tokio::time::timeout(Duration::from_secs(5), self.changed.recv())
            .await
            .unwrap_or_else(|_| panic!("notifications/tools/list_changed within 5 s after {after}"))
            .expect("the client is alive");
    }

    /// No `list_changed` arrives within half a second.
    async fn no_list_changed(&mut self) {
        let waited = tokio::time::timeout(Duration::from_millis(500), self.changed.recv()).await;
        assert!(waited.is_err(), "no notification expected");
    }
}

fn text(result: &CallToolResult) -> String {
    match result.content.as_slice() {
        [ContentBlock::Text(text)] => text.text.clone(),
        other => panic!("one text block expected: {other:?}"),
    }
}

const START: [&str; 5] = [
    "hello",
    "unlock_admin",
    "add_tool",
    "remove_tool",
    "switch_tool",
];

#[tokio::test]
async fn the_client_is_told_after_an_add_and_can_call_the_new_tool() {
    let mut session = Session::start().await;
    assert_eq!(session.names().await, START);
    let added = session
        .call(
            "add_tool",
            json!({"name": "echo", "description": "Echo text."}),
        )
        .await
        .unwrap();
    assert_eq!(text(&added), "added 'echo'");
    session.list_changed("the add").await;
    let names = session.names().await;
    assert_eq!(names.last().map(String::as_str), Some("echo"));
    let echoed = session.call("echo", json!({"text": "hi"})).await.unwrap();
    assert_eq!(text(&echoed), "hi");
    // The tool built at run time checks its arguments like any other.
    let refused = session.call("echo", json!({"text": 5})).await.unwrap();
    assert_eq!(refused.is_error, Some(true));
    assert!(
        text(&refused).contains("Argument 'text' expected a string, but received 5."),
        "{}",
        text(&refused)
    );
    let _ = session.client.cancel().await;
}

#[tokio::test]
async fn the_client_is_told_after_a_disable_and_the_tool_is_unknown_until_enabled() {
    let mut session = Session::start().await;
    let switched = session
        .call("switch_tool", json!({"name": "hello", "enabled": false}))
        .await
        .unwrap();
    assert_eq!(text(&switched), "'hello' enabled: false");
    session.list_changed("the disable").await;
    assert_eq!(session.names().await, &START[1..]);
    let unknown = session.call("hello", json!({})).await.unwrap_err();
    let ServiceError::McpError(error) = unknown else {
        panic!("a JSON-RPC error expected: {unknown:?}");
    };
    assert_eq!(error.code.0, -32602);
    assert_eq!(
        error.message,
        "Unknown tool 'hello'. Available tools: unlock_admin, add_tool, remove_tool, switch_tool."
    );
    // Disabling it again changes nothing, and tells nobody.
    session
        .call("switch_tool", json!({"name": "hello", "enabled": false}))
        .await
        .unwrap();
    session.no_list_changed().await;
    session
        .call("switch_tool", json!({"name": "hello", "enabled": true}))
        .await
        .unwrap();
    session.list_changed("the enable").await;
    assert_eq!(session.names().await, START);
    let hello = session.call("hello", json!({})).await.unwrap();
    assert_eq!(text(&hello), "hello");
    let _ = session.client.cancel().await;
}

#[tokio::test]
async fn a_tool_unlocks_a_tag_and_removes_a_tool() {
    let mut session = Session::start().await;
    let unknown = session.call("reset_shop", json!({})).await.unwrap_err();
    assert!(matches!(unknown, ServiceError::McpError(_)), "{unknown:?}");
    session.call("unlock_admin", json!({})).await.unwrap();
    session.list_changed("the unlock").await;
    assert!(session.names().await.contains(&"reset_shop".to_string()));
    let reset = session.call("reset_shop", json!({})).await.unwrap();
    assert_eq!(text(&reset), "the shop was reset");
    session
        .call("remove_tool", json!({"name": "reset_shop"}))
        .await
        .unwrap();
    session.list_changed("the removal").await;
    assert!(!session.names().await.contains(&"reset_shop".to_string()));
    let _ = session.client.cancel().await;
}

/// Two HTTP sessions of the official Python SDK client: a change made through one reaches
/// both.
#[test]
fn every_http_session_is_told() {
    use mcp_tool_test_support::clients::clients;
    use mcp_tool_test_support::http::HttpServer;

    let server = HttpServer::start(LIVE_TOOLS, &[], &[]);
    let clients = clients();
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients/live_tools_client.py");
    let output = clients
        .command(&clients.python)
        .arg(script)
        .arg(server.url())
        .output()
        .expect("run the Python client");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the Python client failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_str(stdout.lines().last().unwrap_or_default())
        .unwrap_or_else(|error| panic!("no report ({error}): {stdout}"));
    assert_eq!(report["before"], json!(START));
    assert_eq!(
        report["after_add"],
        json!([
            "hello",
            "unlock_admin",
            "add_tool",
            "remove_tool",
            "switch_tool",
            "echo"
        ])
    );
    assert_eq!(report["echo"], "hi");
    assert_eq!(
        report["after_disable"],
        json!([
            "unlock_admin",
            "add_tool",
            "remove_tool",
            "switch_tool",
            "echo"
        ])
    );
    assert_eq!(report["notified"], json!([2, 2]));
}
