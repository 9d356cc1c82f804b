//! Middleware around each call: order, refusals, the outcomes it sees, the built-ins, and the
//! request identity a tool and a middleware read. Calls that need a request (its `_meta`, its
//! extensions) go through `ServerHandler::call_tool` with a real rmcp `RequestContext`.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_tool_runtime::middleware::{
    CallOutcome, ConcurrencyLimit, Middleware, Next, RateLimit, ToolRequest, TraceCalls, from_fn,
};
use mcp_tool_runtime::rmcp::ServerHandler;
use mcp_tool_runtime::rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ErrorData, JsonObject, NumberOrString,
};
use mcp_tool_runtime::rmcp::service::{RequestContext, RoleServer, RunningService, serve_directly};
use mcp_tool_runtime::{McpServer, Principal, ToolContext, ToolError, mcp_tool, mcp_tools};
use serde_json::{Value, json};
use tokio::sync::Notify;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;

use mcp_tool_test_support::results::{call, envelope, ok_text, text};

/// Add two numbers.
#[mcp_tool]
async fn add(a: i64, b: i64) -> String {
    (a + b).to_string()
}

/// Fail the way a bug does.
#[mcp_tool]
async fn explode() -> String {
    panic!("the fuse was lit")
}

/// Sleep past a short time limit.
#[mcp_tool(timeout = "20ms")]
async fn dawdle() -> String {
    tokio::time::sleep(Duration::from_secs(5)).await;
    "late".into()
}

/// Sleep well past any short time limit, having none of its own.
#[mcp_tool]
async fn linger() -> String {
    tokio::time::sleep(Duration::from_secs(5)).await;
    "late".into()
}

/// Say who is calling.
#[mcp_tool]
async fn whoami(ctx: ToolContext) -> String {
    ctx.principal()
        .map_or("anonymous", Principal::subject)
        .to_string()
}

/// What one middleware wrote down about the calls it saw.
type Log = Arc<Mutex<Vec<String>>>;

/// Writes `name:before`, then `name:after:<code or ok>` around the rest of the chain.
struct Recorder {
    name: &'static str,
    log: Log,
}

impl Middleware for Recorder {
    async fn handle(
        &self,
        request: ToolRequest<'_>,
        next: Next<'_>,
    ) -> Result<CallOutcome, ToolError> {
        self.write(format!("{}:before:{}", self.name, request.tool().name()));
        let outcome = next.run(request).await;
        let code = outcome.code().map_or("ok", |code| code.as_str());
        self.write(format!("{}:after:{code}", self.name));
        Ok(outcome)
    }
}

impl Recorder {
    fn write(&self, line: String) {
        self.log.lock().expect("log").push(line);
    }
}

fn entries(log: &Log) -> Vec<String> {
    log.lock().expect("log").clone()
}

/// Refuses calls of `add` whose `a` is negative, reading the raw arguments.
async fn no_negative_a(request: ToolRequest<'_>, next: Next<'_>) -> Result<CallOutcome, ToolError> {
    let a = request
        .arguments()
        .and_then(|arguments| arguments["a"].as_i64());
    if a.is_some_and(|a| a < 0) {
        return Err(
            ToolError::forbidden("Negative numbers are not allowed here.")
                .with_hint("Send a >= 0."),
        );
    }
    Ok(next.run(request).await)
}

#[tokio::test]
async fn middlewares_run_in_order_and_the_outer_sees_the_inner_refusal() {
    let log = Log::default();
    let server = McpServer::builder(())
        .tool(add_tool())
        .middleware(Recorder {
            name: "outer",
            log: Arc::clone(&log),
        })
        .middleware(from_fn(no_negative_a))
        .middleware(Recorder {
            name: "inner",
            log: Arc::clone(&log),
        })
        .build()
        .expect("builds");

    assert_eq!(
        ok_text(&call(&server, "add", json!({"a": 1, "b": 2})).await),
        "3"
    );
    assert_eq!(
        entries(&log),
        [
            "outer:before:add",
            "inner:before:add",
            "inner:after:ok",
            "outer:after:ok"
        ]
    );

    log.lock().expect("log").clear();
    let refused = call(&server, "add", json!({"a": -1, "b": 2})).await;
    // The innermost never ran; the outermost saw the refusal as the client does.
    assert_eq!(entries(&log), ["outer:before:add", "outer:after:forbidden"]);
    let envelope = envelope(&refused);
    assert_eq!(envelope["code"], "forbidden");
    assert_eq!(envelope["class"], "input");
    assert_eq!(envelope["retryable"], false);
    assert_eq!(envelope["error"], "Negative numbers are not allowed here.");
    assert_eq!(
        text(&refused),
        "Negative numbers are not allowed here.\nHint: Send a >= 0."
    );
}

