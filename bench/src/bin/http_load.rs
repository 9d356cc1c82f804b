//! Throughput and latency of `get_user` over Streamable HTTP, server beside server: the
//! latency table of BENCHMARKS.md and the comparison with the Python SDKs.
//!
//! ```text
//! cargo run --release -p mcp-tool-bench --bin http_load -- \
//!     [--servers ours,rmcp,python,fastmcp] [--modes stateful,stateless] \
//!     [--connections 1,100,300] [--requests 20000] [--rounds 3]
//! ```
//!
//! Defaults: ours and rmcp, both modes, 1, 100 and 300 connections, 20,000 calls a run,
//! 3 rounds. `--addr HOST:PORT` loads a server started by hand instead (under callgrind, say;
//! give it one mode, the one it was started in). Python servers need `bash .ci/setup-clients` first. One markdown row per
//! server, mode and connection count: the median over the rounds of each figure, and the
//! range of the throughput.
//!
//! Cores: `MCP_BENCH_SERVER_CPUS=0 taskset -c 1 http_load ...` gives each server core 0 and
//! the load generator core 1 (BENCHMARKS.md, "P8 by cores").

use mcp_tool_bench::http_load::{self, Load, Mode, Server};
use mcp_tool_bench::process;

fn option(name: &str) -> Option<String> {
    std::env::args().skip_while(|arg| arg != name).nth(1)
}

fn list<T>(name: &str, default: &str, parse: impl Fn(&str) -> Option<T>) -> Vec<T> {
    let text = option(name).unwrap_or_else(|| default.to_string());
    text.split(',')
        .map(|word| parse(word.trim()).unwrap_or_else(|| panic!("{name}: cannot read '{word}'")))
        .collect()
}

fn main() {
    let servers = list("--servers", "ours,rmcp", Server::from_name);
    let modes = list("--modes", "stateful,stateless", |word| {
        Mode::ALL.into_iter().find(|mode| mode.name() == word)
    });
    let connections = list("--connections", "1,100,300", |word| word.parse().ok());
    let requests = option("--requests").map_or(20_000, |n| n.parse().expect("--requests N"));
    let rounds = option("--rounds").map_or(3, |n| n.parse().expect("--rounds N"));
    if let Some(addr) = option("--addr") {
        let addr = addr.parse().expect("--addr HOST:PORT");
        for mode in modes {
            for &count in &connections {
                let loads: Vec<Load> = (0..rounds)
                    .map(|_| http_load::run(addr, mode, count, requests))
                    .collect();
                println!("{}", row(mode, count, "external", &loads));
            }
        }
        return;
    }
    if servers
        .iter()
        .any(|s| matches!(s, Server::Ours | Server::Rmcp))
    {
        process::build_servers();
    }
    println!("| mode | connections | server | calls/s (range) | p50 | p99 | server CPU/call |");
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for mode in modes {
        for &count in &connections {
            let loads = http_load::interleaved(&servers, mode, count, requests, rounds);
            for (server, loads) in servers.iter().zip(loads) {
                println!("{}", row(mode, count, server.name(), &loads));
            }
        }
    }
}

fn row(mode: Mode, connections: usize, server: &str, loads: &[Load]) -> String {
    let rates: Vec<f64> = loads.iter().map(Load::throughput).collect();
    for (round, load) in loads.iter().enumerate() {
        eprintln!(
            "  {} {} c={connections} round {round}: {:.0} calls/s, p50 {:.2?}, p99 {:.2?}, \
             server CPU {:.1?}/call",
            mode.name(),
            server,
            load.throughput(),
            load.percentile(50.0),
            load.percentile(99.0),
            load.cpu_per_call().unwrap_or_default()
        );
    }
    let (low, high) = rates.iter().fold((f64::MAX, 0f64), |(low, high), r| {
        (low.min(*r), high.max(*r))
    });
    let millis = |percent: f64| {
        let values = loads
            .iter()
            .map(|load| load.percentile(percent).as_secs_f64() * 1e3)
            .collect();
        http_load::median(values)
    };
    let cpu: Vec<f64> = loads
        .iter()
        .filter_map(Load::cpu_per_call)
        .map(|cpu| cpu.as_secs_f64() * 1e6)
        .collect();
    let cpu = match cpu.is_empty() {
        true => "–".to_string(),
        false => format!("{:.0} µs", http_load::median(cpu)),
    };
    format!(
        "| {} | {connections} | {} | {:.0} ({low:.0}–{high:.0}) | {:.2} ms | {:.2} ms | {cpu} |",
        mode.name(),
        server,
        http_load::median(rates.clone()),
        millis(50.0),
        millis(99.0)
    )
}
