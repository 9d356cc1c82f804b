//! The published (portable) input schemas and the runtime agree. hypothesis-jsonschema draws
//! argument values from each tool's published schema; each must be accepted by the runtime.
//! Mutations of them that python-jsonschema rejects against the same schema (a wrong type, out
//! of range, a missing required argument, an extra property) must be rejected by the runtime
//! too, naming the mutated path.
//!
//! Integers beyond ±2^53 (issue 12, item 8): the published schema leaves out the bounds of
//! `i64`, `u64` and wider types, which JSON clients cannot represent exactly, so it accepts
//! integers outside the Rust type. For a value holding an integer past ±2^53 the expectation
//! comes from the canonical schema with its integer formats read as the Rust type's range
//! (`check/agreement.py`): in range, the runtime must accept it; out of range, it must reject
//! it with its range error (`out_of_range`) at that path. Every integer position is also tried
//! with ±2^53, the ends of `i64` and `u64`, one past them and ±10^25. Within ±2^53 agreement
//! stays exact.

use std::collections::BTreeMap;

use mcp_tool_runtime::{
    InputMode, McpServer, SchemaProfile,
    error::{ArgPath, META_KEY},
};
use mcp_tool_test_support::clients;
use serde_json::{Value, json};

fn generate(server: &McpServer<()>, examples: usize) -> Vec<Value> {
    let canonical = canonical_schemas();
    let tools: Vec<Value> = server
        .registry()
        .list()
        .iter()
        .map(|tool| {
            json!({
                "tool": tool.name,
                "schema": &*tool.input_schema,
                "canonical": canonical[tool.name.as_ref()],
            })
        })
        .collect();
    let dir = std::env::temp_dir();
    let input = dir.join(format!("agreement-in-{}.json", std::process::id()));
    let output = dir.join(format!("agreement-out-{}.json", std::process::id()));
    std::fs::write(&input, serde_json::to_vec(&tools).unwrap()).unwrap();
    let clients = clients::clients();
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("check/agreement.py");
    let status = clients
        .command(&clients.python)
        .arg(script)
        .arg(&input)
        .arg(&output)
        .arg(examples.to_string())
        .status()
        .unwrap();
    assert!(status.success());
    let cases = serde_json::from_slice(&std::fs::read(&output).unwrap()).unwrap();
    // Each run names its files by its process id: left behind, they pile up in the temp dir.
    for file in [&input, &output] {
        let _ = std::fs::remove_file(file);
    }
    cases
}

/// Each tool's canonical input schema (the full profile: schemars's, with integer formats).
fn canonical_schemas() -> BTreeMap<String, Value> {
    mcp_tool_corpus::server(SchemaProfile::Full)
        .registry()
        .list()
        .iter()
        .map(|tool| {
            (
                tool.name.to_string(),
                Value::Object((*tool.input_schema).clone()),
            )
        })
        .collect()
}

/// The runtime's spelling of a path given as a list of keys and indices.
fn arg_path(segments: &Value) -> String {
    let mut path = ArgPath::root();
    for segment in segments.as_array().unwrap() {
        path = match segment {
            Value::Number(index) => path.index(index.as_u64().unwrap() as usize),
            Value::String(key) => path.key(key.clone()),
            other => panic!("not a path segment: {other}"),
        };
    }
    path.to_string()
}

#[tokio::test]
async fn published_schema_and_runtime_agree() {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for mode in [InputMode::Strict, InputMode::Lenient] {
        let server = McpServer::builder(())
            .tools(mcp_tool_corpus::tools())
            .schema_profile(SchemaProfile::Portable)
            .input_mode(mode)
            .build()
            .unwrap();
        for case in generate(&server, 30) {
            let tool = case["tool"].as_str().unwrap();
            let kind = case["kind"].as_str().unwrap();
            let result = server
                .call(tool, Some(case["value"].clone()))
                .await
                .unwrap();
            *counts.entry(format!("{mode:?} {kind}")).or_default() += 1;
            let envelope = result
                .meta
                .as_ref()
                .and_then(|m| m.0.get(META_KEY).cloned());
            let rejected = envelope
                .as_ref()
                .is_some_and(|e| e["code"] == "invalid_arguments");
            if kind == "valid" || kind == "wide_in_range" {
                if result.is_error == Some(true) {
                    failures.push(format!(
                        "{tool} rejected a valid {}: {envelope:?}",
                        case["value"]
                    ));
                }
                continue;
            }
            if !rejected {
                failures.push(format!("{tool} accepted {kind} {}", case["value"]));
                continue;
            }
            let path = arg_path(&case["path"]);
            let node = arg_path(&case["node"]);
            let violations = envelope.as_ref().unwrap()["violations"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            if kind == "wide_out_of_range" {
                let range_error = violations
                    .iter()
                    .any(|v| v["path"] == path.as_str() && v["problem"] == "out_of_range");
                if !range_error {
                    failures.push(format!(
                        "{tool}: expected the range error at {path}, got {violations:?} for {}",
                        case["value"]
                    ));
                }
                continue;
            }
            let named: Vec<&str> = violations
                .iter()
                .filter_map(|v| v["path"].as_str())
                .collect();
            if named.contains(&path.as_str()) {
                *counts
                    .entry(format!("{mode:?} {kind} exact path"))
                    .or_default() += 1;
                continue;
            }
            // Inside a union (an enum) a missing key may be reported for the branch the
            // runtime found closest; it must still be at or below the mutated node.
            let below = |p: &str| {
                node.is_empty()
                    || p == node
                    || p.strip_prefix(node.as_str())
                        .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
            };
            if named.iter().any(|p| below(p)) {
                *counts
                    .entry(format!("{mode:?} {kind} below node"))
                    .or_default() += 1;
            } else {
                failures.push(format!(
                    "{tool} {kind}: expected path {path}, runtime named {named:?} for {}",
                    case["value"]
                ));
            }
        }
    }
    eprintln!("agreement cases: {counts:?}");
    for mode in ["Strict", "Lenient"] {
        for kind in ["wide_in_range", "wide_out_of_range"] {
            let key = format!("{mode} {kind}");
            assert!(counts.get(&key).is_some_and(|n| *n > 0), "no {key} case");
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
