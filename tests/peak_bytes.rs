//! Item 12 of the reliability issue, in process: what a call's arguments cost at their
//! peak, from the message's text to the answer, counted by an allocator that tracks the
//! bytes live in the whole process (the checks of a large input run on other threads).
//! One test per binary keeps other tests' allocations out of the count.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_tool_runtime::{McpServer, ToolDef, ToolError, mcp_tool};
use mcp_tool_test_support::assert_peak_within_bound;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use validator::Validate;

struct Tracking;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Tracking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(pointer, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Tracking = Tracking;

/// One line of an order.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
struct Line {
    /// Catalog code.
    #[validate(length(min = 3, max = 12))]
    sku: String,
    /// How many.
    #[validate(range(min = 1, max = 99))]
    qty: u32,
}

/// A rule only `validator` checks, which no line of the test below holds.
fn known_sku(_: &str) -> Result<(), validator::ValidationError> {
    Err(validator::ValidationError::new("unknown_sku"))
}

/// One line of an order, whose code is checked by a custom rule.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
struct CheckedLine {
    /// Catalog code.
    #[validate(custom(function = known_sku))]
    sku: String,
}

/// Check order lines against the catalog.
#[mcp_tool]
fn check_catalog(#[validate(nested)] lines: Vec<CheckedLine>) -> String {
    format!("{} lines", lines.len())
}

/// An order, as a user's own input type.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
struct CatalogOrder {
    /// Its lines.
    #[validate(nested)]
    lines: Vec<CheckedLine>,
}

/// Check an order against the catalog.
#[mcp_tool]
fn check_order(#[arg(input)] order: CatalogOrder) -> String {
    format!("{} lines", order.lines.len())
}

/// Check a shipment's order against the catalog: the lines a level further down.
#[mcp_tool]
fn check_shipment(#[validate(nested)] order: CatalogOrder) -> String {
    format!("{} lines", order.lines.len())
}

/// Check order lines.
#[mcp_tool]
fn check_lines(#[validate(nested)] lines: Vec<Line>) -> String {
    format!("{} lines", lines.len())
}

/// Tag some items.
#[mcp_tool]
fn tag_items(tags: Vec<String>) -> String {
    format!("{} tags", tags.len())
}

/// The bytes the call of `tool` with `arguments` took at its peak, from reading its text.
async fn peak_of_call(server: &McpServer<()>, tool: &str, message: &str) -> (u64, bool) {
    PEAK.store(LIVE.load(Ordering::Relaxed), Ordering::Relaxed);
    let before = LIVE.load(Ordering::Relaxed);
    let arguments: Value = serde_json::from_str(message).expect("arguments");
    let result = server.call(tool, Some(arguments)).await.expect("a result");
    let is_error = result.is_error == Some(true);
    drop(result);
    ((PEAK.load(Ordering::Relaxed) - before) as u64, is_error)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_peaks_within_twenty_times_its_message_plus_a_constant() {
    let schema = json!({
        "type": "object",
        "properties": {"tags": {"type": "array", "items": {"type": "string"}}},
        "required": ["tags"],
    });
    let count_tags = ToolDef::from_schema(
        "count_tags",
        "Count tags.",
        schema,
        |arguments: Value, _| async move {
            Ok::<_, ToolError>(arguments["tags"].as_array().map_or(0, Vec::len).to_string())
        },
    )
    .expect("a run-time tool");
    let server = McpServer::builder(())
        .tool(check_lines_tool())
        .tool(check_catalog_tool())
        .tool(check_order_tool())
        .tool(check_shipment_tool())
        .tool(tag_items_tool())
        .tool(count_tags)
        .build()
        .expect("server");
    let lines = |qty: u32| json!({"lines": vec![json!({"sku": "ABC-0001", "qty": qty}); 60_000]});
    let with_unknown = |mut arguments: Value| {
        arguments["note"] = json!("rush");
        arguments
    };
    let cases = [
        // Every line breaks a `validator` rule (a range the schema states too).
        ("check_lines", "60k lines out of range", lines(0), true),
        ("check_lines", "60k valid lines", lines(1), false),
        (
            "check_lines",
            "60k lines out of range and an unknown argument",
            with_unknown(lines(0)),
            true,
        ),
        // Every line breaks a rule the schema cannot state: `validator` would keep every
        // line's errors, about 1.6 KB each (97.9 MB, 86× its message), were the lines not
        // checked a part at a time.
        (
            "check_catalog",
            "60k lines failing a custom rule",
            json!({"lines": vec![json!({"sku": "ABC-0001"}); 60_000]}),
            true,
        ),
        (
            "check_order",
            "60k lines failing a custom rule, in an input type",
            json!({"lines": vec![json!({"sku": "ABC-0001"}); 60_000]}),
            true,
        ),
        (
            "check_shipment",
            "60k lines failing a custom rule, in a field of an argument",
            json!({"order": {"lines": vec![json!({"sku": "ABC-0001"}); 60_000]}}),
            true,
        ),
        (
            "tag_items",
            "100k tags of the wrong type",
            json!({"tags": vec![0; 100_000]}),
            true,
        ),
        (
            "tag_items",
            "100k one-letter tags",
            json!({"tags": vec!["a"; 100_000]}),
            false,
        ),
        (
            "count_tags",
            "100k one-letter tags, a run-time tool",
            json!({"tags": vec!["a"; 100_000]}),
            false,
        ),
        (
            "count_tags",
            "100k tags of the wrong type, a run-time tool",
            json!({"tags": vec![0; 100_000]}),
            true,
        ),
    ];
    let mut report = Vec::new();
    for (tool, name, arguments, refused) in cases {
        let message = arguments.to_string();
        drop(arguments);
        let (peak, is_error) = peak_of_call(&server, tool, &message).await;
        assert_eq!(is_error, refused, "{name}");
        assert_peak_within_bound(&mut report, name, peak, message.len());
    }
    eprintln!("{report:#?}");
}
