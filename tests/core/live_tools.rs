//! The live tool set: tools added, removed, enabled and disabled while serving, by name and
//! by tag; the visibility rule in `tools/list` and `tools/call`; tools built at run time
//! from a JSON Schema; a 2026-07-28 client's `subscriptions/listen` stream, shared with a
//! `with_handler` handler's own notifications.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use mcp_tool_runtime::rmcp::model::{
    GetMeta, ProtocolVersion, ServerCapabilities, ServerConfig, ServerNotification,
    SubscriptionFilter,
};
use mcp_tool_runtime::rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService, ServiceError, Subscription,
    SubscriptionContext,
};
use mcp_tool_runtime::rmcp::transport::async_rw::AsyncRwTransport;
use mcp_tool_runtime::rmcp::{ErrorData, ServerHandler};
use mcp_tool_runtime::testing::TestClient;
use mcp_tool_runtime::{
    McpServer, Principal, StdioOptions, ToolContext, ToolDef, ToolError, ToolInfo, mcp_tool,
    registry::{LiveTools, RegistryError},
    stdio::LineTransport,
};
use mcp_tool_test_support::results::{
    call, client_envelope, envelope, ok_text, text, violation_messages,
};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::fixtures::is_correlation_id;

/// Delete a user.
#[mcp_tool(tags = ["admin", "danger"])]
fn delete_user(id: u64) -> String {
    format!("deleted {id}")
}

/// Rename a user.
#[mcp_tool(tags = ["admin"])]
fn rename_user(id: u64, name: String) -> String {
    format!("{id} is {name}")
}

/// Say hello.
#[mcp_tool]
fn greet() -> String {
    "hello".into()
}

fn shop() -> McpServer<()> {
    McpServer::builder(())
        .tool(delete_user_tool())
        .tool(rename_user_tool())
        .tool(greet_tool())
        .build()
        .unwrap()
}

fn listed<S: Send + Sync + 'static>(server: &McpServer<S>) -> Vec<String> {
    server
        .registry()
        .list()
        .iter()
        .map(|tool| tool.name.to_string())
        .collect()
}

async fn unknown_message<S: Send + Sync + 'static>(server: &McpServer<S>, name: &str) -> String {
    server
        .call(name, Some(json!({"id": 1})))
        .await
        .expect_err("the tool is not served")
        .to_string()
}

/// The schema of `lookup`, a tool built at run time.
fn lookup_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "sku": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$", "examples": ["ABC-0001"]},
            "quantity": {"type": "integer", "minimum": 1, "maximum": 100},
            "sort": {"enum": ["asc", "desc"]},
            "lines": {"type": "array", "items": {"$ref": "#/$defs/Line"}}
        },
        "required": ["sku", "quantity"],
        "additionalProperties": false,
        "$defs": {
            "Line": {
                "type": "object",
                "properties": {"qty": {"type": "integer"}},
                "required": ["qty"]
            }
        }
    })
}

fn lookup_tool() -> ToolDef<()> {
    ToolDef::from_schema(
        "lookup",
        "Look up stock.",
        lookup_schema(),
        |arguments: Value, _ctx: ToolContext| async move {
            if arguments["sku"] == "PNC-0000" {
                panic!("secret dynamic panic detail");
            }
            if arguments["sku"] == "ERR-0000" {
                return Err(ToolError::new(
                    mcp_tool_runtime::ErrorCode::NOT_FOUND,
                    "No item ERR-0000.",
                ));
            }
            Ok(format!("{arguments}"))
        },
    )
    .expect("a schema the runtime can check")
}

