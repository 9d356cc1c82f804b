//! Three instances of an example behind a real load balancer (Debian's nginx, round robin),
//! sharing a real Redis (Debian's redis-server, started here on a free port), driven by a
//! 2026-07-28 client over HTTP: tasks started, polled, answered and cancelled through
//! different instances; an instance killed while tasks run on the others; the inventory's
//! rate limit held across instances; multi-round-trip rounds answered by different
//! instances; Redis stopped and restarted while calls run.
//!
//! nginx adds `X-Upstream` (the instance that answered) to each response, so that every
//! "another instance" below is checked, not assumed. The tests skip (with a line on
//! stderr) where redis-server or nginx is not installed; CI installs both (`.ci/run`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use mcp_tool_test_support::http::{Stateless, free_port};
use serde_json::{Value, json};

const CONFORMANCE: &str = env!("CARGO_BIN_EXE_conformance");
const INVENTORY: &str = env!("CARGO_BIN_EXE_inventory");
const KEY_HEX: &str = "8f0c2a61d35e4b7a9c1e0f2d3b4a5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d";
const TASKS: &str = "io.modelcontextprotocol/tasks";

/// One cluster at a time: each runs five processes, and the machine may have two cores.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// A child process killed on drop.
struct Process {
    child: Child,
    log: PathBuf,
}

impl Process {
    fn start(command: &mut Command, log: PathBuf) -> Self {
        let file = fs::File::create(&log).expect("create the log");
        let err = file.try_clone().expect("clone the log");
        let child = command
            .stdin(Stdio::null())
            .stdout(file)
            .stderr(err)
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start {command:?}: {error}"));
        Self { child, log }
    }

    fn log(&self) -> String {
        fs::read_to_string(&self.log).unwrap_or_default()
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

fn wait_listening(addr: &str, process: &mut Process) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(addr).is_err() {
        assert!(
            process.child.try_wait().ok().flatten().is_none(),
            "exited: {}",
            process.log()
        );
        assert!(
            Instant::now() < deadline,
            "{addr} not listening: {}",
            process.log()
        );
        thread::sleep(Duration::from_millis(20));
    }
}

fn installed(program: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!(
            "command -v {program} || test -x /usr/sbin/{program}"
        ))
        .output()
        .is_ok_and(|output| output.status.success())
}

fn nginx_program() -> &'static str {
    if Path::new("/usr/sbin/nginx").exists() {
        "/usr/sbin/nginx"
    } else {
        "nginx"
    }
}

/// Redis, three instances of `program` and nginx in front of them.
struct Cluster {
    dir: PathBuf,
    redis_port: u16,
    redis: Option<Process>,
    instances: Vec<(String, Process)>,
    nginx: Process,
    front: String,
    next_id: u64,
}

impl Drop for Cluster {
    /// Stops every process and removes the cluster's folder, unless the test failed: then
    /// the logs stay for whoever reads its report.
    fn drop(&mut self) {
        if thread::panicking() {
            eprintln!("the cluster's logs are in {}", self.dir.display());
            return;
        }
        self.nginx.kill();
        for (_, instance) in &mut self.instances {
            instance.kill();
        }
        self.stop_redis();
        let _ = fs::remove_dir_all(&self.dir);
    }
}

impl Cluster {
    /// `None` (the test then skips) without redis-server or nginx.
    fn start(program: &str, args: &[&str]) -> Option<Self> {
        if !installed("redis-server") || !installed("nginx") {
            eprintln!("skipped: redis-server or nginx is not installed (see .ci/run)");
            return None;
        }
        let dir = std::env::temp_dir().join(format!("mcp-cluster-{}", free_port()));
        fs::create_dir_all(&dir).expect("create the cluster's folder");
        let redis_port = free_port();
        let redis = start_redis(&dir, redis_port);
        let url = format!("redis://127.0.0.1:{redis_port}");
        let instances: Vec<(String, Process)> = (0..3)
            .map(|n| {
                let addr = format!("127.0.0.1:{}", free_port());
                let mut command = Command::new(program);
                command
                    .args([
                        "--http",
                        &addr,
                        "--redis",
                        &url,
                        "--request-state-key",
                        KEY_HEX,
                    ])
                    .args(args)
                    .env("RUST_LOG", "warn");
                let mut process =
                    Process::start(&mut command, dir.join(format!("instance-{n}.log")));
                wait_listening(&addr, &mut process);
                (addr, process)
            })
            .collect();
        let front = format!("127.0.0.1:{}", free_port());
        let nginx = start_nginx(
            &dir,
            &front,
            instances.iter().map(|(addr, _)| addr.as_str()),
        );
        Some(Self {
            dir,
            redis_port,
            redis: Some(redis),
            instances,
            nginx,
            front,
            next_id: 0,
        })
    }

