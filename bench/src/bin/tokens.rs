//! The token cost of what a model reads, ours against the official Python SDK:
//!
//! ```text
//! bash .ci/setup-clients >/dev/null   # installs gpt-tokenizer and the Python SDK into .ci/.deps
//! cargo run --release -p mcp-tool-bench --bin tokens
//! ```

use mcp_tool_bench::{process, tokens};
use serde_json::json;

fn main() {
    process::build_servers();
    let ours = tokens::input_schemas(&mut tokens::ours());
    let python = tokens::input_schemas(&mut tokens::python());
    let texts: Vec<String> = ours.iter().chain(&python).map(|(_, s)| s.clone()).collect();
    let counts = tokens::count(&texts);
    let (ours_counts, python_counts) = counts.split_at(ours.len());
    for ((name, _), count) in ours.iter().zip(ours_counts) {
        let theirs = python
            .iter()
            .zip(python_counts)
            .find(|((other, _), _)| other == name)
            .map_or(0, |(_, count)| *count);
        eprintln!("  {name}: ours {count}, python {theirs}");
    }
    let (ours_total, python_total): (usize, usize) =
        (ours_counts.iter().sum(), python_counts.iter().sum());
    println!(
        "T1 input_schema_tokens ours {ours_total} python {python_total} ratio {:.2}",
        ours_total as f64 / python_total as f64
    );

    let mut session = tokens::ours();
    for (tool, arguments) in tokens::bad_calls() {
        let result = session.request("tools/call", json!({"name": tool, "arguments": arguments}));
        let text = result["content"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let envelope = result["_meta"]["rs.mcp-tool/error"].to_string();
        let counts = tokens::count(&[text.clone(), envelope.clone()]);
        println!(
            "T2 error_answer {tool} text {} bytes {} tokens, envelope {} bytes {} tokens",
            text.len(),
            counts[0],
            envelope.len(),
            counts[1]
        );
    }
}
