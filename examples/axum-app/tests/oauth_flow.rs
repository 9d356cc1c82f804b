//! The official Python SDK client runs its whole OAuth flow against the app, with an
//! authorization server made of the SDK's own components started by the script
//! (`oauth_flow.py`): 401 -> protected-resource metadata -> authorization-server metadata ->
//! dynamic client registration -> authorization code with PKCE -> token -> tool calls, and a
//! scope step-up on the app's 403 scope challenge.

use std::path::Path;

use mcp_tool_test_support::clients::clients;
use serde_json::Value;

const APP: &str = env!("CARGO_BIN_EXE_mcp-tool-example-axum");

fn run_flow() -> Value {
    let clients = clients();
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("oauth_flow.py");
    let output = clients
        .command(&clients.python)
        .arg(script)
        .arg(APP)
        .output()
        .expect("run the Python OAuth flow");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the flow failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let last = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(last).unwrap_or_else(|error| panic!("{error}: {stdout}"))
}

/// The exchanges of the report as `METHOD URL STATUS`, with the URLs relative to their
/// server (`app` or `as`).
fn exchanges(report: &Value) -> Vec<String> {
    let app = report["url"]
        .as_str()
        .unwrap_or_default()
        .trim_end_matches("/mcp");
    let issuer = report["issuer"]
        .as_str()
        .unwrap_or_default()
        .trim_end_matches('/');
    report["exchanges"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|exchange| {
            let url = exchange["url"].as_str().unwrap_or_default();
            let url = url.replace(app, "app").replace(issuer, "as");
            format!(
                "{} {url} {}",
                exchange["method"].as_str().unwrap_or_default(),
                exchange["status"]
            )
        })
        .collect()
}

#[test]
fn the_python_sdk_runs_the_whole_oauth_flow_and_steps_up_on_a_scope_challenge() {
    let report = run_flow();
    let url = report["url"].as_str().expect("the app's URL");
    let metadata = url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp");
    let seen = exchanges(&report);
    assert_eq!(
        seen[..5],
        [
            "POST app/mcp 401",
            "GET app/.well-known/oauth-protected-resource/mcp 200",
            "GET as/.well-known/oauth-authorization-server 200",
            "POST as/register 201",
            "POST as/token 200",
        ],
        "{report}"
    );
    assert_eq!(
        report["exchanges"][0]["www_authenticate"],
        format!(r#"Bearer realm="mcp", resource_metadata="{metadata}""#)
    );
    // The first token grants notes:read only: add_note is challenged, the client asks again.
    let challenged = seen
        .iter()
        .position(|exchange| exchange == "POST app/mcp 403")
        .unwrap_or_else(|| panic!("no scope challenge: {report}"));
    assert_eq!(
        report["exchanges"][challenged]["www_authenticate"],
        format!(
            r#"Bearer realm="mcp", error="insufficient_scope", scope="notes:write", resource_metadata="{metadata}""#
        )
    );
    assert_eq!(seen[challenged + 1], "POST as/token 200", "{report}");
    assert_eq!(seen.last().map(String::as_str), Some("POST app/mcp 200"));
    let server = &report["authorization_server"];
    assert_eq!(server["registrations"], 1, "{report}");
    for request in report["authorization_requests"]
        .as_array()
        .expect("requests")
    {
        assert_eq!(request["code_challenge_method"], "S256", "{report}");
        assert_eq!(request["resource"], url, "{report}");
    }
    let tokens = server["tokens"].as_array().expect("tokens");
    assert_eq!(tokens.len(), 2, "{report}");
    assert_eq!(tokens[0]["scope"], "notes:read");
    assert_eq!(tokens[1]["scope"], "notes:read notes:write");
    assert!(tokens.iter().all(|token| token["aud"] == url), "{report}");
    assert_eq!(report["whoami"], "alice");
    assert_eq!(report["add_note"], "note 1 saved");
    assert_eq!(report["list_notes"], "1: buy milk");
}
