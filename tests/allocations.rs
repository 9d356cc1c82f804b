//! What a middleware costs in allocations: none without one, one boxed future per call with a
//! no-op one, whether a type or an `async fn`. Counted per thread by a counting allocator,
//! with calls polled on this thread.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use mcp_tool_runtime::middleware::{
    CallOutcome, Middleware, Next, ToolRequest, TraceCalls, from_fn,
};
use mcp_tool_runtime::{McpServer, ServerBuilder, ToolError, mcp_tool};
use serde_json::json;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|count| count.set(count.get() + 1));
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        unsafe { System.dealloc(pointer, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Add two numbers.
#[mcp_tool]
async fn add(a: i64, b: i64) -> String {
    (a + b).to_string()
}

/// Passes every call on.
struct Noop;

impl Middleware for Noop {
    async fn handle(
        &self,
        request: ToolRequest<'_>,
        next: Next<'_>,
    ) -> Result<CallOutcome, ToolError> {
        Ok(next.run(request).await)
    }
}

/// Passes every call on, as a function.
async fn pass(request: ToolRequest<'_>, next: Next<'_>) -> Result<CallOutcome, ToolError> {
    Ok(next.run(request).await)
}

/// Polls a future that never waits, on this thread.
fn now<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("the call waited"),
    }
}

/// A server of `add` alone, for middleware to be added to.
fn add_server() -> ServerBuilder<()> {
    McpServer::builder(()).tool(add_tool())
}

/// Allocations of one valid call of `add` on `server`, arguments built beforehand.
fn allocations_per_call(server: &McpServer<()>) -> usize {
    let arguments = Some(json!({"a": 1, "b": 2}));
    // Warm lazies (schemas, validators) first.
    assert_eq!(
        now(server.call("add", arguments.clone())).map(|r| r.is_error),
        Ok(Some(false))
    );
    let arguments = arguments.clone();
    let before = ALLOCATIONS.with(Cell::get);
    let result = now(server.call("add", arguments));
    let after = ALLOCATIONS.with(Cell::get);
    assert_eq!(result.map(|r| r.is_error), Ok(Some(false)));
    after - before
}

#[test]
fn a_no_op_middleware_costs_one_allocation_per_call() {
    let plain = add_server().build().expect("builds");
    let with_noop = add_server().middleware(Noop).build().expect("builds");
    // No subscriber: the span is disabled, and the tracing middleware costs its box alone.
    let traced = add_server()
        .middleware(TraceCalls::new())
        .build()
        .expect("builds");
    let base = allocations_per_call(&plain);
    // As many as before middleware existed (3, measured on c5cde23): registering none must
    // leave the call path as it was. A change here is a change of the hot path (P1).
    assert_eq!(base, 3);
    assert_eq!(allocations_per_call(&with_noop), base + 1);
    assert_eq!(allocations_per_call(&traced), base + 1);
    let function = add_server()
        .middleware(from_fn(pass))
        .build()
        .expect("builds");
    assert_eq!(allocations_per_call(&function), base + 1);
    let two = add_server()
        .middleware(Noop)
        .middleware(Noop)
        .build()
        .expect("builds");
    assert_eq!(allocations_per_call(&two), base + 2);
}

#[test]
fn an_enabled_trace_span_costs_no_allocation_beyond_the_subscribers() {
    let plain = add_server().build().expect("builds");
    let traced = add_server()
        .middleware(TraceCalls::new())
        .build()
        .expect("builds");
    let base = allocations_per_call(&plain);
    // The registry enables the span and keeps it in a slab it reuses: the middleware's box
    // is the one allocation left. Its name ("tools/call add") is put together on the stack.
    let traced_calls = tracing::subscriber::with_default(tracing_subscriber::registry(), || {
        allocations_per_call(&traced)
    });
    assert_eq!(traced_calls, base + 1);
}
