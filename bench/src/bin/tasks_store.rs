//! The cost of a task-backed call against a plain one (over Streamable HTTP on 127.0.0.1,
//! stateless, one kept-alive connection), and of a rate limit counted in Redis against the
//! in-memory one (in-process `McpServer::call`), with the Redis commands each costs. Starts
//! its own `redis-server` on a free port (Debian's package).
//!
//! ```text
//! cargo run --release -p mcp-tool-bench --bin tasks_store
//! ```

use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_tool_runtime::middleware::RateLimit;
use mcp_tool_runtime::store::{MemoryStore, RedisStore, Store};
use mcp_tool_runtime::{HttpOptions, McpServer, mcp_tool};
use mcp_tool_test_support::http::{Connection, Stateless, free_port};
use serde_json::{Value, json};

/// Answer at once.
#[mcp_tool]
async fn noop() -> String {
    "ok".into()
}

/// Answer at once, as a task when the client takes tasks.
#[mcp_tool(task = "optional")]
async fn noop_task() -> String {
    "ok".into()
}

const ROUNDS: usize = 9;
const CALLS: usize = 400;

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn post(connection: &mut Connection, id: u64, method: &str, params: Value) -> Value {
    let capabilities = json!({"extensions": {"io.modelcontextprotocol/tasks": {}}});
    let request = Stateless::new(id, method, params, capabilities);
    connection
        .post(&request.headers(), request.body.as_bytes())
        .json()
}

/// Microseconds per call for `calls` plain calls, then for `calls` task-backed calls (the call
/// and the `tasks/get` polls until it completed), and the polls per task.
fn http_round(addr: &str) -> (f64, f64, f64) {
    let mut connection = Connection::open(addr);
    let mut id = 0;
    let started = Instant::now();
    for _ in 0..CALLS {
        id += 1;
        let answer = post(
            &mut connection,
            id,
            "tools/call",
            json!({"name": "noop", "arguments": {}}),
        );
        assert_eq!(answer["result"]["content"][0]["text"], "ok", "{answer}");
    }
    let plain = started.elapsed().as_secs_f64() * 1e6 / CALLS as f64;
    let started = Instant::now();
    let mut polls = 0;
    for _ in 0..CALLS {
        id += 1;
        let created = post(
            &mut connection,
            id,
            "tools/call",
            json!({"name": "noop_task", "arguments": {}}),
        );
        let task = created["result"]["taskId"]
            .as_str()
            .expect("a task")
            .to_string();
        loop {
            id += 1;
            polls += 1;
            let got = post(&mut connection, id, "tasks/get", json!({"taskId": task}));
            if got["result"]["status"] == "completed" {
                break;
            }
        }
    }
    let tasks = started.elapsed().as_secs_f64() * 1e6 / CALLS as f64;
    (plain, tasks, polls as f64 / CALLS as f64)
}

fn serve(runtime: &tokio::runtime::Runtime, store: Arc<dyn Store>) -> String {
    let server = McpServer::builder(())
        .tools([noop_tool(), noop_task_tool()])
        .shared_store(store)
        .build()
        .expect("a server");
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("bind");
    let addr = listener.local_addr().expect("an address").to_string();
    runtime.spawn(async move {
        let _ = server
            .serve_http_on(listener, HttpOptions::default().stateless(true))
            .await;
    });
    addr
}

/// Nanoseconds per in-process call through `limit`.
async fn limited_calls(limit: RateLimit, calls: usize) -> f64 {
    let server = McpServer::builder(())
        .tool(noop_tool())
        .middleware(limit)
        .build()
        .expect("a server");
    let started = Instant::now();
    for _ in 0..calls {
        let result = server.call("noop", None).await.expect("a tool");
        assert_eq!(result.is_error, Some(false));
    }
    started.elapsed().as_secs_f64() * 1e9 / calls as f64
}

fn redis_commands(port: u16, command: &str) -> u64 {
    let output = Command::new("redis-cli")
        .args(["-p", &port.to_string(), "info", "commandstats"])
        .output()
        .expect("redis-cli");
    let text = String::from_utf8_lossy(&output.stdout);
    let prefix = format!("cmdstat_{command}:calls=");
    text.lines()
        .find_map(|line| line.strip_prefix(&prefix))
        .and_then(|rest| rest.split(',').next())
        .and_then(|calls| calls.parse().ok())
        .unwrap_or(0)
}

fn main() {
    let port = free_port();
    let mut redis = Command::new("redis-server")
        .args([
            "--port",
            &port.to_string(),
            "--save",
            "",
            "--appendonly",
            "no",
        ])
        .stdout(Stdio::null())
        .spawn()
        .expect("redis-server (Debian's package)");
    std::thread::sleep(Duration::from_millis(300));
    let url = format!("redis://127.0.0.1:{port}");
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let redis_store: Arc<dyn Store> = Arc::new(
        runtime
            .block_on(RedisStore::connect(&url))
            .expect("connect"),
    );
    let memory_addr = serve(&runtime, Arc::new(MemoryStore::new()));
    let redis_addr = serve(&runtime, redis_store.clone());

    let (mut plain, mut memory, mut shared, mut polls) = (vec![], vec![], vec![], vec![]);
    for _ in 0..ROUNDS {
        let (p, t, n) = http_round(&memory_addr);
        plain.push(p);
        memory.push(t);
        polls.push(n);
        let (p, t, _) = http_round(&redis_addr);
        plain.push(p);
        shared.push(t);
    }
    let gets_before = redis_commands(port, "get");
    let (_, _, redis_polls) = http_round(&redis_addr);
    let gets = redis_commands(port, "get") - gets_before;
    println!(
        "S1 task-backed call (tools/call + tasks/get until completed) vs plain, HTTP: \
         plain {:.0} µs, task in memory {:.0} µs ({:.2}×), task in Redis {:.0} µs ({:.2}×); \
         polls per task {:.2} (in Redis {:.2}); Redis GETs per task {:.2} (one per poll, and \
         to settle it one read plus the one inside the replace script)",
        median(plain.clone()),
        median(memory.clone()),
        median(memory) / median(plain.clone()),
        median(shared.clone()),
        median(shared) / median(plain),
        median(polls),
        redis_polls,
        gets as f64 / CALLS as f64,
    );

    let calls = 5_000;
    let (mut local, mut remote) = (vec![], vec![]);
    for _ in 0..ROUNDS {
        local.push(runtime.block_on(limited_calls(
            RateLimit::new(u32::MAX, Duration::from_secs(60)),
            calls,
        )));
        let shared =
            RateLimit::new(u32::MAX, Duration::from_secs(60)).in_store(redis_store.clone());
        remote.push(runtime.block_on(limited_calls(shared, calls)));
    }
    let before = redis_commands(port, "evalsha") + redis_commands(port, "eval");
    let shared = RateLimit::new(u32::MAX, Duration::from_secs(60)).in_store(redis_store.clone());
    runtime.block_on(limited_calls(shared, calls));
    let after = redis_commands(port, "evalsha") + redis_commands(port, "eval");
    println!(
        "S2 rate-limited call, in-process: in memory {:.0} ns, in Redis {:.0} ns ({:.1}×); \
         Redis commands per call {:.2}",
        median(local.clone()),
        median(remote.clone()),
        median(remote) / median(local),
        (after - before) as f64 / calls as f64,
    );
    let _ = redis.kill();
    let _ = redis.wait();
}
