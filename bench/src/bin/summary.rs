//! The short version of the benchmark suite: one line per goal, the figure last.
//!
//! ```text
//! cargo run --release -p mcp-tool-bench --bin summary [-- --only P1,P5,P5i,P8i]
//! ```

use std::time::{Duration, Instant};

use mcp_tool_bench::http_load::{self, Mode, Server};
use mcp_tool_bench::{compile, instructions, measure, process};

fn main() {
    let only: Option<Vec<String>> = std::env::args()
        .skip_while(|arg| arg != "--only")
        .nth(1)
        .map(|list| list.split(',').map(str::to_uppercase).collect());
    let wanted = |id: &str| only.as_ref().is_none_or(|ids| ids.iter().any(|w| w == id));
    let started = Instant::now();

    if ["P1", "P2", "P3", "P4"].iter().any(|id| wanted(id)) {
        for (id, name, comparison) in measure::in_process(31, Duration::from_millis(20)) {
            if wanted(id.trim_end_matches(['b', 's', 'm', 't'])) {
                eprintln!(
                    "  {id}: ours {:.0} ns, baseline {:.0} ns",
                    comparison.ours_ns, comparison.baseline_ns
                );
                println!("{id} {name} {:.2}", comparison.ratio());
            }
        }
    }

    if ["P5", "P5I", "P7", "P8", "P8I"].iter().any(|id| wanted(id)) {
        process::build_servers();
    }
    if wanted("P5") {
        let (ours, rmcp) = process::stdio_throughput(10_000, 3);
        eprintln!("  P5: ours {ours:.2?}, rmcp {rmcp:.2?} for 10,000 calls");
        println!(
            "P5 stdio_throughput_vs_rmcp {:.2}",
            rmcp.as_secs_f64() / ours.as_secs_f64()
        );
        let (ours, rmcp) = process::stdio_throughput_with(10_000, 3, &["--noop-middleware"]);
        eprintln!(
            "  P5m: ours {ours:.2?} (one no-op middleware), rmcp {rmcp:.2?} for 10,000 calls"
        );
        println!(
            "P5m noop_middleware_stdio_throughput_vs_rmcp {:.2}",
            rmcp.as_secs_f64() / ours.as_secs_f64()
        );
    }
    if wanted("P5I") {
        stdio_instructions_versus_rmcp();
    }
    if wanted("P6") {
        // Three rounds (each a clean build and three rebuilds of each crate), medians: one
        // build each swung the ratios by ±0.05 between runs.
        let figures = compile::compare(3);
        eprintln!("  P6: {figures:?}");
        println!("P6 compile_vs_rmcp clean {:.2}", figures.clean_ratio());
        println!(
            "P6 compile_vs_rmcp incremental {:.2}",
            figures.incremental_ratio()
        );
    }
    if wanted("P7") {
        let growth = process::rss_growth(1_000, 100_000, 64);
        eprintln!(
            "  P7: VmHWM {} kB after 1,000 calls, {} kB after 100,000 ({:?})",
            growth.after_few_kb, growth.after_all_kb, growth.tally
        );
        println!("P7 rss_growth_100k_calls {:.3}", growth.ratio());
    }
    if wanted("P8") {
        for mode in Mode::ALL {
            let versus = http_load::versus_rmcp(mode, 32, 20_000, 9);
            eprintln!(
                "  P8 {}: ours {:.0} calls/s, rmcp {:.0} calls/s (32 connections, medians of 9 \
                 rounds; their ratio {:.2}); server CPU per call: ours {:.0?}, rmcp {:.0?}",
                mode.name(),
                versus.ours,
                versus.theirs,
                versus.ours / versus.theirs,
                versus.ours_cpu,
                versus.theirs_cpu
            );
            println!(
                "P8 http_throughput_vs_rmcp {} {:.2}",
                mode.name(),
                versus.ratio()
            );
        }
    }
    if wanted("P8I") {
        instructions_versus_rmcp();
    }
    eprintln!("  summary took {:.0?}", started.elapsed());
}

/// P5i: instructions per stdio call under callgrind, ours against rmcp.
fn stdio_instructions_versus_rmcp() {
    if !instructions::available() {
        eprintln!("  P5i: skipped, valgrind is not installed");
        return;
    }
    let dir = process::release_dir();
    let ours = instructions::stdio_per_call(&dir.join("bench-ours-stdio"));
    let rmcp = instructions::stdio_per_call(&dir.join("bench-rmcp-stdio"));
    eprintln!("  P5i: ours {ours} instructions per call, rmcp {rmcp}");
    println!(
        "P5i stdio_instructions_vs_rmcp {:.3}",
        ours as f64 / rmcp as f64
    );
}

/// How many times P8i measures each server in each mode, the two alternating: one measure
/// of a server moved by up to 1,500 instructions a call between runs (0.9%, both servers;
/// thread scheduling and the allocator's state differ from run to run), more than the two
/// servers differ by.
const P8I_RUNS: usize = 3;

/// P8i: instructions per HTTP call under callgrind, ours against rmcp, in each mode: the
/// medians of [`P8I_RUNS`] runs each.
fn instructions_versus_rmcp() {
    if !instructions::available() {
        eprintln!("  P8i: skipped, valgrind is not installed");
        return;
    }
    for mode in Mode::ALL {
        let (mut ours, mut rmcp) = (Vec::new(), Vec::new());
        for _ in 0..P8I_RUNS {
            ours.push(instructions::per_call(Server::Ours, mode));
            rmcp.push(instructions::per_call(Server::Rmcp, mode));
        }
        eprintln!(
            "  P8i {}: ours {ours:?}, rmcp {rmcp:?} instructions per call (one connection)",
            mode.name()
        );
        let (ours, rmcp) = (median_count(&mut ours), median_count(&mut rmcp));
        eprintln!("    medians: ours {ours}, rmcp {rmcp}");
        println!(
            "P8i http_instructions_vs_rmcp {} {:.3}",
            mode.name(),
            ours as f64 / rmcp as f64
        );
    }
}

/// The middle one of `counts`.
fn median_count(counts: &mut [u64]) -> u64 {
    counts.sort_unstable();
    counts.get(counts.len() / 2).copied().unwrap_or_default()
}
