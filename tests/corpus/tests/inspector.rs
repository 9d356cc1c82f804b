//! MCP Inspector 2.x CLI `--strict` (its schema portability lint) finds nothing in the corpus
//! published under the portable profile, over real stdio.

use std::process::Output;

use mcp_tool_test_support::clients;

fn lint(profile: &str) -> Output {
    let clients = clients::clients();
    clients
        .command(clients.node_bin.join("mcp-inspector"))
        .args(["--cli", "--strict", "--method", "tools/list"])
        .arg(env!("CARGO_BIN_EXE_corpus-server"))
        .args(["--schema-profile", profile])
        .output()
        .expect("run the Inspector CLI")
}

#[test]
fn inspector_strict_finds_nothing_in_the_portable_corpus() {
    let output = lint("portable");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let listed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let tools = listed["tools"].as_array().unwrap();
    assert_eq!(tools.len(), mcp_tool_corpus::tools().len());
    assert!(
        !stderr.contains("Warning:") && !stderr.contains("Error:"),
        "the portable corpus has lint findings:\n{stderr}"
    );
    eprintln!(
        "Inspector --strict: {} portable tools, no findings",
        tools.len()
    );
}

#[test]
fn the_lint_is_really_running() {
    // The strict profile spells optional values as `type` arrays, which the lint warns about
    // (a warning, not an error: OpenAI recommends that spelling).
    let output = lint("strict");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("`type` is an array"), "{stderr}");
}
