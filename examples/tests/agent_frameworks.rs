//! Agent frameworks as MCP clients, run for real (installed into `.ci/.deps` by
//! `.ci/setup-clients`), with no model: they list the `inventory` example's tools, convert them
//! into their own tool form, and hand tool results to the model in their own way
//! (`tests/clients/agent_frameworks.py`, `mcp1_frameworks.py`, `agent_frameworks.mjs`).

use mcp_tool_test_support::clients::{agent_frameworks, tokens};
use mcp_tool_test_support::frameworks::{self, BadCall};
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

/// langchain-mcp-adapters, FastMCP as a client, google-adk, the AI SDK and `@openai/agents`,
/// each over stdio and Streamable HTTP (`frameworks::langchain` and the others say what each is
/// asked): every tool converted with no warning, our error with its `Valid call` line.
#[test]
fn langchain_converts_every_tool_and_shows_the_model_our_error() {
    frameworks::langchain(&INVENTORY_CALL);
}

#[test]
fn fastmcp_client_converts_every_tool_and_raises_our_error() {
    frameworks::fastmcp(&INVENTORY_CALL);
}

#[test]
fn google_adk_declares_every_tool_and_shows_the_model_our_error() {
    frameworks::google_adk(&INVENTORY_CALL);
}

#[test]
fn ai_sdk_converts_every_tool_and_shows_the_model_our_error() {
    frameworks::ai_sdk(&INVENTORY_CALL);
}

#[test]
fn openai_agents_js_converts_every_tool_and_shows_the_model_our_error() {
    frameworks::openai_agents_js(&INVENTORY_CALL);
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
