//! The live tool set against the real `live_tools` binary over real pipes, through rmcp's
//! client: `notifications/tools/list_changed` reaches the client after each change (on the
//! connection for a 2025-11-25 client, on its `subscriptions/listen` stream for a 2026-07-28
//! one), and the list and calls follow the change.

use std::process::Stdio;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientConfig, ContentBlock, GetMeta, ProtocolVersion,
    ServerNotification, SubscriptionFilter,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, NotificationContext, RoleClient, RunningService,
    ServiceError, Subscription,
};
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

fn live_tools() -> TokioChildProcess {
    let mut command = Command::new(LIVE_TOOLS);
    command.env("RUST_LOG", "warn");
    let (transport, _stderr) = TokioChildProcess::builder(command)
        .stderr(Stdio::null())
        .spawn()
        .expect("start live_tools");
    transport
}

impl Session {
    /// A 2025-11-25 client: `initialize`, then notifications on the connection.
    async fn start() -> Self {
        let (sender, changed) = mpsc::unbounded_channel();
        let client = Watcher { changed: sender }
            .serve(live_tools())
            .await
            .expect("MCP handshake");
        Self { client, changed }
    }

    /// A 2026-07-28 client: `server/discover`, no `initialize`, and no notification outside a
    /// `subscriptions/listen` stream. A tagged notification that reaches no open stream is
    /// handed to the [`Watcher`] by rmcp, so `changed` sees what a cancelled stream leaks.
    async fn start_2026() -> Self {
        let (sender, changed) = mpsc::unbounded_channel();
        let lifecycle = ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        };
        let client = Watcher { changed: sender }
            .serve_with_lifecycle(live_tools(), lifecycle)
            .await
            .expect("server/discover at 2026-07-28");
        Self { client, changed }
    }

    async fn listen(&self, filter: SubscriptionFilter) -> Subscription {
        self.client
            .peer()
            .listen(filter)
            .await
            .expect("subscriptions/listen acknowledged")
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

    /// Adds the `echo` tool at run time through the server's own `add_tool`.
    async fn add_echo(&self) {
        let added = self
            .call(
                "add_tool",
                json!({"name": "echo", "description": "Echo text."}),
            )
            .await
            .unwrap();
        assert_eq!(text(&added), "added 'echo'");
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

fn tool_changes() -> SubscriptionFilter {
    SubscriptionFilter::builder().tools_list_changed().build()
}

/// The next notification of `stream`, which must be `tools/list_changed` tagged with the
/// stream's id; fails after five seconds.
async fn tools_changed_on(stream: &mut Subscription, after: &str) {
    let next = tokio::time::timeout(Duration::from_secs(5), stream.next())
        .await
        .unwrap_or_else(|_| panic!("tools/list_changed on the stream within 5 s after {after}"))
        .expect("a notification the stream accepts");
    let Some(notification) = next else {
        panic!(
            "the stream ended before {after} was told: {:?}",
            stream.end()
        );
    };
    assert!(
        matches!(
            notification,
            ServerNotification::ToolListChangedNotification(_)
        ),
        "tools/list_changed expected after {after}: {notification:?}"
    );
    assert_eq!(
        notification.get_meta().subscription_id().as_ref(),
        Some(stream.id())
    );
}

/// Nothing arrives on `stream` within half a second.
async fn quiet(stream: &mut Subscription) {
    let waited = tokio::time::timeout(Duration::from_millis(500), stream.next()).await;
    assert!(waited.is_err(), "no notification expected: {waited:?}");
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
    session.add_echo().await;
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

#[tokio::test]
async fn a_2026_client_is_told_on_its_stream_until_it_stops_listening() {
    let mut session = Session::start_2026().await;
    let mut stream = session.listen(tool_changes()).await;
    assert_eq!(stream.acknowledged(), &tool_changes());
    session.add_echo().await;
    tools_changed_on(&mut stream, "the add").await;
    assert_eq!(
        session.names().await.last().map(String::as_str),
        Some("echo")
    );
    session
        .call("switch_tool", json!({"name": "hello", "enabled": false}))
        .await
        .unwrap();
    tools_changed_on(&mut stream, "the disable").await;
    assert!(!session.names().await.contains(&"hello".to_string()));
    // A change that changes nothing tells nobody.
    session
        .call("switch_tool", json!({"name": "hello", "enabled": false}))
        .await
        .unwrap();
    quiet(&mut stream).await;
    stream.cancel().await.expect("notifications/cancelled sent");
    // A stream opened after the cancel is told of the next change; the cancelled one, whose
    // notifications would now reach the Watcher, is not.
    let mut later = session.listen(tool_changes()).await;
    session
        .call("switch_tool", json!({"name": "hello", "enabled": true}))
        .await
        .unwrap();
    tools_changed_on(&mut later, "the enable").await;
    session.no_list_changed().await;
    assert!(matches!(stream.next().await, Ok(None)));
    let _ = session.client.cancel().await;
}

#[tokio::test]
async fn a_2026_stream_gets_only_what_it_asked_for_and_the_server_advertises() {
    let mut session = Session::start_2026().await;
    // live_tools has no prompts: nothing of this filter is advertised, nothing is accepted.
    let prompts = SubscriptionFilter::builder().prompts_list_changed().build();
    let mut prompts_only = session.listen(prompts).await;
    assert_eq!(prompts_only.acknowledged(), &SubscriptionFilter::default());
    let mut tools = session.listen(tool_changes()).await;
    session.call("unlock_admin", json!({})).await.unwrap();
    tools_changed_on(&mut tools, "the unlock").await;
    quiet(&mut prompts_only).await;
    session.no_list_changed().await;
    let _ = session.client.cancel().await;
}

/// Two clients of the official Python SDK, each with its `subscriptions/listen` stream over
/// HTTP (2026-07-28): a change made through one reaches both.
#[test]
fn every_listening_http_client_is_told() {
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
    assert_eq!(report["protocol"], json!(["2026-07-28", "2026-07-28"]));
    assert_eq!(
        report["honored"],
        json!([{"toolsListChanged": true}, {"toolsListChanged": true}])
    );
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
