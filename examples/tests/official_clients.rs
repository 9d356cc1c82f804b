//! The official clients drive the example servers: the Python SDK 2.x (on revision
//! 2026-07-28) and the TypeScript SDK 1.x (on 2025-11-25) over stdio and Streamable HTTP, and
//! the conformance suite over HTTP. The clients are
//! installed on first use into `.ci/.deps` (see `mcp_tool_test_support::clients`).

use std::path::{Path, PathBuf};
use std::process::Output;

use mcp_tool_test_support::clients::clients;
use mcp_tool_test_support::http::HttpServer;
use serde_json::{Value, json};

const INVENTORY: &str = env!("CARGO_BIN_EXE_inventory");
const CONFORMANCE: &str = env!("CARGO_BIN_EXE_conformance");

/// The core contract's text for `{"sku": "abc", "quantity": "five", "quantiy": 3}`.
const BAD_ARGUMENTS_TEXT: &str = "Invalid arguments for tool 'add_item': 3 problems.\n\
    - Argument 'sku' must match the pattern `^[A-Z]{3}-[0-9]{4}$` (for example 'ABC-0001'), but received 'abc'.\n\
    - Argument 'quantity' expected an integer, but received 'five'.\n\
    - Unknown argument 'quantiy'. Did you mean 'quantity'? Valid arguments here: sku, quantity, note.\n\
    Valid call: add_item(sku: a string matching `^[A-Z]{3}-[0-9]{4}$`, quantity: an integer between 1 and 100, note?: a string of at most 200 characters)";

const UNKNOWN_TOOL_TEXT: &str = "Unknown tool 'add_iten'. Did you mean 'add_item'? Available \
    tools: add_item, search_items, get_user, list_users, reserve_stock, legacy_report.";

fn report(output: &Output, what: &str) -> Value {
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{what} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let last = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(last)
        .unwrap_or_else(|error| panic!("{what}: no report ({error}): {stdout}"))
}

fn assert_report(report: &Value) {
    assert_eq!(
        report["tools"],
        json!([
            "add_item",
            "get_user",
            "legacy_report",
            "list_users",
            "reserve_stock",
            "search_items"
        ])
    );
    let calls = &report["calls"];
    assert_eq!(
        calls["get_user"],
        json!({"id": 1, "name": "Ada Lovelace", "email": "ada@example.com"})
    );
    assert_eq!(
        calls["add_item"],
        json!({"sku": "ABC-0001", "quantity": 2, "cart_total": 2})
    );
    assert_eq!(calls["reserve_stock"]["reserved"], 1);
    assert_eq!(calls["search_items"]["items"][0]["sku"], "DEF-0101");
    assert_eq!(
        calls["list_users"]["users"].as_array().map(Vec::len),
        Some(3)
    );
    assert!(
        report["masked_text"]
            .as_str()
            .is_some_and(|text| text.starts_with(
                "Tool 'legacy_report' failed because of an internal error on the server."
            )),
        "{report}"
    );
    assert_eq!(report["bad_arguments_text"], BAD_ARGUMENTS_TEXT);
    assert_eq!(report["unknown_tool"]["code"], -32602);
    assert!(
        report["unknown_tool"]["message"]
            .as_str()
            .is_some_and(|message| message.contains(UNKNOWN_TOOL_TEXT)),
        "{report}"
    );
}

/// A file of `tests/clients/`: the client scripts and the conformance baseline.
fn client_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("clients")
        .join(name)
}

fn python(args: &[&str]) -> Output {
    let clients = clients();
    let script = client_file("python_client.py");
    clients
        .command(&clients.python)
        .arg(script)
        .args(args)
        .output()
        .expect("run the Python client")
}

fn typescript(args: &[&str]) -> Output {
    let clients = clients();
    let script = client_file("ts_client.mjs");
    clients
        .command(&clients.node)
        .arg(script)
        .args(args)
        .output()
        .expect("run the TypeScript client")
}

/// The Python SDK 2.x speaks 2026-07-28 with a server that answers `server/discover`, without
/// falling back to `initialize`.
fn assert_python_on_2026(report: &Value) {
    assert_eq!(report["protocol"], "2026-07-28", "{report}");
    assert_eq!(report["fell_back"], false, "{report}");
}

/// The TypeScript SDK 1.x has only the `initialize` handshake, and its newest revision.
fn assert_typescript_on_2025(report: &Value) {
    assert_eq!(report["protocol"], "2025-11-25", "{report}");
}

#[test]
fn python_sdk_over_stdio() {
    let report = report(&python(&["stdio", INVENTORY]), "python stdio");
    assert_python_on_2026(&report);
    assert_report(&report);
}