#[tokio::test]
async fn a_disabled_tool_is_neither_listed_nor_callable_until_enabled() {
    let server = shop();
    let tools = server.tools();
    assert!(tools.disable("greet"));
    assert_eq!(listed(&server), ["delete_user", "rename_user"]);
    assert_eq!(tools.is_served("greet"), Some(false));
    assert_eq!(
        unknown_message(&server, "greet").await,
        "Unknown tool 'greet'. Available tools: delete_user, rename_user."
    );
    assert!(tools.enable("greet"));
    assert_eq!(listed(&server), ["delete_user", "rename_user", "greet"]);
    assert_eq!(ok_text(&call(&server, "greet", json!({})).await), "hello");
    assert!(!tools.disable("no_such_tool"));
    assert_eq!(tools.is_served("no_such_tool"), None);
}

#[tokio::test]
async fn a_removed_tool_is_gone_and_its_name_is_free_again() {
    let server = shop();
    let tools = server.tools();
    assert!(tools.remove("greet"));
    assert!(!tools.remove("greet"));
    assert_eq!(listed(&server), ["delete_user", "rename_user"]);
    assert_eq!(
        unknown_message(&server, "greet").await,
        "Unknown tool 'greet'. Available tools: delete_user, rename_user."
    );
    tools.add(greet_tool()).expect("the name is free");
    assert_eq!(ok_text(&call(&server, "greet", json!({})).await), "hello");
}

#[tokio::test]
async fn tags_disable_and_enable_tools_together() {
    let server = shop();
    let tools = server.tools();
    tools.disable_tag("admin");
    assert_eq!(listed(&server), ["greet"]);
    assert_eq!(
        unknown_message(&server, "delete_user").await,
        "Unknown tool 'delete_user'. Available tools: greet."
    );
    // A tool's own switch does not override a disabled tag.
    assert!(tools.enable("rename_user"));
    assert_eq!(tools.is_served("rename_user"), Some(false));
    tools.enable_tag("admin");
    assert_eq!(listed(&server), ["delete_user", "rename_user", "greet"]);
    // A tool stays hidden while any of its tags is disabled.
    tools.disable_tag("danger");
    assert_eq!(listed(&server), ["rename_user", "greet"]);
    let info = delete_user_tool::<()>();
    assert_eq!(info.info().tags().collect::<Vec<_>>(), ["admin", "danger"]);
    assert!(info.info().has_tag("danger"));
}

#[tokio::test]
async fn a_tool_added_under_a_disabled_tag_waits_for_it() {
    let server = McpServer::builder(()).tool(greet_tool()).build().unwrap();
    let tools = server.tools();
    tools.disable_tag("admin");
    tools.add(delete_user_tool()).unwrap();
    assert_eq!(listed(&server), ["greet"]);
    tools.enable_tag("admin");
    assert_eq!(listed(&server), ["greet", "delete_user"]);
    let result = call(&server, "delete_user", json!({"id": 4})).await;
    assert_eq!(ok_text(&result), "deleted 4");
}

#[tokio::test]
async fn adding_a_second_tool_of_a_name_is_refused_even_when_disabled() {
    let server = shop();
    let tools = server.tools();
    tools.disable("greet");
    let refused = tools.add(greet_tool()).unwrap_err();
    assert!(matches!(refused, RegistryError::DuplicateTool { .. }));
    assert!(
        refused
            .to_string()
            .starts_with("two tools are named 'greet'"),
        "{refused}"
    );
    assert_eq!(listed(&server), ["delete_user", "rename_user"]);
}

#[tokio::test]
async fn a_snapshot_taken_before_a_change_keeps_its_tools() {
    let server = shop();
    let before = server.registry();
    server.tools().remove("greet");
    assert_eq!(before.list().len(), 3);
    assert_eq!(server.registry().list().len(), 2);
}

#[tokio::test]
async fn a_change_that_changes_nothing_keeps_the_snapshot() {
    let server = shop();
    let before = server.registry();
    server.tools().enable("greet");
    server.tools().enable_tag("not_a_tag");
    assert!(Arc::ptr_eq(&before, &server.registry()));
}

