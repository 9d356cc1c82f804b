//! The "Resources and prompts beside the tools" chapter's example
//! (mcp-tool-runtime/docs/beside-the-tools.md), compiled as written and
//! served through the stdio line transport over an in-memory pipe to rmcp's client.

use mcp_tool_runtime::{StdioOptions, stdio::LineTransport};
use rmcp::ServiceExt;
use rmcp::model::GetPromptRequestParams;
use serde_json::json;

// --- the chapter's example, verbatim ---
use mcp_tool_runtime::{McpServer, mcp_tool};
use rmcp::handler::server::{router::prompt::PromptRouter, wrapper::Parameters};
use rmcp::model::{PromptMessage, Role, ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, prompt, prompt_handler, prompt_router};

/// Add two numbers.
#[mcp_tool]
fn add(a: i64, b: i64) -> String {
    (a + b).to_string()
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Topic {
    /// What to explain.
    topic: String,
}

#[derive(Clone)]
struct Prompts {
    prompt_router: PromptRouter<Self>,
}

#[prompt_router]
impl Prompts {
    /// Explain a topic with arithmetic examples.
    #[prompt(name = "explain")]
    async fn explain(&self, Parameters(Topic { topic }): Parameters<Topic>) -> Vec<PromptMessage> {
        vec![PromptMessage::new_text(
            Role::User,
            format!("Explain {topic}; use the add tool."),
        )]
    }
}

#[prompt_handler(router = self.prompt_router)]
impl ServerHandler for Prompts {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_prompts().build())
    }
}

fn readme_server() -> Result<McpServer<()>, mcp_tool_runtime::registry::RegistryError> {
    let server = McpServer::builder(())
        .tool(add_tool())
        .with_handler(Prompts {
            prompt_router: Prompts::prompt_router(),
        })
        .build()?;
    Ok(server)
}
// --- end of the chapter's example ---

#[tokio::test]
async fn the_readme_example_serves_its_prompt_beside_its_tool() {
    let server = readme_server().expect("the chapter's server builds");
    let (client_side, server_side) = tokio::io::duplex(64 * 1024);
    let (server_read, server_write) = tokio::io::split(server_side);
    let transport = LineTransport::new(server_read, server_write, &StdioOptions::default());
    let serving = tokio::spawn(server.serve_lines(transport));

    let client = ().serve(tokio::io::split(client_side)).await.expect("handshake");
    let capabilities = &client.peer().peer_info().expect("server info").capabilities;
    assert_eq!(
        serde_json::to_value(capabilities).expect("serializable"),
        json!({"logging": {}, "prompts": {}, "tools": {"listChanged": true}})
    );
    let prompts = client
        .peer()
        .list_all_prompts()
        .await
        .expect("prompts/list");
    assert_eq!(prompts[0].name, "explain");
    assert_eq!(
        prompts[0].description.as_deref(),
        Some("Explain a topic with arithmetic examples.")
    );
    let arguments = json!({"topic": "sums"})
        .as_object()
        .cloned()
        .expect("object");
    let got = client
        .peer()
        .get_prompt(GetPromptRequestParams::new("explain").with_arguments(arguments))
        .await
        .expect("prompts/get");
    assert_eq!(
        got.messages[0]
            .content
            .as_text()
            .map(|text| text.text.as_str()),
        Some("Explain sums; use the add tool.")
    );
    let tools = client.peer().list_all_tools().await.expect("tools/list");
    assert_eq!(tools[0].name, "add");
    let _ = client.cancel().await;
    serving.abort();
}
