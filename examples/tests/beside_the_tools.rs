//! Resources, prompts and completions served beside the tools (`ServerBuilder::with_handler`):
//! rmcp's own client drives the real `conformance` binary over real pipes, and a server
//! without a handler (`inventory`) still answers as before.

#![allow(deprecated)] // rmcp marks resources/subscribe legacy (2026-07-28); 2025-11-25 has it.

use std::process::Stdio;

use mcp_tool_test_support::stdio::StdioSession;
use rmcp::ServiceExt;
use rmcp::model::{
    ArgumentInfo, CompleteRequestParams, ErrorCode, GetPromptRequestParams,
    ReadResourceRequestParams, Reference, ResourceContents, SubscribeRequestParams,
    UnsubscribeRequestParams,
};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};
use tokio::process::Command;

const CONFORMANCE: &str = env!("CARGO_BIN_EXE_conformance");
const INVENTORY: &str = env!("CARGO_BIN_EXE_inventory");

async fn connect() -> RunningService<RoleClient, ()> {
    let mut command = Command::new(CONFORMANCE);
    command.env("RUST_LOG", "warn");
    let (transport, _stderr) = TokioChildProcess::builder(command)
        .stderr(Stdio::null())
        .spawn()
        .expect("start conformance");
    ().serve(transport).await.expect("MCP handshake")
}

fn json_of(value: impl serde::Serialize) -> Value {
    serde_json::to_value(value).expect("serializable")
}

#[tokio::test]
async fn initialize_merges_the_handler_capabilities_with_the_tools_and_logging() {
    let client = connect().await;
    let info = client.peer().peer_info().expect("server info");
    assert_eq!(
        json_of(&info.capabilities),
        json!({
            "extensions": {"io.modelcontextprotocol/tasks": {}},
            "logging": {},
            "completions": {},
            "prompts": {},
            "resources": {"subscribe": true},
            "tools": {"listChanged": true},
        })
    );
    assert_eq!(
        info.server_info.as_ref().map(|server| server.name.as_str()),
        Some("conformance")
    );
    let tools = client.peer().list_all_tools().await.expect("tools/list");
    assert!(tools.iter().any(|tool| tool.name == "test_simple_text"));
    let _ = client.cancel().await;
}

#[tokio::test]
async fn resources_are_listed_and_read_through_the_handler() {
    let client = connect().await;
    let peer = client.peer();
    let listed: Vec<String> = peer
        .list_all_resources()
        .await
        .expect("resources/list")
        .into_iter()
        .map(|resource| resource.uri.clone())
        .collect();
    assert_eq!(
        listed,
        [
            "test://static-text",
            "test://static-binary",
            "test://watched-resource"
        ]
    );
    let templates = peer
        .list_all_resource_templates()
        .await
        .expect("resources/templates/list");
    assert_eq!(templates[0].uri_template, "test://template/{id}/data");

    let read = |uri: &str| peer.read_resource(ReadResourceRequestParams::new(uri));
    let text = read("test://static-text").await.expect("read text");
    assert_eq!(
        json_of(&text.contents),
        json!([{"uri": "test://static-text", "mimeType": "text/plain",
                "text": "This is the content of the static text resource."}])
    );
    let binary = read("test://static-binary").await.expect("read binary");
    assert!(matches!(
        &binary.contents[0],
        ResourceContents::BlobResourceContents { mime_type: Some(mime), .. } if mime == "image/png"
    ));
    let templated = read("test://template/123/data")
        .await
        .expect("read template");
    assert_eq!(
        json_of(&templated.contents)[0]["text"],
        r#"{"id":"123","templateTest":true,"data":"Data for ID: 123"}"#
    );
    let ServiceError::McpError(missing) = read("test://nowhere").await.expect_err("no such uri")
    else {
        panic!("not a JSON-RPC error");
    };
    assert_eq!(missing.code, ErrorCode::RESOURCE_NOT_FOUND);
    assert_eq!(missing.message, "No resource at 'test://nowhere'.");
    assert_eq!(missing.data, Some(json!({"uri": "test://nowhere"})));

    peer.subscribe(SubscribeRequestParams::new("test://watched-resource"))
        .await
        .expect("resources/subscribe");
    peer.unsubscribe(UnsubscribeRequestParams::new("test://watched-resource"))
        .await
        .expect("resources/unsubscribe");
    let _ = client.cancel().await;
}