    /// POSTs a 2026-07-28 request through nginx: the JSON-RPC answer and the instance that
    /// gave it.
    fn call(&mut self, method: &str, params: Value) -> (Value, String) {
        self.next_id += 1;
        call_through(&self.front, self.next_id, method, params)
    }

    fn call_tool(&mut self, name: &str, arguments: Value) -> (Value, String) {
        self.call("tools/call", json!({"name": name, "arguments": arguments}))
    }

    /// Polls `tasks/get` until the task reaches `status` (or ends): the task, and every
    /// instance that answered a poll.
    fn poll_until(&mut self, id: &str, status: &str) -> (Value, Vec<String>) {
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut seen = Vec::new();
        loop {
            let (answer, upstream) = self.call("tasks/get", json!({"taskId": id}));
            seen.push(upstream);
            let task = answer["result"].clone();
            let now = task["status"].as_str().unwrap_or_default().to_string();
            let ended = ["completed", "failed", "cancelled"].contains(&now.as_str());
            if now == status || ended {
                return (task, seen);
            }
            assert!(Instant::now() < deadline, "task {id} stuck: {answer}");
            thread::sleep(Duration::from_millis(100));
        }
    }

    fn log_of(&self, upstream: &str) -> String {
        self.instances
            .iter()
            .find(|(addr, _)| addr == upstream)
            .map(|(_, process)| process.log())
            .unwrap_or_default()
    }

    fn stop_redis(&mut self) {
        if let Some(mut redis) = self.redis.take() {
            redis.kill();
        }
    }

    fn restart_redis(&mut self) {
        self.redis = Some(start_redis(&self.dir, self.redis_port));
    }
}

/// POSTs request `id` through the balancer at `front`, as a 2026-07-28 client that declared
/// elicitation and the tasks extension: the JSON-RPC answer and the instance that gave it.
fn call_through(front: &str, id: u64, method: &str, params: Value) -> (Value, String) {
    let capabilities = json!({"elicitation": {}, "extensions": {TASKS: {}}});
    let (answer, reply) = Stateless::new(id, method, params, capabilities).post(front, id);
    let upstream = reply.header("x-upstream").unwrap_or_default().to_string();
    (answer, upstream)
}

fn start_redis(dir: &Path, port: u16) -> Process {
    let mut command = Command::new("redis-server");
    command
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
        .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
        .arg("--dir")
        .arg(dir);
    let mut redis = Process::start(&mut command, dir.join(format!("redis-{}.log", free_port())));
    wait_listening(&format!("127.0.0.1:{port}"), &mut redis);
    redis
}

fn start_nginx<'a>(dir: &Path, front: &str, upstreams: impl Iterator<Item = &'a str>) -> Process {
    let servers: String = upstreams
        .map(|addr| format!("    server {addr} max_fails=1 fail_timeout=30s;\n"))
        .collect();
    let d = dir.display();
    let config = format!(
        "daemon off;\nmaster_process off;\nworker_processes 1;\npid {d}/nginx.pid;\n\
         error_log {d}/nginx-error.log warn;\nevents {{ worker_connections 512; }}\n\
         http {{\n  access_log off;\n  client_body_temp_path {d}/body;\n  proxy_temp_path {d}/proxy;\n\
         fastcgi_temp_path {d}/fastcgi;\n  uwsgi_temp_path {d}/uwsgi;\n  scgi_temp_path {d}/scgi;\n\
         upstream mcp {{\n{servers}  }}\n  server {{\n    listen {front};\n    location / {{\n\
         proxy_pass http://mcp;\n      proxy_http_version 1.1;\n      proxy_buffering off;\n\
         proxy_set_header Host $http_host;\n      proxy_read_timeout 30s;\n\
         add_header X-Upstream $upstream_addr always;\n    }}\n  }}\n}}\n"
    );
    let path = dir.join("nginx.conf");
    fs::write(&path, config).expect("write nginx.conf");
    let mut command = Command::new(nginx_program());
    command.arg("-p").arg(dir).arg("-c").arg(&path);
    let mut nginx = Process::start(&mut command, dir.join("nginx.log"));
    wait_listening(front, &mut nginx);
    nginx
}

fn text_of(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn lock() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner)
}

