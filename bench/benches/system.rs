//! The process goals P5–P7, with more repetitions than the summary. Not criterion: each
//! sample is a whole process run or a whole build.

use mcp_tool_bench::{compile, process};

fn main() {
    // `cargo bench -- <filter>` passes a filter; run a goal only when it matches.
    let filter: Option<String> = std::env::args().skip(1).find(|arg| !arg.starts_with('-'));
    let wanted = |id: &str| {
        filter
            .as_deref()
            .is_none_or(|f| id.contains(f) || f.contains(id))
    };

    if wanted("P5") || wanted("P7") {
        process::build_servers();
    }
    if wanted("P5") {
        let (ours, rmcp) = process::stdio_throughput(10_000, 9);
        eprintln!("P5: ours {ours:.2?}, rmcp {rmcp:.2?} for 10,000 calls (median of 9)");
        println!(
            "P5 stdio_throughput_vs_rmcp {:.2}",
            rmcp.as_secs_f64() / ours.as_secs_f64()
        );
        let (ours, rmcp) = process::stdio_throughput_with(10_000, 9, &["--noop-middleware"]);
        eprintln!(
            "P5m: ours {ours:.2?} (one no-op middleware), rmcp {rmcp:.2?} for 10,000 calls (median of 9)"
        );
        println!(
            "P5m noop_middleware_stdio_throughput_vs_rmcp {:.2}",
            rmcp.as_secs_f64() / ours.as_secs_f64()
        );
    }
    if wanted("P6") {
        let figures = compile::compare(3);
        eprintln!("P6: {figures:?} (seconds, median of 3)");
        println!("P6 compile_vs_rmcp clean {:.2}", figures.clean_ratio());
        println!(
            "P6 compile_vs_rmcp incremental {:.2}",
            figures.incremental_ratio()
        );
    }
    if wanted("P7") {
        for run in 0..3 {
            let growth = process::rss_growth(1_000, 100_000, 64);
            eprintln!(
                "P7 run {run}: VmHWM {} kB after 1,000 calls, {} kB after 100,000 ({:?})",
                growth.after_few_kb, growth.after_all_kb, growth.tally
            );
            println!("P7 rss_growth_100k_calls {:.3}", growth.ratio());
        }
    }
}
