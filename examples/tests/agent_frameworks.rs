//! Agent frameworks as MCP clients, run for real (installed into `.ci/.deps` by
//! `.ci/setup-clients`), with no model: they list the `inventory` example's tools, convert them
//! into their own tool form, and hand tool results to the model in their own way
//! (`tests/clients/agent_frameworks.py`, `mcp1_frameworks.py`, `agent_frameworks.mjs`).

use mcp_tool_test_support::clients::{
    BadCall, agent_frameworks, js_agent_frameworks, mcp1_frameworks, over_both_transports, tokens,
    without_adk_mtls_probe,
};
use mcp_tool_test_support::http::HttpServer;
use serde_json::json;

const INVENTORY: &str = env!("CARGO_BIN_EXE_inventory");

/// The README's three-problem call.
const BAD_ADD_ITEM: &str = r#"{"sku": "abc", "quantity": "five", "quantiy": 3}"#;

/// The bad `add_item` call against the inventory: six tools, three problems.
const INVENTORY_CALL: BadCall = BadCall {
    server: INVENTORY,
    tools: 6,
    tool: "add_item",
    arguments: BAD_ADD_ITEM,
    problems: 3,
};

/// langchain-mcp-adapters makes each tool a `StructuredTool` (converted as `bind_tools` does,
/// `convert_to_openai_tool`), and answers an error as a `ToolMessage` of our text.
#[test]
fn langchain_converts_every_tool_and_shows_the_model_our_error() {
    over_both_transports(
        mcp1_frameworks,
        "langchain",
        "portable",
        &INVENTORY_CALL,
        |report| {
            assert_eq!(report["status"], "error", "{report}");
        },
    );
}

/// FastMCP as a client: each tool as its own `ProxyTool`, output schemas as the types results
/// are parsed into, and a `ToolError` of our text.
#[test]
fn fastmcp_client_converts_every_tool_and_raises_our_error() {
    over_both_transports(
        agent_frameworks,
        "fastmcp",
        "portable",
        &INVENTORY_CALL,
        |_| {},
    );
}

/// google-adk's `McpToolset` in an agent run by a scripted model: its declarations, as JSON
/// schema (its default) and converted to Gemini's `Schema`, and the function response the
/// model reads back (the whole result, our text in it).
#[test]
fn google_adk_declares_every_tool_and_shows_the_model_our_error() {
    for command in ["adk", "adk-gemini-schema"] {
        over_both_transports(
            mcp1_frameworks,
            command,
            "portable",
            &INVENTORY_CALL,
            without_adk_mtls_probe,
        );
    }
}

/// The AI SDK (`generateText` with `@ai-sdk/mcp` tools, a mock model): the tools it sends the
/// provider and the tool result it sends back.
#[test]
fn ai_sdk_converts_every_tool_and_shows_the_model_our_error() {
    over_both_transports(
        js_agent_frameworks,
        "ai-sdk",
        "portable",
        &INVENTORY_CALL,
        |_| {},
    );
}

/// `@openai/agents` (an `Agent` with an MCP server, `run` with a scripted model): under the
/// default profile as is, and under `strict` with `convertSchemasToStrict`, every tool strict.
#[test]
fn openai_agents_js_converts_every_tool_and_shows_the_model_our_error() {
    over_both_transports(
        js_agent_frameworks,
        "openai-agents",
        "portable",
        &INVENTORY_CALL,
        |_| {},
    );
    over_both_transports(
        js_agent_frameworks,
        "openai-agents-strict",
        "strict",
        &INVENTORY_CALL,
        |report| {
            assert_eq!(report["not_strict"], json!([]), "{report}");
        },
    );
}

/// google-genai converts an MCP session's tools itself (`tools=[session]` runs
/// `_mcp_utils.mcp_to_gemini_tool` on each); it failed on a boolean `additionalProperties`.
#[test]
fn google_genai_converts_every_tool_under_the_default_profile() {
    let report = agent_frameworks(&["genai-convert", INVENTORY]);
    assert_eq!(report["tools"], 6, "{report}");
    assert_eq!(report["converted"], 6, "{report}");
    assert_eq!(report["warnings"], json!([]), "{report}");
}

/// google-genai hands the model the whole `CallToolResult` of an error, `_meta` included:
/// for the README's three-problem call that costs at most twice the text alone.
#[test]
fn google_genai_passes_an_error_at_most_twice_the_tokens_of_the_text() {
    let report = agent_frameworks(&["genai-error", INVENTORY]);
    let text = report["text"].as_str().expect("the text");
    let whole = report["whole"].as_str().expect("the whole result");
    assert!(text.starts_with("Invalid arguments for tool 'add_item': 3 problems."));
    assert!(whole.contains("rs.mcp-tool/error"), "{whole}");
    let counts = tokens(&[text, whole]);
    eprintln!(
        "error answer: text {} tokens, as google-genai passes it {}",
        counts[0], counts[1]
    );
    assert!(counts[1] <= 2 * counts[0], "{counts:?}: {whole}");
}

/// Every client built on the MCP Python SDK closes its session with `DELETE`, and warns
/// `Session termination failed: 202` unless the answer is 200 or 204.
#[test]
fn the_python_sdk_closes_an_http_session_without_a_warning() {
    let server = HttpServer::start(INVENTORY, &[], &[]);
    let report = agent_frameworks(&["python-sdk-close", &server.url()]);
    assert_eq!(report["tools"], 6, "{report}");
    assert_eq!(report["warnings"], json!([]), "{report}");
}
