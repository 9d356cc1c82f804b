//! rmcp's counter example (`examples/servers/src/common/counter.rs` in rmcp's repository),
//! ported to mcp-tool as `docs/from-rmcp.md` shows it: the port compiled as written, then
//! served to rmcp's client through the test client, tools, prompts and resources together.

use mcp_tool_runtime::testing::TestClient;
use rmcp::model::{GetPromptRequestParams, ReadResourceRequestParams};
use serde_json::json;

// --- the port, as docs/from-rmcp.md shows it ---
use mcp_tool_runtime::{
    McpServer, ToolContext, ToolDef, ToolError, mcp_tool, mcp_tools, registry::RegistryError,
};
use rmcp::handler::server::{router::prompt::PromptRouter, wrapper::Parameters};
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{
    ErrorData as McpError, RoleServer, ServerHandler, prompt, prompt_handler, prompt_router,
};
use serde_json::Value;
use tokio::sync::Mutex;

#[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
struct ExamplePromptArgs {
    /// A message to put in the prompt
    pub message: String,
}

/// MCP spec types prompt arguments as `Record<string, string>`, so
/// spec-compliant clients stringify all values. Accept both wire forms.
fn deserialize_i32_from_string_or_int<'de, D>(deserializer: D) -> Result<i32, D::Error>
where
    D: serde::Deserializer<'de>,
{
    use serde::Deserialize;
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum StringOrInt {
        Int(i32),
        Str(String),
    }
    match StringOrInt::deserialize(deserializer)? {
        StringOrInt::Int(n) => Ok(n),
        StringOrInt::Str(s) => s.parse::<i32>().map_err(serde::de::Error::custom),
    }
}

#[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
struct CounterAnalysisArgs {
    /// The target value you're trying to reach
    #[serde(deserialize_with = "deserialize_i32_from_string_or_int")]
    pub goal: i32,
    /// Preferred strategy: 'fast' or 'careful'
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strategy: Option<String>,
}

/// The tools' state and the prompts' and resources' handler: one value, shared by the
/// server, so the counter needs no `Arc`.
struct Counter {
    counter: Mutex<i32>,
    prompt_router: PromptRouter<Counter>,
}

impl Counter {
    fn new() -> Self {
        Self {
            counter: Mutex::new(0),
            prompt_router: Self::prompt_router(),
        }
    }

    fn _create_resource_text(&self, uri: &str, name: &str) -> Resource {
        Resource::new(uri, name.to_string())
    }
}

#[mcp_tools]
impl Counter {
    /// Increment the counter by 1
    #[mcp_tool]
    async fn increment(&self) -> String {
        let mut counter = self.counter.lock().await;
        *counter += 1;
        counter.to_string()
    }

    /// Decrement the counter by 1
    #[mcp_tool]
    async fn decrement(&self) -> String {
        let mut counter = self.counter.lock().await;
        *counter -= 1;
        counter.to_string()
    }

    /// Get the current counter value
    #[mcp_tool(read_only)]
    async fn get_value(&self) -> String {
        self.counter.lock().await.to_string()
    }

    /// Long running task example
    #[mcp_tool]
    async fn long_task(&self) -> String {
        tokio::time::sleep(std::time::Duration::from_secs(10)).await;
        "Long task completed".into()
    }

    /// Say hello to the client
    #[mcp_tool]
    fn say_hello(&self) -> String {
        "hello".into()
    }

    /// Calculate the sum of two numbers
    #[mcp_tool]
    fn sum(&self, a: i32, b: i32) -> String {
        (a + b).to_string()
    }

    /// Get the session ID for this connection
    #[mcp_tool]
    fn get_session_id(&self, ctx: ToolContext) -> String {
        let session_id = ctx
            .http_parts()
            .and_then(|parts| parts.headers.get("mcp-session-id"))
            .map(|v| v.to_str().unwrap_or("(non-ascii)").to_owned());
        session_id.unwrap_or_else(|| "no session (not running over streamable HTTP?)".into())
    }
}

/// Repeat what you say: any JSON object, so its input is a schema rather than a Rust type.
fn echo_tool() -> ToolDef<Counter> {
    let any_object = json!({"type": "object"});
    ToolDef::from_schema(
        "echo",
        "Repeat what you say",
        any_object,
        |object: Value, _ctx| async move { Ok::<_, ToolError>(object.to_string()) },
    )
    .expect("an object schema the runtime can check")
}

