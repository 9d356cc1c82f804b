//! The in-process goals P1–P4 under criterion. After the groups run, the ratios of their
//! medians are printed in the summary's format.

use std::hint::black_box;

use criterion::{Criterion, criterion_group};
use mcp_tool_bench::measure::Fixtures;

fn dispatch(c: &mut Criterion) {
    let fixtures = Fixtures::new();
    let _entered = fixtures.runtime.enter();
    let f = &fixtures;

    let mut group = c.benchmark_group("P1_dispatch_vs_handwritten");
    group.bench_function("ours", |b| b.iter(|| black_box(f.ours_valid())));
    group.bench_function("handwritten", |b| {
        b.iter(|| black_box(f.handwritten_valid()))
    });
    group.bench_function("ours_noop_middleware", |b| {
        b.iter(|| black_box(f.ours_valid_noop_middleware()))
    });
    group.finish();

    let mut group = c.benchmark_group("P1t_traced_dispatch");
    tracing::subscriber::with_default(tracing_subscriber::registry(), || {
        group.bench_function("traced", |b| b.iter(|| black_box(f.ours_valid_traced())));
        group.bench_function("plain", |b| b.iter(|| black_box(f.ours_valid())));
    });
    group.finish();

    let mut group = c.benchmark_group("P2_dispatch_vs_rmcp");
    group.bench_function("ours", |b| b.iter(|| black_box(f.ours_handler())));
    group.bench_function("rmcp", |b| b.iter(|| black_box(f.rmcp_handler())));
    group.bench_function("rmcp_quick_start", |b| {
        b.iter(|| black_box(f.rmcp_quick_start_handler()))
    });
    group.finish();

    let mut group = c.benchmark_group("P3_invalid_vs_valid");
    group.bench_function("invalid", |b| b.iter(|| black_box(f.ours_invalid())));
    group.bench_function("invalid_constraints", |b| {
        b.iter(|| black_box(f.ours_invalid_constraints()))
    });
    group.bench_function("valid", |b| b.iter(|| black_box(f.ours_valid())));
    group.finish();

    let mut group = c.benchmark_group("P4_list_vs_serialize");
    group.bench_function("list_200", |b| b.iter(|| black_box(f.list_200())));
    group.bench_function("list_200_noop_middleware", |b| {
        b.iter(|| black_box(f.list_200_noop_middleware()))
    });
    group.bench_function("serialize_200", |b| b.iter(|| black_box(f.serialize_200())));
    group.finish();
}

criterion_group!(benches, dispatch);

/// The median criterion estimated for `group/function`, in nanoseconds.
fn median(group: &str, function: &str) -> Option<f64> {
    let dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| mcp_tool_bench::process::workspace_root().join("target"));
    let path = dir
        .join("criterion")
        .join(group)
        .join(function)
        .join("new/estimates.json");
    let estimates: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    estimates["median"]["point_estimate"].as_f64()
}

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    for (id, name, group, ours, baseline) in [
        (
            "P1",
            "dispatch_vs_handwritten",
            "P1_dispatch_vs_handwritten",
            "ours",
            "handwritten",
        ),
        (
            "P1m",
            "noop_middleware_dispatch_vs_handwritten",
            "P1_dispatch_vs_handwritten",
            "ours_noop_middleware",
            "handwritten",
        ),
        (
            "P1t",
            "traced_dispatch_vs_plain_dispatch",
            "P1t_traced_dispatch",
            "traced",
            "plain",
        ),
        (
            "P2",
            "dispatch_vs_rmcp",
            "P2_dispatch_vs_rmcp",
            "ours",
            "rmcp",
        ),
        (
            "P2b",
            "dispatch_vs_rmcp_quick_start",
            "P2_dispatch_vs_rmcp",
            "ours",
            "rmcp_quick_start",
        ),
        (
            "P3",
            "invalid_vs_valid",
            "P3_invalid_vs_valid",
            "invalid",
            "valid",
        ),
        (
            "P3b",
            "invalid_constraints_vs_valid",
            "P3_invalid_vs_valid",
            "invalid_constraints",
            "valid",
        ),
        (
            "P4",
            "list_vs_serialize",
            "P4_list_vs_serialize",
            "list_200",
            "serialize_200",
        ),
        (
            "P4m",
            "noop_middleware_list_vs_serialize",
            "P4_list_vs_serialize",
            "list_200_noop_middleware",
            "serialize_200",
        ),
    ] {
        if let (Some(ours), Some(baseline)) = (median(group, ours), median(group, baseline)) {
            println!("{id} {name} {:.2}", ours / baseline);
        }
    }
}