fn admin_only() -> McpServer<()> {
    McpServer::builder(())
        .tool(delete_user_tool())
        .tool(rename_user_tool())
        .tool(greet_tool())
        .visibility(|seen| {
            !seen.tool().has_tag("admin")
                || seen
                    .principal()
                    .is_some_and(|p| p.claim("role") == Some(&json!("admin")))
        })
        .build()
        .unwrap()
}

#[tokio::test]
async fn an_invisible_tool_is_answered_exactly_like_an_unknown_one() {
    let server = admin_only();
    let hidden = server
        .call("delete_user", Some(json!({"id": 1})))
        .await
        .unwrap_err();
    let absent = server
        .call("delete_usr", Some(json!({"id": 1})))
        .await
        .unwrap_err();
    assert_eq!(
        hidden.to_string(),
        "Unknown tool 'delete_user'. Available tools: greet."
    );
    assert_eq!(hidden.suggestions, Vec::<String>::new());
    assert_eq!(hidden.available, ["greet"]);
    assert_eq!(absent.available, hidden.available);
    assert_eq!(absent.suggestions, hidden.suggestions);
}

async fn client_of(server: &McpServer<()>, principal: Option<Principal>) -> TestClient {
    let builder = TestClient::builder();
    let builder = match principal {
        Some(principal) => builder.principal(principal),
        None => builder,
    };
    builder.connect(server).await.expect("connected")
}

async fn names_for(client: &TestClient) -> Vec<String> {
    let listed = client.list_tools().await.expect("tools/list");
    listed.iter().map(|tool| tool.name.to_string()).collect()
}

#[tokio::test]
async fn visibility_applies_to_the_list_and_the_call_of_each_principal() {
    let server = admin_only();
    let admin = client_of(
        &server,
        Some(Principal::new("alice").with_claim("role", "admin")),
    )
    .await;
    let guest = client_of(
        &server,
        Some(Principal::new("bob").with_claim("role", "guest")),
    )
    .await;
    let anonymous = client_of(&server, None).await;
    assert_eq!(
        names_for(&admin).await,
        ["delete_user", "rename_user", "greet"]
    );
    assert_eq!(names_for(&guest).await, ["greet"]);
    assert_eq!(names_for(&anonymous).await, ["greet"]);
    let answered = admin.call("delete_user", json!({"id": 9})).await.unwrap();
    assert_eq!(answered.text(), "deleted 9");
    for client in [&guest, &anonymous] {
        let refused = client
            .call("delete_user", json!({"id": 9}))
            .await
            .unwrap_err();
        let ServiceError::McpError(error) = refused else {
            panic!("a JSON-RPC error expected: {refused:?}");
        };
        assert_eq!(error.code.0, -32602);
        assert_eq!(
            error.message,
            "Unknown tool 'delete_user'. Available tools: greet."
        );
        assert_eq!(
            error.data,
            Some(json!({"tool": "delete_user", "suggestions": [], "available": ["greet"]}))
        );
    }
}

#[tokio::test]
async fn the_capability_says_the_list_may_change() {
    let info = shop().get_info();
    let tools = info.capabilities.tools.expect("tools capability");
    assert_eq!(tools.list_changed, Some(true));
}

#[tokio::test]
async fn a_schema_tool_reports_every_violation_like_a_typed_tool() {
    let server = McpServer::builder(()).tool(lookup_tool()).build().unwrap();
    let result = call(
        &server,
        "lookup",
        json!({
            "sku": "abc",
            "quantity": "five",
            "sort": "ascending",
            "lines": [{"qty": 1}, {"qty": "x"}],
            "quantiy": 3
        }),
    )
    .await;
    assert_eq!(envelope(&result)["code"], "invalid_arguments");
    assert_eq!(
        violation_messages(&result),
        [
            "Argument 'sku' must match the pattern `^[A-Z]{3}-[0-9]{4}$` (for example 'ABC-0001'), but received 'abc'.",
            "Argument 'quantity' expected an integer, but received 'five'.",
            "Argument 'sort' must be one of 'asc', 'desc', but received 'ascending'. Did you mean 'asc'?",
            "Argument 'lines[1].qty' expected an integer, but received 'x'.",
            "Unknown argument 'quantiy'. Did you mean 'quantity'? Valid arguments here: sku, quantity, sort, lines.",
        ]
    );
}