#[prompt_router]
impl Counter {
    /// This is an example prompt that takes one required argument, message
    #[prompt(
        name = "example_prompt",
        meta = MetaObject(rmcp::object!({"meta_key": "meta_value"}))
    )]
    async fn example_prompt(
        &self,
        Parameters(args): Parameters<ExamplePromptArgs>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<Vec<PromptMessage>, McpError> {
        let prompt = format!(
            "This is an example prompt with your message here: '{}'",
            args.message
        );
        Ok(vec![PromptMessage::new_text(Role::User, prompt)])
    }

    /// Analyze the current counter value and suggest next steps
    #[prompt(name = "counter_analysis")]
    async fn counter_analysis(
        &self,
        Parameters(args): Parameters<CounterAnalysisArgs>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<GetPromptResult, McpError> {
        let strategy = args.strategy.unwrap_or_else(|| "careful".to_string());
        let current_value = *self.counter.lock().await;
        let difference = args.goal - current_value;

        let messages = vec![
            PromptMessage::new_text(
                Role::Assistant,
                "I'll analyze the counter situation and suggest the best approach.",
            ),
            PromptMessage::new_text(
                Role::User,
                format!(
                    "Current counter value: {}\nGoal value: {}\nDifference: {}\nStrategy preference: {}\n\nPlease analyze the situation and suggest the best approach to reach the goal.",
                    current_value, args.goal, difference, strategy
                ),
            ),
        ];

        Ok(GetPromptResult::new(messages).with_description(format!(
            "Counter analysis for reaching {} from {}",
            args.goal, current_value
        )))
    }
}

#[prompt_handler(
    router = self.prompt_router,
    meta = MetaObject(rmcp::object!({"router_meta_key": "router_meta_value"}))
)]
impl ServerHandler for Counter {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_prompts()
                .enable_resources()
                .build(),
        )
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        Ok(ListResourcesResult {
            resources: vec![
                self._create_resource_text("str:////Users/to/some/path/", "cwd"),
                self._create_resource_text("memo://insights", "memo-name"),
            ],
            ..Default::default()
        })
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let uri = &request.uri;
        match uri.as_str() {
            "str:////Users/to/some/path/" => {
                let cwd = "/Users/to/some/path/";
                Ok(ReadResourceResult::new(vec![ResourceContents::text(cwd, uri.clone())]).into())
            }
            "memo://insights" => {
                let memo = "Business Intelligence Memo\n\nAnalysis has revealed 5 key insights ...";
                Ok(ReadResourceResult::new(vec![ResourceContents::text(memo, uri.clone())]).into())
            }
            _ => Err(McpError::resource_not_found(
                "resource_not_found",
                Some(json!({
                    "uri": uri
                })),
            )),
        }
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        Ok(ListResourceTemplatesResult {
            resource_templates: Vec::new(),
            ..Default::default()
        })
    }
}

fn counter_server() -> Result<McpServer<Counter>, RegistryError> {
    McpServer::builder(Counter::new())
        .tool_set()
        .tool(echo_tool())
        .with_handler_of(|counter: &Counter| counter)
        .instructions("This server provides counter tools and prompts. Tools: increment, decrement, get_value, say_hello, echo, sum. Prompts: example_prompt (takes a message), counter_analysis (analyzes counter state with a goal).")
        .build()
}
// --- end of the port ---

#[tokio::test]
async fn the_ported_counter_serves_its_tools_prompts_and_resources_on_one_state() {
    let server = counter_server().expect("the port builds");
    let client = TestClient::connect(&server).await.expect("handshake");

    let names: Vec<String> = client
        .list_tools()
        .await
        .expect("tools/list")
        .iter()
        .map(|tool| tool.name.to_string())
        .collect();
    assert_eq!(
        names,
        [
            "increment",
            "decrement",
            "get_value",
            "long_task",
            "say_hello",
            "sum",
            "get_session_id",
            "echo"
        ]
    );
    for _ in 0..3 {
        client.call("increment", json!({})).await.expect("a call");
    }
    let value = client.call("decrement", json!({})).await.expect("a call");
    assert_eq!(value.text(), "2");
    let sum = client
        .call("sum", json!({"a": 2, "b": "3"}))
        .await
        .expect("a call");
    assert_eq!(sum.text(), "5");
    let echoed = client
        .call("echo", json!({"say": "hi"}))
        .await
        .expect("a call");
    assert_eq!(echoed.text(), r#"{"say":"hi"}"#);
    let session = client
        .call("get_session_id", json!({}))
        .await
        .expect("a call");
    assert_eq!(
        session.text(),
        "no session (not running over streamable HTTP?)"
    );

    // The prompt reads the counter the tools changed: one state, no second copy.
    let arguments = json!({"goal": "5"}).as_object().cloned().expect("object");
    let analysis = client
        .peer()
        .get_prompt(GetPromptRequestParams::new("counter_analysis").with_arguments(arguments))
        .await
        .expect("prompts/get");
    assert_eq!(
        analysis.description.as_deref(),
        Some("Counter analysis for reaching 5 from 2")
    );
    let prompts = client
        .peer()
        .list_all_prompts()
        .await
        .expect("prompts/list");
    assert_eq!(prompts.len(), 2);

    let resources = client
        .peer()
        .list_all_resources()
        .await
        .expect("resources/list");
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(uris, ["str:////Users/to/some/path/", "memo://insights"]);
    let memo = client
        .peer()
        .read_resource(ReadResourceRequestParams::new("memo://insights"))
        .await
        .expect("resources/read");
    let text = serde_json::to_value(&memo).expect("serializable");
    assert!(
        text.to_string().contains("Business Intelligence Memo"),
        "{text}"
    );

    let info = client.peer().peer_info().expect("server info");
    assert!(info.capabilities.prompts.is_some() && info.capabilities.resources.is_some());
    assert!(
        info.instructions
            .as_deref()
            .is_some_and(|text| text.starts_with("This server provides counter tools"))
    );
}