#[tokio::test]
async fn prompts_are_listed_and_got_through_the_handler() {
    let client = connect().await;
    let peer = client.peer();
    let prompts = peer.list_all_prompts().await.expect("prompts/list");
    let names: Vec<&str> = prompts.iter().map(|prompt| prompt.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "test_prompt_with_arguments",
            "test_prompt_with_embedded_resource",
            "test_prompt_with_image",
            "test_simple_prompt",
            "test_input_required_result_prompt"
        ]
    );
    let with_arguments = &prompts[0];
    assert_eq!(
        json_of(&with_arguments.arguments),
        json!([
            {"name": "arg1", "description": "First test argument.", "required": true},
            {"name": "arg2", "description": "Second test argument.", "required": true}
        ])
    );
    let arguments = json!({"arg1": "hello", "arg2": "world"});
    let got = peer
        .get_prompt(
            GetPromptRequestParams::new("test_prompt_with_arguments")
                .with_arguments(arguments.as_object().cloned().expect("object")),
        )
        .await
        .expect("prompts/get");
    assert_eq!(
        json_of(&got.messages),
        json!([{"role": "user", "content": {"type": "text",
            "text": "Prompt with arguments: arg1='hello', arg2='world'"}}])
    );
    let image = peer
        .get_prompt(GetPromptRequestParams::new("test_prompt_with_image"))
        .await
        .expect("prompts/get image");
    assert_eq!(
        json_of(&image.messages)[0]["content"]["mimeType"],
        "image/png"
    );
    let _ = client.cancel().await;
}

#[tokio::test]
async fn completion_goes_to_the_handler() {
    let client = connect().await;
    let completion = client
        .peer()
        .complete(CompleteRequestParams::new(
            Reference::for_prompt("test_prompt_with_arguments"),
            ArgumentInfo::new("arg1", "pa"),
        ))
        .await
        .expect("completion/complete");
    assert_eq!(completion.completion.values, ["paris", "park", "party"]);
    let _ = client.cancel().await;
}

#[test]
fn without_a_handler_the_server_answers_as_before() {
    let mut session = StdioSession::spawn(INVENTORY, &[]);
    let init = session.request(
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {},
               "clientInfo": {"name": "e2e", "version": "1"}}),
    );
    assert_eq!(
        init["result"]["capabilities"],
        json!({"logging": {}, "tools": {"listChanged": true}}),
        "{init}"
    );
    session.notify("notifications/initialized", None);
    let listed = session.request("resources/list", json!({}));
    assert_eq!(listed["result"], json!({"resources": []}), "{listed}");
    let prompts = session.request("prompts/list", json!({}));
    assert_eq!(prompts["result"], json!({"prompts": []}), "{prompts}");
    for method in ["resources/subscribe", "resources/unsubscribe"] {
        let answer = session.request(method, json!({"uri": "test://x"}));
        let unknown = session.request("resources/delete", json!({"uri": "test://x"}));
        assert_eq!(answer["error"]["code"], -32601, "{answer}");
        assert_eq!(
            answer["error"]["message"],
            format!(
                "Method not found: '{method}'. {}",
                unknown["error"]["message"]
                    .as_str()
                    .and_then(|text| text.split_once(". "))
                    .map(|(_, rest)| rest)
                    .expect("the transport's sentence")
            )
        );
        assert_eq!(
            answer["error"]["data"]["supported"],
            unknown["error"]["data"]["supported"]
        );
    }
}
