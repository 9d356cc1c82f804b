//! The in-process goals (P1–P4): what each side runs, and a sampler that takes the ratio of
//! medians with both sides interleaved, so that a noisy neighbour disturbs both alike.

use std::hint::black_box;
use std::time::Duration;

use mcp_tool_runtime::McpServer;
use mcp_tool_runtime::rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, JsonObject, ListToolsResult,
    NumberOrString,
};
use mcp_tool_runtime::rmcp::service::{RequestContext, RunningService};
use mcp_tool_runtime::rmcp::{RoleServer, ServerHandler};
use serde_json::Value;

use crate::rmcp_tool::{RmcpQuickStartServer, RmcpServer};
use mcp_tool_runtime::middleware::TraceCalls;

use crate::{
    Noop, calibrate, handwritten, invalid_arguments, invalid_constraints, many, now, ours,
};

/// Everything the in-process benchmarks share, built once.
pub struct Fixtures {
    /// A runtime, entered while measuring, for anything in the call path that needs one.
    pub runtime: tokio::runtime::Runtime,
    ours: McpServer<()>,
    ours_noop: McpServer<()>,
    ours_traced: McpServer<()>,
    rmcp: RmcpServer,
    rmcp_quick_start: RmcpQuickStartServer,
    many: McpServer<()>,
    many_noop: McpServer<()>,
    context: RequestContext<RoleServer>,
    valid: Value,
    invalid: Value,
    invalid_constraints: Value,
    request: CallToolRequestParams,
    prebuilt_list: ListToolsResult,
    // Keeps the peer of `context` alive.
    _peer: RunningService<RoleServer, RmcpServer>,
    _transport: tokio::io::DuplexStream,
}

impl Fixtures {
    /// Builds the servers, the arguments and a real rmcp request context.
    pub fn new() -> Self {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a tokio runtime");
        // A request context needs a peer, which only a running service has: serve a dummy
        // service over an in-memory pipe that nobody writes to.
        let (peer, transport) = {
            let _entered = runtime.enter();
            let (server_end, client_end) = tokio::io::duplex(4096);
            let running = mcp_tool_runtime::rmcp::service::serve_directly(
                RmcpServer::default(),
                server_end,
                None,
            );
            (running, client_end)
        };
        let context = RequestContext::new(NumberOrString::Number(1), peer.peer().clone());
        let valid = crate::valid_arguments();
        let arguments: JsonObject = match &valid {
            Value::Object(map) => map.clone(),
            _ => unreachable!("valid arguments are an object"),
        };
        let many = many::server();
        let prebuilt_list = ListToolsResult::with_all_items(many.registry().list().to_vec());
        Self {
            ours: ours::server(),
            ours_noop: ours::server_with(Noop),
            ours_traced: ours::server_with(TraceCalls::new()),
            many_noop: many::server_with_noop(),
            rmcp: RmcpServer::default(),
            rmcp_quick_start: RmcpQuickStartServer,
            many,
            context,
            valid,
            invalid: invalid_arguments(),
            invalid_constraints: invalid_constraints(),
            request: CallToolRequestParams::new("add_item").with_arguments(arguments),
            prebuilt_list,
            _peer: peer,
            _transport: transport,
            runtime,
        }
    }

    /// P1, ours: a valid call through our registry.
    pub fn ours_valid(&self) -> CallToolResult {
        now(self.ours.call("add_item", Some(self.valid.clone()))).expect("add_item exists")
    }

    /// P1m: the P1 call on a server with one no-op middleware.
    pub fn ours_valid_noop_middleware(&self) -> CallToolResult {
        now(self.ours_noop.call("add_item", Some(self.valid.clone()))).expect("add_item exists")
    }

    /// P1t: the P1 call on a server with the tracing middleware (measured under a
    /// subscriber that enables its span, `tracing_subscriber::registry()`).
    pub fn ours_valid_traced(&self) -> CallToolResult {
        now(self.ours_traced.call("add_item", Some(self.valid.clone()))).expect("add_item exists")
    }

