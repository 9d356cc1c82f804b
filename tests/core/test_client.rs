//! The test client (feature `testing`): calls through the stdio line transport in memory,
//! the error envelope parsed, structured results typed, progress and logs recorded, sampling
//! and elicitation answered by script, list changes counted, `_meta` sent on a call.

#![allow(deprecated)] // rmcp marks MCP logging and sampling deprecated (SEP-2577).

use mcp_tool_runtime::rmcp::model::{
    CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult,
    ElicitationAction, LoggingLevel, ProtocolVersion, SamplingMessage,
};
use mcp_tool_runtime::rmcp::service::ServiceError;
use mcp_tool_runtime::testing::{TestClient, TestError};
use mcp_tool_runtime::{Json, McpServer, ToolContext, ToolError, mcp_tool};
use serde_json::{Value, json};

use crate::fixtures::{Quote, quote_tool};

/// Count to `to`, with progress and a log line per step.
#[mcp_tool]
async fn count(to: u32, ctx: ToolContext) -> Result<String, ToolError> {
    for step in 1..=to {
        ctx.progress(f64::from(step), Some(f64::from(to)), None)
            .await?;
        ctx.debug(format!("step {step}")).await?;
    }
    ctx.info("done").await?;
    Ok(format!("counted to {to}"))
}

/// The first `n` squares.
#[mcp_tool]
fn squares(n: u32) -> Json<Vec<u32>> {
    Json((1..=n).map(|i| i * i).collect())
}

/// Ask the model.
#[mcp_tool]
async fn ask_model(prompt: String, ctx: ToolContext) -> Result<String, ToolError> {
    let peer = ctx
        .peer()
        .ok_or_else(|| ToolError::unavailable("no client"))?;
    let request =
        CreateMessageRequestParams::new(vec![SamplingMessage::user_text(prompt.as_str())], 50);
    let answer = peer
        .create_message(request)
        .await
        .map_err(|error| ToolError::upstream(format!("no sampling: {error}")))?;
    let text = answer
        .message
        .content
        .first()
        .and_then(|block| block.as_text())
        .map(|text| text.text.clone())
        .unwrap_or_default();
    Ok(format!("the model said: {text}"))
}