#[tokio::test]
async fn a_rate_limited_refusal_carries_retry_after_in_the_envelope() {
    let server = McpServer::builder(())
        .tool(add_tool())
        .middleware(from_fn(
            async |_request: ToolRequest<'_>, _next: Next<'_>| {
                Err(ToolError::rate_limited("Slow down.").with_retry_after(Duration::from_secs(7)))
            },
        ))
        .build()
        .expect("builds");
    let refused = call(&server, "add", json!({"a": 1, "b": 2})).await;
    let envelope = envelope(&refused);
    assert_eq!(envelope["code"], "rate_limited");
    assert_eq!(envelope["retryable"], true);
    assert_eq!(envelope["retryAfter"], 7);
    assert_eq!(
        text(&refused),
        "Slow down.\nThis is temporary: retry after 7 seconds."
    );
}

/// One outcome as a middleware saw it: its code, correlation id and masked cause.
type Seen = (String, Option<String>, Option<String>);

/// Keeps every outcome it sees.
#[derive(Default)]
struct Outcomes {
    seen: Mutex<Vec<Seen>>,
}

impl Middleware for Outcomes {
    async fn handle(
        &self,
        request: ToolRequest<'_>,
        next: Next<'_>,
    ) -> Result<CallOutcome, ToolError> {
        let outcome = next.run(request).await;
        let code = outcome
            .code()
            .map_or("ok", |code| code.as_str())
            .to_string();
        let cause = outcome
            .error()
            .and_then(ToolError::internal_detail)
            .map(ToString::to_string);
        let id = outcome.correlation_id().map(str::to_string);
        self.seen.lock().expect("seen").push((code, id, cause));
        Ok(outcome)
    }
}

#[tokio::test]
async fn the_server_default_time_limit_holds_for_in_process_calls_too() {
    let server = McpServer::builder(())
        .tool(linger_tool())
        .default_timeout(Duration::from_millis(20))
        .build()
        .expect("builds");
    let started = std::time::Instant::now();
    let result = call(&server, "linger", json!({})).await;
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(envelope(&result)["code"], "timeout");
    assert!(
        text(&result).starts_with(
            "Tool 'linger' did not finish within its time limit of 20 ms and was stopped."
        ),
        "{}",
        text(&result)
    );
}

#[tokio::test]
async fn middleware_sees_invalid_arguments_panics_and_timeouts() {
    let outcomes = Arc::new(Outcomes::default());
    let server = McpServer::builder(())
        .tool(add_tool())
        .tool(explode_tool())
        .tool(dawdle_tool())
        .middleware(Arc::clone(&outcomes))
        .build()
        .expect("builds");

    let invalid = call(&server, "add", json!({"a": "one", "b": 2})).await;
    let exploded = call(&server, "explode", json!({})).await;
    let late = call(&server, "dawdle", json!({})).await;

    let seen = outcomes.seen.lock().expect("seen").clone();
    let codes: Vec<&str> = seen.iter().map(|(code, _, _)| code.as_str()).collect();
    assert_eq!(codes, ["invalid_arguments", "internal_error", "timeout"]);
    // The ids are the ones the client's envelopes name.
    for ((_, id, _), result) in seen.iter().zip([&invalid, &exploded, &late]) {
        assert_eq!(
            Some(envelope(result)["correlationId"].as_str().expect("id")),
            id.as_deref()
        );
    }
    assert_eq!(
        seen[1].2.as_deref(),
        Some("the tool panicked: the fuse was lit")
    );
}

/// Panics, as a middleware with a bug does.
async fn panicking(_request: ToolRequest<'_>, _next: Next<'_>) -> Result<CallOutcome, ToolError> {
    panic!("middleware bug")
}

#[tokio::test]
async fn a_panicking_middleware_is_an_internal_error_not_a_crash() {
    let outcomes = Arc::new(Outcomes::default());
    let server = McpServer::builder(())
        .tool(add_tool())
        .middleware(Arc::clone(&outcomes))
        .middleware(from_fn(panicking))
        .build()
        .expect("builds");
    let result = call(&server, "add", json!({"a": 1, "b": 2})).await;
    assert_eq!(envelope(&result)["code"], "internal_error");
    let seen = outcomes.seen.lock().expect("seen").clone();
    assert_eq!(
        seen[0].2.as_deref(),
        Some("a middleware panicked: middleware bug")
    );
}