#[test]
fn python_sdk_over_http() {
    let server = HttpServer::start(INVENTORY, &[], &[]);
    let report = report(&python(&["http", &server.url()]), "python http");
    assert_python_on_2026(&report);
    assert_report(&report);
}

#[test]
fn typescript_sdk_over_stdio() {
    let report = report(&typescript(&["stdio", INVENTORY]), "typescript stdio");
    assert_typescript_on_2025(&report);
    assert_report(&report);
}

#[test]
fn typescript_sdk_over_http() {
    let server = HttpServer::start(INVENTORY, &[], &[]);
    let report = report(&typescript(&["http", &server.url()]), "typescript http");
    assert_typescript_on_2025(&report);
    assert_report(&report);
}

/// The scenarios of 0.1.16 that must pass; the rest of the suite is held to the baseline
/// file.
const REQUIRED: &[&str] = &[
    "server-initialize",
    "ping",
    "logging-set-level",
    "completion-complete",
    "tools-list",
    "tools-call-simple-text",
    "tools-call-image",
    "tools-call-audio",
    "tools-call-embedded-resource",
    "tools-call-mixed-content",
    "tools-call-with-logging",
    "tools-call-error",
    "tools-call-with-progress",
    "tools-call-sampling",
    "tools-call-elicitation",
    "json-schema-2020-12",
    "elicitation-sep1034-defaults",
    "elicitation-sep1330-enums",
    "resources-list",
    "resources-read-text",
    "resources-read-binary",
    "resources-templates-read",
    "resources-subscribe",
    "resources-unsubscribe",
    "prompts-list",
    "prompts-get-simple",
    "prompts-get-with-args",
    "prompts-get-embedded-resource",
    "prompts-get-with-image",
    "dns-rebinding-protection",
];

/// The line of the suite's summary for `scenario`, not the scenario's own output (which
/// also prints its checks).
fn summary_line<'a>(stdout: &'a str, scenario: &str) -> &'a str {
    stdout
        .lines()
        .rev()
        .find(|line| line.contains(&format!(" {scenario}: ")) && line.contains(" passed, "))
        .unwrap_or_else(|| panic!("{scenario} did not run:\n{stdout}"))
}

#[test]
fn conformance_suite_passes_against_the_conformance_example() {
    let clients = clients();
    let server = HttpServer::start(CONFORMANCE, &[], &[]);
    let baseline = client_file("conformance-baseline.yml");
    let output = clients
        .command(clients.node_bin.join("conformance"))
        .args([
            "server",
            "--url",
            &server.url(),
            "--suite",
            "all",
            "--expected-failures",
        ])
        .arg(&baseline)
        .current_dir(std::env::temp_dir())
        .output()
        .expect("run the conformance suite");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "conformance failed outside the baseline:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for scenario in REQUIRED {
        let line = summary_line(&stdout, scenario);
        assert!(
            line.contains('✓') && line.contains(" 0 failed"),
            "{scenario}: {line}"
        );
    }
    let total = stdout
        .lines()
        .find(|line| line.starts_with("Total: "))
        .expect("a total line");
    println!("conformance: {total}");
}

/// The server scenarios the 2025-11-25 revision requires, as the 0.2.0 suite freezes them
/// (its `requirements/2025-11-25.yaml`): every one is scored, and every one must pass.
const SCORED_2025_11_25: &[&str] = &[
    "server-initialize",
    "logging-set-level",
    "ping",
    "completion-complete",
    "tools-list",
    "tools-call-simple-text",
    "tools-call-image",
    "tools-call-audio",
    "tools-call-embedded-resource",
    "tools-call-mixed-content",
    "tools-call-with-logging",
    "tools-call-error",
    "tools-call-with-progress",
    "tools-call-sampling",
    "tools-call-elicitation",
    "elicitation-sep1034-defaults",
    "server-sse-multiple-streams",
    "elicitation-sep1330-enums",
    "resources-list",
    "resources-read-text",
    "resources-read-binary",
    "resources-templates-read",
    "resources-subscribe",
    "resources-unsubscribe",
    "prompts-list",
    "prompts-get-simple",
    "prompts-get-with-args",
    "prompts-get-embedded-resource",
    "prompts-get-with-image",
    "dns-rebinding-protection",
];

#[test]
fn conformance_requirements_of_2025_11_25_all_pass() {
    let total = requirements_pass("2025-11-25", SCORED_2025_11_25);
    assert!(total.ends_with(" 0 failed"), "{total}");
}