#[tokio::test]
async fn a_schema_tool_gets_the_arguments_checked_and_repaired() {
    let server = McpServer::builder(()).tool(lookup_tool()).build().unwrap();
    // A numeric string is read as the integer the schema asks for, as for a typed tool.
    let result = call(
        &server,
        "lookup",
        json!({"sku": "ABC-0001", "quantity": "5"}),
    )
    .await;
    assert_eq!(ok_text(&result), r#"{"sku":"ABC-0001","quantity":5}"#);
    let missing = server.call("lookup", None).await.unwrap();
    assert_eq!(
        client_envelope(&missing).error,
        "Tool 'lookup' was called without arguments, but it requires 'sku', 'quantity'."
    );
    let range = call(
        &server,
        "lookup",
        json!({"sku": "ABC-0001", "quantity": 500}),
    )
    .await;
    assert_eq!(
        violation_messages(&range),
        ["Argument 'quantity' must be between 1 and 100, but received 500."]
    );
}

#[tokio::test]
async fn a_schema_tool_panic_is_masked_and_its_errors_shown() {
    let server = McpServer::builder(()).tool(lookup_tool()).build().unwrap();
    let result = call(&server, "lookup", json!({"sku": "PNC-0000", "quantity": 1})).await;
    let masked = envelope(&result);
    assert!(is_correlation_id(&masked["correlationId"]));
    let id = masked["correlationId"].as_str().unwrap();
    let expected = format!(
        "Tool 'lookup' failed because of an internal error on the server. The arguments were \
         accepted; the details were logged under correlation id {id}."
    );
    assert_eq!(masked["error"], expected);
    assert_eq!(text(&result), expected);
    assert!(!serde_json::to_string(&result).unwrap().contains("secret"));
    let shown = call(&server, "lookup", json!({"sku": "ERR-0000", "quantity": 1})).await;
    assert_eq!(envelope(&shown)["code"], "not_found");
    assert_eq!(envelope(&shown)["error"], "No item ERR-0000.");
}

#[tokio::test]
async fn a_schema_tool_is_published_like_any_other() {
    let server = McpServer::builder(()).tool(lookup_tool()).build().unwrap();
    let registry = server.registry();
    let published = registry.published("lookup").unwrap();
    assert_eq!(published.description.as_deref(), Some("Look up stock."));
    // The portable profile inlines the `$ref`, as for a typed tool.
    assert_eq!(
        Value::Object((*published.input_schema).clone())["properties"]["lines"]["items"],
        json!({"type": "object", "properties": {"qty": {"type": "integer"}}, "required": ["qty"]})
    );
}

#[tokio::test]
async fn a_removed_schema_tool_is_freed() {
    let server = McpServer::builder(()).tool(greet_tool()).build().unwrap();
    let tools = server.tools();
    let alive = Arc::new(());
    for _ in 0..100 {
        let held = Arc::clone(&alive);
        let tool = ToolDef::from_schema(
            "echo",
            "Echo.",
            json!({"type": "object"}),
            move |arguments: Value, _ctx: ToolContext| {
                let _held = &held;
                async move { Ok::<_, ToolError>(arguments.to_string()) }
            },
        )
        .unwrap();
        tools.add(tool).unwrap();
        assert_eq!(
            ok_text(&call(&server, "echo", json!({"a": 1})).await),
            r#"{"a":1}"#
        );
        assert!(tools.remove("echo"));
    }
    assert_eq!(
        Arc::strong_count(&alive),
        1,
        "every removed tool was dropped"
    );
}

#[test]
fn schemas_the_runtime_cannot_check_are_refused() {
    let refused = |schema: Value| {
        ToolInfo::from_schema("pick", "Pick.", schema)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        refused(json!({"type": "array"})),
        "the input schema of tool 'pick' does not describe a JSON object: its root must say \"type\": \"object\""
    );
    assert_eq!(
        refused(
            json!({"type": "object", "properties": {"a": {"type": "string", "not": {"const": "x"}}}})
        ),
        "the input schema of tool 'pick' uses `not` at `#/properties/a/not`, which the runtime cannot check; describe the input without it"
    );
    assert_eq!(
        refused(
            json!({"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}})
        ),
        "the input schema of tool 'pick' refers to `https://example.com/a.json` at `#/properties/a/$ref`, which is not one of its own `#/$defs/...`: only local definitions are followed"
    );
    assert_eq!(
        refused(
            json!({"type": "object", "properties": {"a": {"type": "string", "anyOf": [{"minLength": 2}, {"pattern": "^x"}]}}})
        ),
        "the input schema of tool 'pick' has `type` beside `anyOf` at `#/properties/a`, where the runtime checks only the branches; move it into every branch"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_from_a_thread_outside_the_runtime_reaches_the_clients() {
    let server = shop();
    let client = TestClient::connect(&server).await.unwrap();
    let tools = server.tools();
    std::thread::spawn(move || assert!(tools.disable("greet")))
        .join()
        .expect("the thread ends");
    for _ in 0..200 {
        if client.tool_list_changes() > 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(client.tool_list_changes(), 1);
    assert_eq!(names_for(&client).await, ["delete_user", "rename_user"]);
}

const WATCHED: &str = "test://watched";

/// A handler with resource subscriptions of its own. It accepts more than it advertises
/// (prompt changes) and claims tool changes, which are the server's: neither may reach a
/// stream through it. Each stream it runs gets one update of [`WATCHED`] at once; `events`
/// hears when its `listen` starts and ends.
struct Watched {
    events: mpsc::UnboundedSender<&'static str>,
}

impl ServerHandler for Watched {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_resources()
            .enable_resources_subscribe()
            .build();
        ServerConfig::new(capabilities)
    }

    fn accepted_subscription_filter(
        &self,
        _requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let accepted = SubscriptionFilter::builder()
            .tools_list_changed()
            .prompts_list_changed()
            .resource_subscription(WATCHED)
            .build();
        Some(accepted)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let _ = self.events.send("started");
        context
            .sink()
            .notify_resource_updated(WATCHED)
            .await
            .map_err(|error| ErrorData::internal_error(error.to_string(), None))?;
        context.cancelled().await;
        let _ = self.events.send("ended");
        Ok(())
    }
}

fn watched_shop() -> (McpServer<()>, mpsc::UnboundedReceiver<&'static str>) {
    let (events, heard) = mpsc::unbounded_channel();
    let server = McpServer::builder(())
        .tool(greet_tool())
        .tool(delete_user_tool())
        .with_handler(Watched { events })
        .build()
        .unwrap();
    (server, heard)
}

/// A 2026-07-28 client (`server/discover`, no `initialize`) on a session of `server`, over
/// the line transport in memory.
async fn connect_2026(server: &McpServer<()>) -> RunningService<RoleClient, ()> {
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_end);
    let transport = LineTransport::new(read, write, &StdioOptions::default());
    tokio::spawn(server.new_session().serve_lines(transport));
    let (read, write) = tokio::io::split(client_end);
    let lifecycle = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    ().serve_with_lifecycle(AsyncRwTransport::new_client(read, write), lifecycle)
        .await
        .expect("server/discover at 2026-07-28")
}

/// The next notification of `stream`, tagged with its id; fails after five seconds.
async fn next_on(stream: &mut Subscription) -> ServerNotification {
    let next = tokio::time::timeout(Duration::from_secs(5), stream.next())
        .await
        .expect("a notification within 5 s")
        .expect("a notification the stream accepts")
        .unwrap_or_else(|| panic!("the stream ended: {:?}", stream.end()));
    assert_eq!(
        next.get_meta().subscription_id().as_ref(),
        Some(stream.id())
    );
    next
}

#[tokio::test]
async fn a_stream_carries_the_tool_changes_and_the_handlers_own_notifications() {
    let (server, mut heard) = watched_shop();
    let client = connect_2026(&server).await;
    let asked = SubscriptionFilter::builder()
        .tools_list_changed()
        .prompts_list_changed()
        .resource_subscriptions([WATCHED, "test://unwatched"])
        .build();
    let mut stream = client.peer().listen(asked).await.unwrap();
    assert_eq!(
        stream.acknowledged(),
        &SubscriptionFilter::builder()
            .tools_list_changed()
            .resource_subscription(WATCHED)
            .build()
    );
    let updated = next_on(&mut stream).await;
    let ServerNotification::ResourceUpdatedNotification(updated) = updated else {
        panic!("the handler's resources/updated expected: {updated:?}");
    };
    assert_eq!(updated.params.uri, WATCHED);
    assert!(server.tools().disable("greet"));
    let changed = next_on(&mut stream).await;
    assert!(
        matches!(changed, ServerNotification::ToolListChangedNotification(_)),
        "{changed:?}"
    );
    assert_eq!(heard.recv().await, Some("started"));
    stream.cancel().await.unwrap();
    // The handler's `listen` sees the cancel and ends.
    let ended = tokio::time::timeout(Duration::from_secs(5), heard.recv()).await;
    assert_eq!(ended.ok().flatten(), Some("ended"));
    let _ = client.cancel().await;
}

#[tokio::test]
async fn a_stream_of_tool_changes_only_does_not_reach_the_handler() {
    let (server, mut heard) = watched_shop();
    let client = connect_2026(&server).await;
    let tools = SubscriptionFilter::builder().tools_list_changed().build();
    let mut stream = client.peer().listen(tools.clone()).await.unwrap();
    assert_eq!(stream.acknowledged(), &tools);
    assert!(server.tools().disable("greet"));
    let changed = next_on(&mut stream).await;
    assert!(
        matches!(changed, ServerNotification::ToolListChangedNotification(_)),
        "{changed:?}"
    );
    assert!(heard.try_recv().is_err(), "the handler's listen ran");
    let _ = client.cancel().await;
}

/// A handler that disables `greet` while a stream is being accepted: after the server has
/// accepted its tool changes, before rmcp acknowledges it and calls `listen`.
struct DisablesWhileAccepting {
    tools: Arc<OnceLock<LiveTools<()>>>,
}

impl ServerHandler for DisablesWhileAccepting {
    fn accepted_subscription_filter(
        &self,
        _requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        if let Some(tools) = self.tools.get() {
            assert!(tools.disable("greet"));
        }
        None
    }
}

#[tokio::test]
async fn a_change_between_acceptance_and_listen_reaches_the_stream() {
    let tools = Arc::new(OnceLock::new());
    let server = McpServer::builder(())
        .tool(greet_tool())
        .with_handler(DisablesWhileAccepting {
            tools: Arc::clone(&tools),
        })
        .build()
        .unwrap();
    assert!(tools.set(server.tools()).is_ok());
    let client = connect_2026(&server).await;
    let filter = SubscriptionFilter::builder().tools_list_changed().build();
    let mut stream = client.peer().listen(filter).await.unwrap();
    assert_eq!(server.tools().is_served("greet"), Some(false));
    let changed = next_on(&mut stream).await;
    assert!(
        matches!(changed, ServerNotification::ToolListChangedNotification(_)),
        "{changed:?}"
    );
    let _ = client.cancel().await;
}