#[tokio::test]
async fn the_rate_limit_answers_after_its_burst_per_tool() {
    let server = McpServer::builder(())
        .tool(add_tool())
        .tool(whoami_tool())
        .middleware(RateLimit::new(3, Duration::from_secs(60)).per_tool())
        .build()
        .expect("builds");
    for _ in 0..3 {
        ok_text(&call(&server, "add", json!({"a": 1, "b": 2})).await);
    }
    let limited = call(&server, "add", json!({"a": 1, "b": 2})).await;
    let envelope = envelope(&limited);
    assert_eq!(envelope["code"], "rate_limited");
    assert_eq!(envelope["retryable"], true);
    assert_eq!(envelope["retryAfter"], 20);
    assert_eq!(
        text(&limited),
        "Too many calls to tool 'add': it allows 3 calls per 60 s.\n\
         This is temporary: retry after 20 seconds."
    );
    // Another tool has a bucket of its own.
    assert_eq!(
        ok_text(&call(&server, "whoami", json!({})).await),
        "anonymous"
    );
}

/// A gate a tool waits at, so that a test can hold a call open.
#[derive(Default)]
struct Gate {
    entered: Notify,
    release: Notify,
}

#[mcp_tools]
impl Gate {
    /// Wait until the test opens the gate.
    #[mcp_tool]
    async fn wait_at_gate(&self) -> String {
        self.entered.notify_one();
        self.release.notified().await;
        "through".into()
    }
}

#[tokio::test]
async fn the_concurrency_limit_answers_at_capacity_while_a_call_runs() {
    let server = McpServer::builder(Arc::new(Gate::default()))
        .tool_set()
        .middleware(ConcurrencyLimit::new(1))
        .build()
        .expect("builds");
    let first = tokio::spawn({
        let server = server.clone();
        async move { call(&server, "wait_at_gate", json!({})).await }
    });
    server.state().entered.notified().await;

    let refused = call(&server, "wait_at_gate", json!({})).await;
    let envelope = envelope(&refused);
    assert_eq!(envelope["code"], "at_capacity");
    assert_eq!(envelope["retryable"], true);
    assert_eq!(
        text(&refused),
        "This server is already running 1 tool call, its limit at one time.\n\
         This is temporary: the same call may succeed if retried."
    );

    server.state().release.notify_one();
    assert_eq!(ok_text(&first.await.expect("first call")), "through");
    // The place is free again.
    let again = tokio::spawn({
        let server = server.clone();
        async move { call(&server, "wait_at_gate", json!({})).await }
    });
    server.state().entered.notified().await;
    server.state().release.notify_one();
    assert_eq!(ok_text(&again.await.expect("second call")), "through");
}

/// A server and a live rmcp peer, for calls through `ServerHandler::call_tool`.
struct Connected<S: Send + Sync + 'static> {
    server: McpServer<S>,
    _running: RunningService<RoleServer, McpServer<S>>,
    _client_end: tokio::io::DuplexStream,
}

impl<S: Send + Sync + 'static> Connected<S> {
    fn new(server: McpServer<S>) -> Self {
        let (server_end, client_end) = tokio::io::duplex(4096);
        let running = serve_directly(server.clone(), server_end, None);
        Self {
            server,
            _running: running,
            _client_end: client_end,
        }
    }

    /// A request context whose extensions hold `principal`, and whose `_meta` holds
    /// `traceparent`.
    fn context(
        &self,
        principal: Option<Principal>,
        traceparent: Option<&str>,
    ) -> RequestContext<RoleServer> {
        let mut context =
            RequestContext::new(NumberOrString::Number(1), self._running.peer().clone());
        if let Some(principal) = principal {
            context.extensions.insert(principal);
        }
        if let Some(traceparent) = traceparent {
            context.meta.set_traceparent(traceparent);
        }
        context
    }

    async fn call(
        &self,
        name: &'static str,
        arguments: Value,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        match self.respond(name, arguments, context).await {
            Ok(CallToolResponse::Complete(result)) => result,
            other => panic!("expected a tool result: {other:?}"),
        }
    }

    async fn respond(
        &self,
        name: &'static str,
        arguments: Value,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments: JsonObject = match arguments {
            Value::Object(map) => map,
            other => panic!("arguments must be an object: {other}"),
        };
        let request = CallToolRequestParams::new(name).with_arguments(arguments);
        ServerHandler::call_tool(&self.server, request, context).await
    }
}