    /// P1s: the same valid call of `add_item` written as a sync function, which runs on a
    /// thread of its own (so it needs a real executor).
    pub fn ours_sync_valid(&self) -> CallToolResult {
        self.runtime
            .block_on(self.ours.call("add_item_sync", Some(self.valid.clone())))
            .expect("add_item_sync exists")
    }

    /// P1, hand-written: the same call with `from_value`, `validate()` and `to_value`.
    pub fn handwritten_valid(&self) -> CallToolResult {
        handwritten::call(self.valid.clone())
    }

    /// P2, ours: a valid call through our `ServerHandler::call_tool`.
    pub fn ours_handler(&self) -> CallToolResponse {
        now(ServerHandler::call_tool(
            &self.ours,
            self.request.clone(),
            self.context.clone(),
        ))
        .expect("add_item succeeds")
    }

    /// P2, rmcp: the same call through rmcp's `#[tool_handler]` and `ToolRouter`.
    pub fn rmcp_handler(&self) -> CallToolResponse {
        now(ServerHandler::call_tool(
            &self.rmcp,
            self.request.clone(),
            self.context.clone(),
        ))
        .expect("add_item succeeds")
    }

    /// P2b, rmcp as its quick start writes it: the router is built on every call.
    pub fn rmcp_quick_start_handler(&self) -> CallToolResponse {
        now(ServerHandler::call_tool(
            &self.rmcp_quick_start,
            self.request.clone(),
            self.context.clone(),
        ))
        .expect("add_item succeeds")
    }

    /// P3: a call with three violations (type, pattern, unknown key), full message and
    /// envelope.
    pub fn ours_invalid(&self) -> CallToolResult {
        now(self.ours.call("add_item", Some(self.invalid.clone()))).expect("add_item exists")
    }

    /// P3, second form: three violations that only `validator` finds.
    pub fn ours_invalid_constraints(&self) -> CallToolResult {
        now(self
            .ours
            .call("add_item", Some(self.invalid_constraints.clone())))
        .expect("add_item exists")
    }

    /// P4, ours: `tools/list` of 200 tools through the handler, serialized.
    pub fn list_200(&self) -> Vec<u8> {
        let list = now(ServerHandler::list_tools(
            &self.many,
            None,
            self.context.clone(),
        ))
        .expect("list_tools succeeds");
        serde_json::to_vec(&list).expect("a tool list serializes")
    }

    /// P4m: the P4 list on a server with one no-op middleware (which `tools/list` never
    /// reaches: this checks that registering one costs the list nothing).
    pub fn list_200_noop_middleware(&self) -> Vec<u8> {
        let list = now(ServerHandler::list_tools(
            &self.many_noop,
            None,
            self.context.clone(),
        ))
        .expect("list_tools succeeds");
        serde_json::to_vec(&list).expect("a tool list serializes")
    }

    /// P4, baseline: serializing the same 200 definitions, already built.
    pub fn serialize_200(&self) -> Vec<u8> {
        serde_json::to_vec(&self.prebuilt_list).expect("a tool list serializes")
    }
}

impl Default for Fixtures {
    fn default() -> Self {
        Self::new()
    }
}

/// The medians of two functions, in nanoseconds per call, and their ratio.
#[derive(Clone, Copy, Debug)]
pub struct Comparison {
    /// Median of the measured side.
    pub ours_ns: f64,
    /// Median of the baseline.
    pub baseline_ns: f64,
}

impl Comparison {
    /// `ours / baseline`.
    pub fn ratio(&self) -> f64 {
        self.ours_ns / self.baseline_ns
    }
}