#[test]
fn tasks_are_polled_answered_and_cancelled_through_other_instances() {
    let _turn = lock();
    let Some(mut cluster) = Cluster::start(CONFORMANCE, &[]) else {
        return;
    };
    // Started on one instance, polled through the others, finished with its result.
    let (created, home) =
        cluster.call_tool("slow_compute", json!({"seconds": 1.5, "label": "e2e"}));
    let id = created["result"]["taskId"]
        .as_str()
        .expect("a task")
        .to_string();
    let (task, pollers) = cluster.poll_until(&id, "completed");
    assert_eq!(task["status"], "completed", "{task}");
    assert_eq!(text_of(&task["result"]), "e2e: done after 1.5 s");
    assert!(pollers.iter().any(|p| *p != home), "{home} {pollers:?}");

    // A question parked on one instance, answered through another.
    let (created, home) = cluster.call_tool("confirm_delete", json!({"filename": "a.txt"}));
    let id = created["result"]["taskId"]
        .as_str()
        .expect("a task")
        .to_string();
    let (task, _) = cluster.poll_until(&id, "input_required");
    let key = task["inputRequests"]
        .as_object()
        .and_then(|m| m.keys().next().cloned());
    let key = key.expect("an open question");
    let responses = json!({key: {"action": "accept", "content": {"confirm": true}}});
    let (ack, answerer) = cluster.call(
        "tasks/update",
        json!({"taskId": id, "inputResponses": responses}),
    );
    assert_eq!(ack["result"], json!({"resultType": "complete"}), "{ack}");
    let (task, _) = cluster.poll_until(&id, "completed");
    assert_eq!(text_of(&task["result"]), "Deleted a.txt.");
    assert_ne!(answerer, "");
    let _ = home;

    // Cancelled through another instance: the running one sees it and its tool stops.
    let (created, home) =
        cluster.call_tool("slow_compute", json!({"seconds": 60, "label": "long"}));
    let id = created["result"]["taskId"]
        .as_str()
        .expect("a task")
        .to_string();
    let (ack, canceller) = cluster.call("tasks/cancel", json!({"taskId": id}));
    assert_ne!(canceller, home, "round robin sends the cancel elsewhere");
    assert_eq!(ack["result"], json!({"resultType": "complete"}), "{ack}");
    let (task, _) = cluster.poll_until(&id, "cancelled");
    assert_eq!(task["status"], "cancelled");
    let deadline = Instant::now() + Duration::from_secs(3);
    while !cluster.log_of(&home).contains("code=\"cancelled\"") {
        assert!(
            Instant::now() < deadline,
            "the tool on {home} never saw the cancel:\n{}",
            cluster.log_of(&home)
        );
        thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn finished_results_outlive_a_killed_instance_and_rounds_cross_instances() {
    let _turn = lock();
    let Some(mut cluster) = Cluster::start(CONFORMANCE, &[]) else {
        return;
    };
    let (created, home) =
        cluster.call_tool("slow_compute", json!({"seconds": 0.2, "label": "kept"}));
    let finished = created["result"]["taskId"]
        .as_str()
        .expect("a task")
        .to_string();
    cluster.poll_until(&finished, "completed");
    // Another task runs on another instance while the first one's instance dies.
    let (created, runner) =
        cluster.call_tool("slow_compute", json!({"seconds": 2, "label": "elsewhere"}));
    let running = created["result"]["taskId"]
        .as_str()
        .expect("a task")
        .to_string();
    let runner = if runner == home {
        let (created, other) =
            cluster.call_tool("slow_compute", json!({"seconds": 2, "label": "elsewhere"}));
        assert_ne!(other, home);
        let _ = running;
        (
            created["result"]["taskId"]
                .as_str()
                .expect("a task")
                .to_string(),
            other,
        )
    } else {
        (running, runner)
    };
    let index = cluster
        .instances
        .iter()
        .position(|(addr, _)| *addr == home)
        .expect("home");
    cluster.instances[index].1.kill();
    let (task, _) = cluster.poll_until(&finished, "completed");
    assert_eq!(text_of(&task["result"]), "kept: done after 0.2 s", "{task}");
    let (task, _) = cluster.poll_until(&runner.0, "completed");
    assert_eq!(
        text_of(&task["result"]),
        "elsewhere: done after 2 s",
        "{task}"
    );

    // Multi-round-trip: round 1 on one instance, round 2 (with its sealed state) on another.
    let (round1, first) = cluster.call_tool("test_tool_with_task", json!({}));
    let round1 = &round1["result"];
    assert_eq!(round1["resultType"], "input_required", "{round1}");
    let mut params = json!({
        "name": "test_tool_with_task",
        "arguments": {},
        "inputResponses": {"user_name": {"action": "accept", "content": {"name": "Alice"}}},
    });
    params["requestState"] = round1["requestState"].clone();
    let (round2, second) = cluster.call("tools/call", params);
    assert_ne!(first, second);
    let id = round2["result"]["taskId"]
        .as_str()
        .expect("round 2 makes a task")
        .to_string();
    let (task, _) = cluster.poll_until(&id, "completed");
    assert_eq!(text_of(&task["result"]), "Hello, Alice, from a task!");
}

#[test]
fn the_rate_limit_holds_across_instances() {
    let _turn = lock();
    let Some(mut cluster) = Cluster::start(INVENTORY, &["--stateless"]) else {
        return;
    };
    let mut instances = Vec::new();
    for _ in 0..5 {
        let (answer, upstream) =
            cluster.call_tool("reserve_stock", json!({"sku": "ABC-0001", "quantity": 1}));
        assert_eq!(answer["result"]["isError"], false, "{answer}");
        instances.push(upstream);
    }
    instances.sort();
    instances.dedup();
    assert_eq!(
        instances.len(),
        3,
        "round robin spreads the calls: {instances:?}"
    );
    let (answer, _) = cluster.call_tool("reserve_stock", json!({"sku": "ABC-0001", "quantity": 1}));
    let result = &answer["result"];
    assert_eq!(result["isError"], true, "{answer}");
    let envelope = &result["_meta"]["rs.mcp-tool/error"];
    assert_eq!(envelope["code"], "rate_limited", "{answer}");
    assert!(
        envelope["retryAfter"].as_u64().is_some_and(|s| s >= 1),
        "{answer}"
    );
}

#[test]
fn calls_are_answered_while_redis_restarts_and_tasks_work_after() {
    let _turn = lock();
    let Some(mut cluster) = Cluster::start(CONFORMANCE, &[]) else {
        return;
    };
    let (created, _) = cluster.call_tool("slow_compute", json!({"seconds": 0, "label": "before"}));
    assert!(created["result"]["taskId"].is_string(), "{created}");
    // A client keeps calling while Redis goes away and comes back.
    let front = cluster.front.clone();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let caller = {
        let stop = std::sync::Arc::clone(&stop);
        thread::spawn(move || {
            let mut answers = Vec::new();
            let mut id = 1_000;
            while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                id += 1;
                let started = Instant::now();
                let arguments =
                    json!({"name": "slow_compute", "arguments": {"seconds": 0, "label": "during"}});
                let (answer, _) = call_through(&front, id, "tools/call", arguments);
                answers.push((answer, started.elapsed()));
                thread::sleep(Duration::from_millis(50));
            }
            answers
        })
    };
    thread::sleep(Duration::from_millis(300));
    cluster.stop_redis();
    thread::sleep(Duration::from_millis(1500));
    let (poll, _) = cluster.call("tasks/get", json!({"taskId": "whatever"}));
    assert_eq!(poll["error"]["data"]["retryable"], true, "{poll}");
    assert!(
        poll["error"]["data"]["retryAfter"].as_u64().is_some(),
        "{poll}"
    );
    // Plain tools do not need the store.
    let (greeting, _) = cluster.call_tool("greet", json!({"name": "Ada"}));
    assert_eq!(text_of(&greeting["result"]), "Hello, Ada!");
    cluster.restart_redis();
    thread::sleep(Duration::from_millis(1500));
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let answers = caller.join().expect("the caller");
    let (mut tasks, mut refused) = (0, 0);
    for (answer, took) in &answers {
        assert!(*took < Duration::from_secs(5), "{answer} took {took:?}");
        let result = &answer["result"];
        if result["taskId"].is_string() {
            tasks += 1;
            continue;
        }
        // Otherwise a retryable `unavailable` error saying when to retry.
        let envelope = &result["_meta"]["rs.mcp-tool/error"];
        assert_eq!(result["isError"], true, "{answer}");
        assert_eq!(envelope["code"], "unavailable", "{answer}");
        assert_eq!(envelope["retryable"], true, "{answer}");
        assert!(envelope["retryAfter"].as_u64().is_some(), "{answer}");
        refused += 1;
    }
    assert!(tasks > 0 && refused > 0, "{tasks} tasks, {refused} refused");
    let deadline = Instant::now() + Duration::from_secs(20);
    let id = loop {
        let (created, _) =
            cluster.call_tool("slow_compute", json!({"seconds": 0.1, "label": "after"}));
        if let Some(id) = created["result"]["taskId"].as_str() {
            break id.to_string();
        }
        assert!(
            Instant::now() < deadline,
            "no task after the restart: {created}"
        );
        thread::sleep(Duration::from_millis(200));
    };
    let (task, _) = cluster.poll_until(&id, "completed");
    assert_eq!(
        text_of(&task["result"]),
        "after: done after 0.1 s",
        "{task}"
    );
}