/// Ask the user for a name.
#[mcp_tool]
async fn ask_user(ctx: ToolContext) -> Result<String, ToolError> {
    let peer = ctx
        .peer()
        .ok_or_else(|| ToolError::unavailable("no client"))?;
    let params: ElicitRequestParams = serde_json::from_value(json!({
        "mode": "form",
        "message": "Your name?",
        "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}
    }))?;
    let answer = peer
        .create_elicitation(params)
        .await
        .map_err(|error| ToolError::upstream(format!("no elicitation: {error}")))?;
    Ok(format!(
        "{:?} {}",
        answer.action,
        answer.content.unwrap_or_default()
    ))
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Name {
    name: String,
}

/// Ask the user for a name, then the model for a greeting: written once for both revisions.
#[mcp_tool]
async fn greet_twice(ctx: ToolContext) -> Result<String, ToolError> {
    let name = ctx.elicit::<Name>("Your name?").await?;
    let name = name
        .accepted()
        .map_or_else(|| "stranger".into(), |answer| answer.name);
    let prompt = format!("Greet {name}.");
    let request =
        CreateMessageRequestParams::new(vec![SamplingMessage::user_text(prompt.as_str())], 50);
    let answer = ctx.sample(request).await?;
    let text = answer
        .message
        .content
        .first()
        .and_then(|block| block.as_text());
    Ok(text.map(|text| text.text.clone()).unwrap_or_default())
}

fn server() -> McpServer<()> {
    McpServer::builder(())
        .tool(count_tool())
        .tool(squares_tool())
        .tool(quote_tool())
        .tool(ask_model_tool())
        .tool(ask_user_tool())
        .build()
        .unwrap()
}

fn greeter() -> McpServer<()> {
    McpServer::builder(())
        .tool(greet_twice_tool())
        .build()
        .unwrap()
}

#[tokio::test]
async fn lists_and_calls_through_the_line_transport() {
    let client = TestClient::connect(&server()).await.unwrap();
    let names: Vec<String> = client
        .list_tools()
        .await
        .unwrap()
        .iter()
        .map(|tool| tool.name.to_string())
        .collect();
    assert_eq!(
        names,
        ["count", "squares", "quote", "ask_model", "ask_user"]
    );
    let refused = client
        .call("quote", json!({"sku": "ABC-0001", "quantity": "five"}))
        .await
        .unwrap();
    assert!(refused.is_error());
    let envelope = refused.envelope.expect("an envelope");
    assert_eq!(envelope.code, "invalid_arguments");
    assert_eq!(
        envelope.violations[0]["message"],
        "Argument 'quantity' expected an integer, but received 'five'."
    );
    let unknown = client.call("qoute", json!({})).await.unwrap_err();
    let ServiceError::McpError(error) = unknown else {
        panic!("a JSON-RPC error expected: {unknown:?}");
    };
    assert_eq!(
        error.message,
        "Unknown tool 'qoute'. Did you mean 'quote'? Available tools: count, squares, quote, ask_model, ask_user."
    );
}

#[tokio::test]
async fn call_json_reads_structured_results_wrapped_or_not() {
    let client = TestClient::connect(&server()).await.unwrap();
    let quote: Value = client
        .call_json("quote", json!({"sku": "ABC-0001", "quantity": 2}))
        .await
        .unwrap();
    assert_eq!(quote, json!({"sku": "ABC-0001", "total_cents": 500}));
    let squares: Vec<u32> = client.call_json("squares", json!({"n": 4})).await.unwrap();
    assert_eq!(squares, [1, 4, 9, 16]);
    let failed = client
        .call_json::<Value>("quote", json!({"sku": "x", "quantity": 1}))
        .await
        .unwrap_err();
    let TestError::Tool(outcome) = failed else {
        panic!("a tool error expected: {failed}");
    };
    assert_eq!(outcome.envelope.unwrap().code, "invalid_arguments");
    let _typed: fn() -> Option<Quote> = || None;
}

#[tokio::test]
async fn progress_and_logs_are_recorded_before_the_answer() {
    let client = TestClient::connect(&server()).await.unwrap();
    client.set_log_level(LoggingLevel::Debug).await.unwrap();
    let answer = client.call("count", json!({"to": 3})).await.unwrap();
    assert_eq!(answer.text(), "counted to 3");
    let progress: Vec<(f64, Option<f64>)> = client
        .progress()
        .iter()
        .map(|p| (p.progress, p.total))
        .collect();
    assert_eq!(
        progress,
        [(1.0, Some(3.0)), (2.0, Some(3.0)), (3.0, Some(3.0))]
    );
    let logs: Vec<(LoggingLevel, Value)> = client
        .logs()
        .iter()
        .map(|log| (log.level, log.data.clone()))
        .collect();
    assert_eq!(
        logs,
        [
            (LoggingLevel::Debug, json!("step 1")),
            (LoggingLevel::Debug, json!("step 2")),
            (LoggingLevel::Debug, json!("step 3")),
            (LoggingLevel::Info, json!("done")),
        ]
    );
    // Each call has its own progress token (rmcp's client asks for progress every time).
    client.call("count", json!({"to": 2})).await.unwrap();
    let tokens: Vec<_> = client
        .progress()
        .iter()
        .map(|p| p.progress_token.clone())
        .collect();
    assert_eq!(tokens.len(), 5);
    assert_eq!(tokens[0], tokens[2]);
    assert_ne!(tokens[2], tokens[3]);
}

#[tokio::test]
async fn on_2026_07_28_logs_come_at_the_level_the_calls_meta_names() {
    let client = TestClient::builder()
        .revision(ProtocolVersion::V_2026_07_28)
        .connect(&server())
        .await
        .unwrap();
    // 2026-07-28 has no session level: a call that names none gets no logs.
    client.call("count", json!({"to": 2})).await.unwrap();
    assert!(client.logs().is_empty(), "{:?}", client.logs());
    let info = json!({"io.modelcontextprotocol/logLevel": "info"});
    let answer = client
        .call_with_meta("count", json!({"to": 2}), info)
        .await
        .unwrap();
    assert_eq!(answer.text(), "counted to 2");
    let levels = |client: &TestClient| -> Vec<(LoggingLevel, Value)> {
        client
            .logs()
            .iter()
            .map(|log| (log.level, log.data.clone()))
            .collect()
    };
    assert_eq!(levels(&client), [(LoggingLevel::Info, json!("done"))]);
    let debug = json!({"io.modelcontextprotocol/logLevel": "debug"});
    client
        .call_with_meta("count", json!({"to": 1}), debug)
        .await
        .unwrap();
    assert_eq!(
        levels(&client)[1..],
        [
            (LoggingLevel::Debug, json!("step 1")),
            (LoggingLevel::Info, json!("done")),
        ]
    );
}

#[tokio::test]
async fn sampling_and_elicitation_are_answered_by_script() {
    let client = TestClient::builder()
        .on_sampling(|request: CreateMessageRequestParams| {
            let asked = request.messages[0]
                .content
                .first()
                .and_then(|block| block.as_text())
                .map(|text| text.text.clone())
                .unwrap_or_default();
            CreateMessageResult::new(
                SamplingMessage::assistant_text(format!("you asked '{asked}'")),
                "scripted".into(),
            )
        })
        .on_elicitation(|_request| {
            ElicitResult::new(ElicitationAction::Accept).with_content(json!({"name": "Ada"}))
        })
        .connect(&server())
        .await
        .unwrap();
    let sampled = client
        .call("ask_model", json!({"prompt": "2+2?"}))
        .await
        .unwrap();
    assert_eq!(sampled.text(), "the model said: you asked '2+2?'");
    let elicited = client.call("ask_user", json!({})).await.unwrap();
    assert_eq!(elicited.text(), r#"Accept {"name":"Ada"}"#);
}

#[tokio::test]
async fn without_a_script_sampling_is_refused() {
    let client = TestClient::connect(&server()).await.unwrap();
    let refused = client
        .call("ask_model", json!({"prompt": "2+2?"}))
        .await
        .unwrap();
    assert_eq!(refused.envelope.unwrap().code, "upstream_error");
}

#[tokio::test]
async fn tool_list_changes_are_counted() {
    let server = server();
    let client = TestClient::connect(&server).await.unwrap();
    assert_eq!(client.tool_list_changes(), 0);
    server.tools().disable("count");
    // The notification is sent on a task of its own: wait for it, up to two seconds.
    for _ in 0..200 {
        if client.tool_list_changes() > 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(client.tool_list_changes(), 1);
    let listed = client.list_tools().await.unwrap();
    assert!(listed.iter().all(|tool| tool.name != "count"));
}

#[tokio::test]
async fn a_tool_asks_the_same_way_on_both_revisions() {
    for revision in [ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2026_07_28] {
        let client = TestClient::builder()
            .revision(revision.clone())
            .on_elicitation(|_request| {
                ElicitResult::new(ElicitationAction::Accept).with_content(json!({"name": "Ada"}))
            })
            .on_sampling(|request: CreateMessageRequestParams| {
                let asked = request.messages[0]
                    .content
                    .first()
                    .and_then(|block| block.as_text());
                let asked = asked.map(|text| text.text.clone()).unwrap_or_default();
                CreateMessageResult::new(
                    SamplingMessage::assistant_text(format!("({asked}) Hello!")),
                    "scripted".into(),
                )
            })
            .connect(&greeter())
            .await
            .unwrap();
        let outcome = client.call("greet_twice", json!({})).await.unwrap();
        assert_eq!(outcome.text(), "(Greet Ada.) Hello!", "{revision}");
    }
}

#[tokio::test]
async fn a_2026_client_without_sampling_gets_minus_32021() {
    let client = TestClient::builder()
        .revision(ProtocolVersion::V_2026_07_28)
        .on_elicitation(|_request| {
            ElicitResult::new(ElicitationAction::Accept).with_content(json!({"name": "Ada"}))
        })
        .connect(&greeter())
        .await
        .unwrap();
    let refused = client.call("greet_twice", json!({})).await.unwrap_err();
    let ServiceError::McpError(error) = refused else {
        panic!("expected a JSON-RPC error: {refused:?}");
    };
    assert_eq!(error.code.0, -32021, "{error:?}");
}