#[tokio::test]
async fn a_tool_and_a_middleware_read_the_principal_from_the_request_extensions() {
    let subjects = Log::default();
    let server = McpServer::builder(())
        .tool(whoami_tool())
        .middleware(Subjects(Arc::clone(&subjects)))
        .build()
        .expect("builds");
    let connected = Connected::new(server);
    let alice = Principal::new("alice").with_claim("scope", "shop:read");
    let context = connected.context(Some(alice), None);
    assert_eq!(
        ok_text(&connected.call("whoami", json!({}), context).await),
        "alice"
    );
    let context = connected.context(None, None);
    assert_eq!(
        ok_text(&connected.call("whoami", json!({}), context).await),
        "anonymous"
    );
    assert_eq!(entries(&subjects), ["alice", ""]);
}

/// Writes down the subject of each call's principal (`""` for none).
struct Subjects(Log);

impl Middleware for Subjects {
    async fn handle(
        &self,
        request: ToolRequest<'_>,
        next: Next<'_>,
    ) -> Result<CallOutcome, ToolError> {
        let subject = request.principal().map(|p| p.subject().to_string());
        self.0
            .lock()
            .expect("subjects")
            .push(subject.unwrap_or_default());
        Ok(next.run(request).await)
    }
}

#[tokio::test]
async fn the_rate_limit_per_principal_gives_each_caller_a_bucket() {
    let server = McpServer::builder(())
        .tool(whoami_tool())
        .middleware(RateLimit::new(1, Duration::from_secs(60)).per_principal())
        .build()
        .expect("builds");
    let connected = Connected::new(server);
    let as_user = |name: &str| connected.context(Some(Principal::new(name)), None);
    ok_text(&connected.call("whoami", json!({}), as_user("alice")).await);
    let limited = connected.call("whoami", json!({}), as_user("alice")).await;
    assert_eq!(envelope(&limited)["retryAfter"], 60);
    assert_eq!(
        text(&limited),
        "Too many tool calls from this caller: this server allows 1 call per 60 s per caller.\n\
         This is temporary: retry after 60 seconds."
    );
    assert_eq!(
        ok_text(&connected.call("whoami", json!({}), as_user("bob")).await),
        "bob"
    );
}

/// A closed span: its name and its fields.
type ClosedSpan = (String, BTreeMap<String, String>);

/// Every closed span.
#[derive(Clone, Default)]
struct Spans(Arc<Mutex<Vec<ClosedSpan>>>);

#[derive(Default)]
struct Fields(BTreeMap<String, String>);

impl Visit for Fields {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0
            .insert(field.name().to_string(), format!("{value:?}"));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_string(), value.to_string());
    }
}

impl<S: tracing::Subscriber + for<'a> LookupSpan<'a>> Layer<S> for Spans {
    fn on_new_span(&self, attributes: &Attributes<'_>, id: &Id, context: Context<'_, S>) {
        let mut fields = Fields::default();
        attributes.record(&mut fields);
        if let Some(span) = context.span(id) {
            span.extensions_mut().insert(fields);
        }
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, context: Context<'_, S>) {
        if let Some(span) = context.span(id)
            && let Some(fields) = span.extensions_mut().get_mut::<Fields>()
        {
            values.record(fields);
        }
    }

    fn on_close(&self, id: Id, context: Context<'_, S>) {
        if let Some(span) = context.span(&id)
            && let Some(fields) = span.extensions_mut().remove::<Fields>()
        {
            self.0
                .lock()
                .expect("spans")
                .push((span.name().to_string(), fields.0));
        }
    }
}

/// A server of `add` with `TraceCalls`, whose spans are captured on this thread while the
/// guard lives.
fn traced_add() -> (Spans, tracing::subscriber::DefaultGuard, Connected<()>) {
    let spans = Spans::default();
    let guard =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(spans.clone()));
    let server = McpServer::builder(())
        .tool(add_tool())
        .middleware(TraceCalls::new())
        .build()
        .expect("builds");
    (spans, guard, Connected::new(server))
}