/// Runs `ours` and `baseline` in alternating batches of about `batch` each, `samples` times,
/// and compares the medians.
pub fn compare<A, B>(samples: usize, batch: Duration, mut ours: A, mut baseline: B) -> Comparison
where
    A: FnMut(),
    B: FnMut(),
{
    // Warm caches, lazies and the allocator before calibrating.
    for _ in 0..1000 {
        ours();
        baseline();
    }
    let ours_iterations = calibrate(batch, &mut ours);
    let baseline_iterations = calibrate(batch, &mut baseline);
    let mut ours_ns = Vec::with_capacity(samples);
    let mut baseline_ns = Vec::with_capacity(samples);
    for sample in 0..samples {
        // Alternate which side goes first, so that neither always follows the other.
        if sample.is_multiple_of(2) {
            ours_ns.push(crate::per_call_ns(ours_iterations, &mut ours));
            baseline_ns.push(crate::per_call_ns(baseline_iterations, &mut baseline));
        } else {
            baseline_ns.push(crate::per_call_ns(baseline_iterations, &mut baseline));
            ours_ns.push(crate::per_call_ns(ours_iterations, &mut ours));
        }
    }
    Comparison {
        ours_ns: median(&mut ours_ns),
        baseline_ns: median(&mut baseline_ns),
    }
}

/// The median of some samples.
pub fn median(samples: &mut [f64]) -> f64 {
    samples.sort_by(f64::total_cmp);
    let middle = samples.len() / 2;
    if samples.len().is_multiple_of(2) {
        (samples[middle - 1] + samples[middle]) / 2.0
    } else {
        samples[middle]
    }
}

/// The in-process goals, each as (id, name, comparison).
pub fn in_process(
    samples: usize,
    batch: Duration,
) -> Vec<(&'static str, &'static str, Comparison)> {
    let fixtures = Fixtures::new();
    let _entered = fixtures.runtime.enter();
    let f = &fixtures;
    vec![
        (
            "P1",
            "dispatch_vs_handwritten",
            compare(
                samples,
                batch,
                || drop(black_box(f.ours_valid())),
                || drop(black_box(f.handwritten_valid())),
            ),
        ),
        (
            "P1m",
            "noop_middleware_dispatch_vs_handwritten",
            compare(
                samples,
                batch,
                || drop(black_box(f.ours_valid_noop_middleware())),
                || drop(black_box(f.handwritten_valid())),
            ),
        ),
        (
            "P1t",
            "traced_dispatch_vs_plain_dispatch",
            tracing::subscriber::with_default(tracing_subscriber::registry(), || {
                compare(
                    samples,
                    batch,
                    || drop(black_box(f.ours_valid_traced())),
                    || drop(black_box(f.ours_valid())),
                )
            }),
        ),
        (
            "P1s",
            "sync_tool_vs_async_tool",
            compare(
                samples,
                batch,
                || drop(black_box(f.ours_sync_valid())),
                || drop(black_box(f.ours_valid())),
            ),
        ),
        (
            "P2",
            "dispatch_vs_rmcp",
            compare(
                samples,
                batch,
                || drop(black_box(f.ours_handler())),
                || drop(black_box(f.rmcp_handler())),
            ),
        ),
        (
            "P2b",
            "dispatch_vs_rmcp_quick_start",
            compare(
                samples,
                batch,
                || drop(black_box(f.ours_handler())),
                || drop(black_box(f.rmcp_quick_start_handler())),
            ),
        ),
        (
            "P3",
            "invalid_vs_valid",
            compare(
                samples,
                batch,
                || drop(black_box(f.ours_invalid())),
                || drop(black_box(f.ours_valid())),
            ),
        ),
        (
            "P3b",
            "invalid_constraints_vs_valid",
            compare(
                samples,
                batch,
                || drop(black_box(f.ours_invalid_constraints())),
                || drop(black_box(f.ours_valid())),
            ),
        ),
        (
            "P4",
            "list_vs_serialize",
            compare(
                samples,
                batch,
                || drop(black_box(f.list_200())),
                || drop(black_box(f.serialize_200())),
            ),
        ),
        (
            "P4m",
            "noop_middleware_list_vs_serialize",
            compare(
                samples,
                batch,
                || drop(black_box(f.list_200_noop_middleware())),
                || drop(black_box(f.serialize_200())),
            ),
        ),
    ]
}
