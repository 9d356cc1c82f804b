//! The agent frameworks that are not the official SDKs, each tried against a server the way
//! its users run it (the drivers in `examples/tests/clients`): every tool converted into the
//! framework's own form with no warning, and the model shown our error for a bad call.

use serde_json::{Value, json};

use crate::clients::{agent_frameworks, js_agent_frameworks, mcp1_frameworks};
use crate::http::HttpServer;

/// Asserts what every framework driver reports: `tools` tools listed and every one converted
/// into the framework's own form, no warning, and the model shown our error for a bad call of
/// `tool` (`problems` problems), the `Valid call` line included. A framework that hands the
/// model the whole result as JSON passes too: the sentences are there, escaped.
pub fn assert_framework_report(report: &Value, tools: usize, tool: &str, problems: usize) {
    assert_eq!(report["tools"], tools, "{report}");
    assert_eq!(report["converted"], tools, "{report}");
    assert_eq!(report["warnings"], json!([]), "{report}");
    let seen = report["model_sees"].as_str().unwrap_or_default();
    let first = format!("Invalid arguments for tool '{tool}': {problems} problems.");
    assert!(seen.contains(&first), "{report}");
    assert!(seen.contains(&format!("Valid call: {tool}(")), "{report}");
}

/// A bad call of a server's tool, for the framework drivers.
#[derive(Clone, Copy, Debug)]
pub struct BadCall {
    /// The server's executable: run over stdio, or started with `--http`.
    pub server: &'static str,
    /// How many tools the server lists.
    pub tools: usize,
    /// The tool called.
    pub tool: &'static str,
    /// Its bad arguments, as JSON.
    pub arguments: &'static str,
    /// How many problems our error names.
    pub problems: usize,
}

/// Runs `driver` with `command` against `call.server` over stdio and over Streamable HTTP,
/// under the schema profile `profile`, for `call`; `check` sees each report (and may take
/// out what a framework warns about every server), then [`assert_framework_report`] judges it.
pub fn over_both_transports(
    driver: fn(&[&str]) -> Value,
    command: &str,
    profile: &str,
    call: &BadCall,
    check: impl Fn(&mut Value),
) {
    let profile_args = ["--schema-profile", profile];
    let server = HttpServer::start(call.server, &profile_args, &[]);
    let url = server.url();
    let stdio = [
        command,
        call.server,
        call.tool,
        call.arguments,
        profile_args[0],
        profile,
    ];
    let http = [command, &url, call.tool, call.arguments];
    for args in [&stdio[..], &http[..]] {
        let mut report = driver(args);
        check(&mut report);
        assert_framework_report(&report, call.tools, call.tool, call.problems);
    }
}

/// google-adk probes Google's application default credentials for mTLS on every Streamable
/// HTTP connection (`MCPSessionManager._get_mtls_transport`), whatever the server, and warns
/// when the machine has none: its own warning, which no server can avoid. Takes it out.
fn without_adk_mtls_probe(report: &mut Value) {
    if let Some(warnings) = report["warnings"].as_array_mut() {
        warnings.retain(|line| {
            !line
                .as_str()
                .is_some_and(|line| line.contains("mcp_session_manager: Failed to configure mTLS"))
        });
    }
}

/// langchain-mcp-adapters: each tool a `StructuredTool`, converted as `bind_tools` does
/// (`convert_to_openai_tool`); an error answered as a `ToolMessage` of our text.
pub fn langchain(call: &BadCall) {
    over_both_transports(mcp1_frameworks, "langchain", "portable", call, |report| {
        assert_eq!(report["status"], "error", "{report}");
    });
}

/// FastMCP as a client: each tool as its own `ProxyTool`, each output schema as the type
/// results are parsed into, and a `ToolError` of our text.
pub fn fastmcp(call: &BadCall) {
    over_both_transports(agent_frameworks, "fastmcp", "portable", call, |_| {});
}

/// google-adk's `McpToolset` in an agent run by a scripted model: its declarations, as JSON
/// schema (its default) and converted to Gemini's `Schema`, and the function response the
/// model reads back (the whole result, our text in it).
pub fn google_adk(call: &BadCall) {
    for command in ["adk", "adk-gemini-schema"] {
        over_both_transports(
            mcp1_frameworks,
            command,
            "portable",
            call,
            without_adk_mtls_probe,
        );
    }
}

/// The AI SDK (`generateText` with `@ai-sdk/mcp` tools, a mock model): the tools it sends the
/// provider and the tool result it sends back.
pub fn ai_sdk(call: &BadCall) {
    over_both_transports(js_agent_frameworks, "ai-sdk", "portable", call, |_| {});
}

/// `@openai/agents` (an `Agent` with an MCP server, `run` with a scripted model): under the
/// default profile as is, and under `strict` with `convertSchemasToStrict`, every tool strict.
pub fn openai_agents_js(call: &BadCall) {
    over_both_transports(
        js_agent_frameworks,
        "openai-agents",
        "portable",
        call,
        |_| {},
    );
    over_both_transports(
        js_agent_frameworks,
        "openai-agents-strict",
        "strict",
        call,
        |report| {
            assert_eq!(report["not_strict"], json!([]), "{report}");
        },
    );
}