#[tokio::test]
async fn the_trace_span_records_the_call_and_the_clients_trace_parent() {
    let (spans, _subscriber, connected) = traced_add();
    let parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    let context = connected.context(None, Some(parent));
    ok_text(
        &connected
            .call("add", json!({"a": 1, "b": 2}), context)
            .await,
    );
    let context = connected.context(None, None);
    let failed = connected.call("add", json!({"a": "x"}), context).await;
    let correlation_id = envelope(&failed)["correlationId"]
        .as_str()
        .expect("id")
        .to_string();

    let closed: Vec<ClosedSpan> = spans
        .0
        .lock()
        .expect("spans")
        .iter()
        .filter(|(name, _)| name == "tool_call")
        .cloned()
        .collect();
    assert_eq!(closed.len(), 2, "{closed:?}");
    let (ok, bad) = (&closed[0].1, &closed[1].1);
    assert_eq!(ok["tool"], "add");
    assert_eq!(ok["outcome"], "ok");
    assert_eq!(ok["trace_id"], "0af7651916cd43dd8448eb211c80319c");
    assert_eq!(ok["parent_span_id"], "b7ad6b7169203331");
    assert!(ok["duration_ms"].parse::<f64>().is_ok_and(|ms| ms >= 0.0));
    assert!(!ok.contains_key("correlation_id") && !ok.contains_key("otel.status_code"));
    assert_eq!(bad["outcome"], "invalid_arguments");
    assert_eq!(bad["correlation_id"], correlation_id);
    assert_eq!(bad["otel.status_code"], "ERROR");
    assert!(!bad.contains_key("trace_id"));
}

#[tokio::test]
async fn the_trace_span_of_a_call_the_client_cancels_says_so() {
    let spans = Spans::default();
    let _subscriber =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(spans.clone()));
    let gate = Arc::new(Gate::default());
    let server = McpServer::builder(Arc::clone(&gate))
        .tool_set()
        .middleware(TraceCalls::new())
        .build()
        .expect("builds");
    let connected = Connected::new(server);
    let context = connected.context(None, None);
    let cancel = context.ct.clone();
    let (answer, ()) = tokio::join!(
        connected.respond("wait_at_gate", json!({}), context),
        async {
            gate.entered.notified().await;
            cancel.cancel();
        }
    );
    assert_eq!(
        answer.expect_err("a cancelled call has no result").message,
        "The client cancelled the call."
    );
    let closed = spans.0.lock().expect("spans").clone();
    let (_, fields) = closed
        .iter()
        .find(|(name, _)| name == "tool_call")
        .expect("the call's span closed");
    assert_eq!(fields["outcome"], "cancelled");
    assert!(fields.contains_key("duration_ms"));
    assert_eq!(fields["error.type"], "cancelled");
    assert_eq!(fields["otel.status_code"], "ERROR");
}

/// The fields of the OpenTelemetry semantic conventions for MCP, which any subscriber sees
/// and `tracing-opentelemetry` exports as they are (registry 1.42.0).
#[tokio::test]
async fn the_trace_span_carries_the_conventional_attributes() {
    let (spans, _subscriber, connected) = traced_add();
    ok_text(
        &connected
            .call(
                "add",
                json!({"a": 1, "b": 2}),
                connected.context(None, None),
            )
            .await,
    );
    let failed = connected
        .call("add", json!({"a": "x"}), connected.context(None, None))
        .await;
    assert_eq!(failed.is_error, Some(true));
    let closed = spans.0.lock().expect("spans").clone();
    let calls: Vec<_> = closed
        .iter()
        .filter(|(name, _)| name == "tool_call")
        .map(|(_, fields)| fields)
        .collect();
    assert_eq!(calls.len(), 2, "{closed:?}");
    let (ok, bad) = (calls[0], calls[1]);
    for (field, value) in [
        ("otel.name", "tools/call add"),
        ("otel.kind", "server"),
        ("mcp.method.name", "tools/call"),
        ("gen_ai.operation.name", "execute_tool"),
        ("gen_ai.tool.name", "add"),
        ("jsonrpc.request.id", "1"),
        ("network.transport", "pipe"),
    ] {
        assert_eq!(
            ok.get(field).map(String::as_str),
            Some(value),
            "{field}: {ok:?}"
        );
        assert_eq!(
            bad.get(field).map(String::as_str),
            Some(value),
            "{field}: {bad:?}"
        );
    }
    assert!(!ok.contains_key("error.type") && !ok.contains_key("mcp.session.id"));
    assert_eq!(bad["error.type"], "tool_error");
    assert_eq!(bad["otel.status_code"], "ERROR");
}

#[tokio::test]
async fn without_middleware_the_context_still_carries_the_principal() {
    let connected = Connected::new(
        McpServer::builder(())
            .tool(whoami_tool())
            .build()
            .expect("builds"),
    );
    let context = connected.context(Some(Principal::new("carol")), None);
    assert_eq!(
        ok_text(&connected.call("whoami", json!({}), context).await),
        "carol"
    );
}
