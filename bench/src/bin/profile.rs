//! Runs one benchmarked call in a loop, for a profiler:
//!
//! ```text
//! valgrind --tool=callgrind target/release/profile ours_invalid 2000
//! ```
//!
//! Calls: ours_valid, ours_valid_traced (P1t, under `tracing_subscriber::registry()`),
//! handwritten_valid, ours_handler, rmcp_handler, rmcp_quick_start_handler, ours_invalid,
//! ours_invalid_constraints, list_200, serialize_200.

use std::hint::black_box;

use mcp_tool_bench::measure::Fixtures;

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "ours_valid".into());
    let count: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(10_000);
    let fixtures = Fixtures::new();
    let _entered = fixtures.runtime.enter();
    let f = &fixtures;
    let call: Box<dyn Fn()> = match name.as_str() {
        "ours_valid" => Box::new(|| drop(black_box(f.ours_valid()))),
        "ours_valid_traced" => {
            tracing::subscriber::set_global_default(tracing_subscriber::registry())
                .expect("no other subscriber");
            Box::new(|| drop(black_box(f.ours_valid_traced())))
        }
        "handwritten_valid" => Box::new(|| drop(black_box(f.handwritten_valid()))),
        "ours_handler" => Box::new(|| drop(black_box(f.ours_handler()))),
        "rmcp_handler" => Box::new(|| drop(black_box(f.rmcp_handler()))),
        "rmcp_quick_start_handler" => Box::new(|| drop(black_box(f.rmcp_quick_start_handler()))),
        "ours_invalid" => Box::new(|| drop(black_box(f.ours_invalid()))),
        "ours_invalid_constraints" => Box::new(|| drop(black_box(f.ours_invalid_constraints()))),
        "list_200" => Box::new(|| drop(black_box(f.list_200()))),
        "serialize_200" => Box::new(|| drop(black_box(f.serialize_200()))),
        other => panic!("unknown call {other}"),
    };
    for _ in 0..count {
        call();
    }
}
