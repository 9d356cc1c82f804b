//! Agent frameworks as MCP clients, run for real against the corpus, with no model
//! (`examples/tests/clients/agent_frameworks.py`, `mcp1_frameworks.py`,
//! `agent_frameworks.mjs`): google-genai under the default profile, openai-agents under
//! `strict`, pydantic-ai for an error of a tool without output schema; langchain-mcp-adapters,
//! FastMCP, google-adk, the AI SDK and `@openai/agents` over stdio and Streamable HTTP.

use mcp_tool_runtime::{SchemaProfile, error::META_KEY};
use mcp_tool_test_support::clients::agent_frameworks;
use mcp_tool_test_support::frameworks::{self, BadCall};
use serde_json::{Value, json};

const CORPUS: &str = env!("CARGO_BIN_EXE_corpus-server");

/// A bad `place_order` call (a tool without output schema): two problems.
fn place_order_call() -> BadCall {
    BadCall {
        server: CORPUS,
        tools: mcp_tool_corpus::tools().len(),
        tool: "place_order",
        arguments: r#"{"sku": "abc", "quantity": "five", "price": 1.5}"#,
        problems: 2,
    }
}

/// langchain-mcp-adapters, FastMCP as a client, google-adk, the AI SDK and `@openai/agents`,
/// each over stdio and Streamable HTTP (`frameworks::langchain` and the others say what each is
/// asked): every tool converted with no warning, our error with its `Valid call` line.
#[test]
fn langchain_converts_every_tool_and_shows_the_model_our_error() {
    frameworks::langchain(&place_order_call());
}

#[test]
fn fastmcp_client_converts_every_tool_and_raises_our_error() {
    frameworks::fastmcp(&place_order_call());
}

#[test]
fn google_adk_declares_every_tool_and_shows_the_model_our_error() {
    frameworks::google_adk(&place_order_call());
}

#[test]
fn ai_sdk_converts_every_tool_and_shows_the_model_our_error() {
    frameworks::ai_sdk(&place_order_call());
}

#[test]
fn openai_agents_js_converts_every_tool_and_shows_the_model_our_error() {
    frameworks::openai_agents_js(&place_order_call());
}

#[test]
fn google_genai_converts_every_tool_under_the_default_profile() {
    let report = agent_frameworks(&["genai-convert", CORPUS]);
    let count = mcp_tool_corpus::tools().len();
    assert_eq!(report["tools"], count, "{report}");
    assert_eq!(report["converted"], count, "{report}");
    assert_eq!(report["warnings"], json!([]), "{report}");
}

/// openai-agents (`convert_schemas_to_strict`) checks each schema with
/// `ensure_strict_json_schema` and, when that fails, falls back to non-strict with only an
/// INFO line; recursive types fell back.
#[test]
fn openai_agents_takes_every_tool_as_strict_under_the_strict_profile() {
    let report = agent_frameworks(&["openai-agents-strict", CORPUS, "--schema-profile", "strict"]);
    let count = mcp_tool_corpus::tools().len();
    assert_eq!(report["tools"], count, "{report}");
    assert_eq!(report["not_strict"], json!([]), "{report}");
    assert_eq!(report["logged"], json!([]), "{report}");
    let strict = report["strict"].as_array().expect("the strict tools");
    assert!(strict.contains(&json!("echo_tree")) && strict.contains(&json!("echo_chain")));
}

/// pydantic-ai shows the model a result's `structuredContent` when it has one: an error of a
/// tool without output schema must reach it as our text, the `Valid call` line included.
#[test]
fn pydantic_ai_shows_the_model_our_text_for_an_error() {
    let arguments = r#"{"sku": "abc", "quantity": "five", "price": 1.5}"#;
    let report = agent_frameworks(&["pydantic-ai-error", CORPUS, "place_order", arguments]);
    assert_eq!(report["has_output_schema"], false, "{report}");
    assert_eq!(
        report["model_sees"],
        "Invalid arguments for tool 'place_order': 2 problems.\n\
         - Argument 'sku' must match the pattern `^[A-Z]{3}-[0-9]{4}$`, but received 'abc'.\n\
         - Argument 'quantity' expected an integer, but received 'five'.\n\
         Valid call: place_order(sku: a string matching `^[A-Z]{3}-[0-9]{4}$`, quantity: an \
         integer between 1 and 100, price: a number greater than 0.0, color?: one of 'red', \
         'dark_green', 'blue', tags?: an array of strings, limit?: an integer of at least 0 \
         (default 10), express?: a boolean (default false))",
        "{report}"
    );
}

/// The default profile publishes no `additionalProperties: false`, and the runtime still
/// rejects an unknown key deep inside an argument.
#[tokio::test]
async fn unknown_keys_are_rejected_at_every_depth_whatever_the_schema_says() {
    let server = mcp_tool_corpus::server(SchemaProfile::Portable);
    let registry = server.registry();
    let listed = registry.list();
    let order = listed
        .iter()
        .find(|tool| tool.name == "echo_order")
        .expect("echo_order");
    let published = Value::Object((*order.input_schema).clone());
    assert!(
        !published.to_string().contains("additionalProperties"),
        "{published}"
    );
    let value = json!({
        "ship_to": {"street": "1 Main St", "city": "Springfield", "zip": "12345", "floor": 3},
        "lines": [{"sku": "ABC-0001", "quantity": 1, "qty": 2}]
    });
    let result = server
        .call("echo_order", Some(json!({"value": value})))
        .await
        .expect("a result");
    assert_eq!(result.is_error, Some(true));
    let envelope = &result.meta.as_ref().expect("_meta").0[META_KEY];
    let unknown: Vec<&str> = envelope["violations"]
        .as_array()
        .expect("violations")
        .iter()
        .filter(|v| v["problem"] == "unknown_argument")
        .filter_map(|v| v["path"].as_str())
        .collect();
    assert_eq!(
        unknown,
        ["value.ship_to.floor", "value.lines[0].qty"],
        "{envelope}"
    );
}
