//! Tasks (the tasks extension of 2026-07-28) over real HTTP, beyond what the conformance
//! suite checks: a tool built at run time as a task, a progress message as the task's
//! `statusMessage`, a panic's masked error with its correlation id, the time to live, the
//! size limit of a result, the same body as a plain call, and -32021's data.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use mcp_tool_runtime::tool::TaskSupport;
use mcp_tool_runtime::{
    HttpOptions, McpServer, ToolContext, ToolDef, ToolError, ToolInfo, mcp_tool,
};
use mcp_tool_test_support::http::Stateless;
use mcp_tool_test_support::in_process::serve_http;
use serde_json::{Value, json};

/// Count to `to` slowly, saying how far it got (a task when the client takes tasks).
#[mcp_tool(task = "optional")]
async fn count(to: u32, ctx: ToolContext) -> Result<String, ToolError> {
    for step in 1..=to {
        let message = format!("counted {step} of {to}");
        ctx.progress(f64::from(step), Some(f64::from(to)), Some(&message))
            .await?;
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    Ok(format!("counted to {to}"))
}

/// Crash inside the server.
#[mcp_tool(task = "required")]
async fn crash() -> Result<String, ToolError> {
    panic!("secret detail: the disk at /srv/data is full");
}

/// Say a lot.
#[mcp_tool(task = "optional")]
async fn chatty(bytes: usize) -> String {
    "x".repeat(bytes)
}

/// Whether the run-time tool saw its cancellation.
static SAW_CANCEL: AtomicBool = AtomicBool::new(false);

/// A tool built at run time that runs as a task and waits to be cancelled.
fn waiter() -> ToolDef<()> {
    let schema = json!({"type": "object", "properties": {}, "additionalProperties": false});
    let info = ToolInfo::from_schema("wait_for_cancel", "Wait until cancelled.", schema)
        .expect("a valid schema")
        .task_support(TaskSupport::Required)
        .build();
    ToolDef::from_info(info, |_arguments: Value, ctx: ToolContext| async move {
        ctx.cancelled().await;
        SAW_CANCEL.store(true, Ordering::SeqCst);
        Err::<String, _>(ToolError::cancelled())
    })
}

/// A server in this process on 127.0.0.1 whose tasks live `ttl`; it stops when the returned
/// sender is dropped.
fn serve(ttl: Duration) -> (String, tokio::sync::oneshot::Sender<()>) {
    serve_http(HttpOptions::default(), move || {
        McpServer::builder(())
            .tools([count_tool(), crash_tool(), chatty_tool(), waiter()])
            .task_times(ttl, Duration::from_millis(200))
            .task_max_bytes(64 * 1024)
            .build()
            .expect("a server")
    })
}

/// A 2026-07-28 request, with the tasks extension declared when `tasks`.
fn call(addr: &str, method: &str, params: Value, tasks: bool) -> Value {
    let extensions = if tasks {
        json!({"io.modelcontextprotocol/tasks": {}})
    } else {
        json!({})
    };
    let capabilities = json!({"extensions": extensions});
    Stateless::new(1, method, params, capabilities)
        .post(addr, 1)
        .0
}

fn start(addr: &str, tool: &str, arguments: Value) -> String {
    let created = call(
        addr,
        "tools/call",
        json!({"name": tool, "arguments": arguments}),
        true,
    );
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    created["result"]["taskId"]
        .as_str()
        .expect("a task id")
        .to_string()
}

fn get(addr: &str, id: &str) -> Value {
    call(addr, "tasks/get", json!({"taskId": id}), true)
}

fn wait_until_ended(addr: &str, id: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let task = get(addr, id)["result"].clone();
        if ["completed", "failed", "cancelled"].contains(&task["status"].as_str().unwrap_or("")) {
            return task;
        }
        assert!(Instant::now() < deadline, "{task}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_same_body_runs_as_a_task_or_a_plain_call_and_its_progress_message_is_the_status() {
    let (addr, _stop) = serve(Duration::from_secs(60));
    let plain = call(
        &addr,
        "tools/call",
        json!({"name": "count", "arguments": {"to": 2}}),
        false,
    );
    assert_eq!(
        plain["result"]["content"][0]["text"], "counted to 2",
        "{plain}"
    );
    let id = start(&addr, "count", json!({"to": 4}));
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let task = get(&addr, &id)["result"].clone();
        if task["statusMessage"]
            .as_str()
            .is_some_and(|m| m.starts_with("counted "))
        {
            assert_eq!(task["status"], "working", "{task}");
            break;
        }
        assert!(Instant::now() < deadline, "no status message: {task}");
        std::thread::sleep(Duration::from_millis(30));
    }
    let task = wait_until_ended(&addr, &id);
    assert_eq!(task["status"], "completed");
    assert_eq!(task["result"]["content"][0]["text"], "counted to 4");
    assert_eq!(task["ttlMs"], 60_000);
    assert_eq!(task["pollIntervalMs"], 200);
}

#[test]
fn a_panic_fails_the_task_with_the_masked_error_and_a_correlation_id() {
    let (addr, _stop) = serve(Duration::from_secs(60));
    let id = start(&addr, "crash", json!({}));
    let task = wait_until_ended(&addr, &id);
    assert_eq!(task["status"], "failed", "{task}");
    assert!(task.get("result").is_none(), "{task}");
    let error = &task["error"];
    assert_eq!(error["code"], -32603, "{task}");
    let message = error["message"].as_str().expect("a message");
    assert!(
        message.starts_with("Tool 'crash' failed because of an internal error on the server."),
        "{message}"
    );
    assert!(!message.contains("secret detail"), "{message}");
    let correlation = error["data"]["correlationId"].as_str().expect("an id");
    assert!(message.contains(correlation), "{task}");
}

#[test]
fn a_required_task_without_the_extension_is_refused_with_the_capability_it_needs() {
    let (addr, _stop) = serve(Duration::from_secs(60));
    let refused = call(
        &addr,
        "tools/call",
        json!({"name": "crash", "arguments": {}}),
        false,
    );
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
    assert_eq!(
        refused["error"]["data"]["requiredCapabilities"]["extensions"],
        json!({"io.modelcontextprotocol/tasks": {}}),
        "{refused}"
    );
}

#[test]
fn a_task_is_forgotten_after_its_time_to_live() {
    let (addr, _stop) = serve(Duration::from_millis(600));
    let id = start(&addr, "count", json!({"to": 1}));
    assert_eq!(wait_until_ended(&addr, &id)["status"], "completed");
    std::thread::sleep(Duration::from_millis(700));
    let gone = get(&addr, &id);
    assert_eq!(gone["error"]["code"], -32602, "{gone}");
    assert!(
        gone["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("does not exist or has expired")),
        "{gone}"
    );
}

#[test]
fn a_result_past_the_size_limit_fails_the_task() {
    let (addr, _stop) = serve(Duration::from_secs(60));
    let small = start(&addr, "chatty", json!({"bytes": 1000}));
    assert_eq!(wait_until_ended(&addr, &small)["status"], "completed");
    let large = start(&addr, "chatty", json!({"bytes": 100_000}));
    let task = wait_until_ended(&addr, &large);
    assert_eq!(task["status"], "failed", "{task}");
    assert_eq!(
        task["error"]["message"],
        "The task's data would exceed the 64 KiB (65536 bytes) the server keeps for one task."
    );
}

#[test]
fn a_run_time_tool_runs_as_a_task_and_sees_its_cancel() {
    let (addr, _stop) = serve(Duration::from_secs(60));
    let id = start(&addr, "wait_for_cancel", json!({}));
    assert_eq!(get(&addr, &id)["result"]["status"], "working");
    let ack = call(&addr, "tasks/cancel", json!({"taskId": id}), true);
    assert_eq!(ack["result"], json!({"resultType": "complete"}), "{ack}");
    assert_eq!(wait_until_ended(&addr, &id)["status"], "cancelled");
    let deadline = Instant::now() + Duration::from_secs(3);
    while !SAW_CANCEL.load(Ordering::SeqCst) {
        assert!(Instant::now() < deadline, "ctx.cancelled() never completed");
        std::thread::sleep(Duration::from_millis(20));
    }
}