/// Runs the 0.2.0 suite's frozen requirement set of `revision` against the `conformance`
/// example: it must exit 0, and each of `scored` must pass. Returns the total line.
fn requirements_pass(revision: &str, scored: &[&str]) -> String {
    let clients = clients();
    let server = HttpServer::start(CONFORMANCE, &[], &[]);
    let output = clients
        .command(&clients.conformance_next)
        .args(["server", "--url", &server.url(), "--requirements", revision])
        .current_dir(std::env::temp_dir())
        .output()
        .expect("run the conformance suite 0.2.0");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "a scored scenario of {revision} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains(&format!("Running requirements {revision} (")),
        "{stdout}"
    );
    for scenario in scored {
        let line = summary_line(&stdout, scenario);
        assert!(
            line.contains('✓') && line.contains(" 0 failed"),
            "{scenario}: {line}"
        );
    }
    let total = stdout
        .lines()
        .find(|line| line.starts_with("Total: "))
        .expect("a total line")
        .to_string();
    println!("conformance 0.2.0, {revision}: {total}");
    total
}

/// The server scenarios the 2026-07-28 revision requires, as the 0.2.0 suite freezes them
/// (its `requirements/2026-07-28.yaml`): every one is scored, and every one must pass.
const SCORED_2026_07_28: &[&str] = &[
    "server-stateless",
    "completion-complete",
    "tools-list",
    "tools-call-simple-text",
    "tools-call-image",
    "tools-call-audio",
    "tools-call-embedded-resource",
    "tools-call-mixed-content",
    "tools-call-error",
    "tools-call-with-progress",
    "server-sse-multiple-streams",
    "resources-list",
    "resources-read-text",
    "resources-read-binary",
    "resources-templates-read",
    "sep-2164-resource-not-found",
    "prompts-list",
    "prompts-get-simple",
    "prompts-get-with-args",
    "prompts-get-embedded-resource",
    "prompts-get-with-image",
    "dns-rebinding-protection",
    "caching",
    "input-required-result-basic-elicitation",
    "input-required-result-basic-sampling",
    "input-required-result-basic-list-roots",
    "input-required-result-request-state",
    "input-required-result-multiple-input-requests",
    "input-required-result-multi-round",
    "input-required-result-missing-input-response",
    "input-required-result-non-tool-request",
    "input-required-result-result-type",
    "input-required-result-unsupported-methods",
    "input-required-result-tampered-state",
    "input-required-result-capability-check",
    "input-required-result-ignore-extra-params",
    "input-required-result-validate-input",
];

#[test]
fn conformance_requirements_of_2026_07_28_all_pass() {
    // The suite's unscored scenarios (the tasks extension, pending ones) may fail.
    requirements_pass("2026-07-28", SCORED_2026_07_28);
}

/// Runs one scenario of the tasks extension (SEP-2663) from the 0.2.0 suite against the
/// `conformance` example and asserts that all `checks` of it pass. The suite does not score
/// extension scenarios in its requirement sets, so each runs here on its own. One at a time:
/// each polls tasks for seconds, and ten suites at once on a small machine time out.
fn tasks_scenario_passes(scenario: &str, checks: usize) {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let clients = clients();
    let server = HttpServer::start(CONFORMANCE, &[], &[]);
    let output = clients
        .command(&clients.conformance_next)
        .args(["server", "--url", &server.url(), "--scenario", scenario])
        .current_dir(std::env::temp_dir())
        .output()
        .expect("run the conformance suite 0.2.0");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let expected = format!("Passed: {checks}/{checks}, 0 failed, 0 warnings");
    assert!(
        output.status.success() && stdout.contains(&expected),
        "{scenario}: expected `{expected}`:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn conformance_tasks_lifecycle() {
    tasks_scenario_passes("tasks-lifecycle", 9);
}

#[test]
fn conformance_tasks_capability_negotiation() {
    tasks_scenario_passes("tasks-capability-negotiation", 5);
}

#[test]
fn conformance_tasks_wire_fields() {
    tasks_scenario_passes("tasks-wire-fields", 4);
}

#[test]
fn conformance_tasks_request_state_removal() {
    tasks_scenario_passes("tasks-request-state-removal", 3);
}

#[test]
fn conformance_tasks_mrtr_input() {
    tasks_scenario_passes("tasks-mrtr-input", 4);
}

#[test]
fn conformance_tasks_request_headers() {
    tasks_scenario_passes("tasks-request-headers", 5);
}

#[test]
fn conformance_tasks_dispatch_and_envelope() {
    tasks_scenario_passes("tasks-dispatch-and-envelope", 9);
}

/// The suite skips this scenario (0 checks: its harness awaits a rewrite for
/// `subscriptions/listen`); it runs so that a suite that starts checking shows here.
#[test]
fn conformance_tasks_status_notifications() {
    tasks_scenario_passes("tasks-status-notifications", 0);
}

#[test]
fn conformance_tasks_required_task_error() {
    tasks_scenario_passes("tasks-required-task-error", 3);
}

#[test]
fn conformance_tasks_mrtr_composition() {
    tasks_scenario_passes("tasks-mrtr-composition", 2);
}
