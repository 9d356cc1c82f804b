//! What differs on protocol 2026-07-28: caching hints on `tools/list` and `server/discover`,
//! and the life of a sealed `requestState`. Requests go through the rmcp `ServerHandler`
//! with a real `RequestContext` whose `_meta` names the revision.

use std::time::Duration;

use mcp_tool_runtime::rmcp::ServerHandler;
use mcp_tool_runtime::rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, ClientCapabilities, ErrorData,
    ListToolsResult, NumberOrString, ProtocolVersion,
};
use mcp_tool_runtime::rmcp::service::{RequestContext, RoleServer, RunningService, serve_directly};
use mcp_tool_runtime::{
    Elicitation, McpServer, ToolContext, ToolError, ToolInfo, mcp_tool, registry::RegistryError,
};
use serde_json::json;

/// Add two numbers.
#[mcp_tool]
async fn add(a: i64, b: i64) -> String {
    (a + b).to_string()
}

/// Today's special, which changes every minute.
#[mcp_tool(cache_ttl = "1m")]
async fn special() -> String {
    "tea".into()
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Name {
    name: String,
}

/// Greet the user by name.
#[mcp_tool]
async fn greet(ctx: ToolContext) -> Result<String, ToolError> {
    let answer = ctx.input("user_name").elicit::<Name>("Your name?").await?;
    Ok(match answer {
        Elicitation::Accepted(Name { name }) => format!("Hello, {name}!"),
        _ => "Hello!".into(),
    })
}

#[derive(schemars::JsonSchema)]
struct Empty {}

/// A server reached through a real rmcp peer, whose requests are built by hand.
struct Served {
    server: McpServer<()>,
    running: RunningService<RoleServer, McpServer<()>>,
    _client_end: tokio::io::DuplexStream,
}

impl Served {
    fn new(server: McpServer<()>) -> Self {
        let (server_end, client_end) = tokio::io::duplex(4096);
        let running = serve_directly(server.clone(), server_end, None);
        Self {
            server,
            running,
            _client_end: client_end,
        }
    }

    /// A request on `version`: with the `_meta` of a 2026-07-28 client (which declares
    /// elicitation), or none for an older one.
    fn context(&self, version: Option<ProtocolVersion>) -> RequestContext<RoleServer> {
        let mut context =
            RequestContext::new(NumberOrString::Number(1), self.running.peer().clone());
        if let Some(version) = version {
            context.meta.set_protocol_version(version);
            let capabilities: ClientCapabilities =
                serde_json::from_value(json!({"elicitation": {}})).expect("capabilities");
            context.meta.set_client_capabilities(capabilities);
        }
        context
    }

    async fn list(&self, version: Option<ProtocolVersion>) -> ListToolsResult {
        let context = self.context(version);
        ServerHandler::list_tools(&self.server, None, context)
            .await
            .expect("tools/list")
    }

    async fn call(&self, request: CallToolRequestParams) -> Result<CallToolResponse, ErrorData> {
        let context = self.context(Some(ProtocolVersion::V_2026_07_28));
        ServerHandler::call_tool(&self.server, request, context).await
    }
}

fn modern() -> Option<ProtocolVersion> {
    Some(ProtocolVersion::V_2026_07_28)
}

#[tokio::test]
async fn a_list_is_not_cached_by_default_and_older_clients_get_no_hints() {
    let served = Served::new(
        McpServer::builder(())
            .tool(add_tool())
            .build()
            .expect("server"),
    );
    let list = served.list(modern()).await;
    assert_eq!(
        (list.ttl_ms, list.cache_scope),
        (Some(0), Some(CacheScope::Private))
    );
    let old = served.list(Some(ProtocolVersion::V_2025_11_25)).await;
    assert_eq!((old.ttl_ms, old.cache_scope), (None, None));
    let none = served.list(None).await;
    assert_eq!((none.ttl_ms, none.cache_scope), (None, None));
}

#[tokio::test]
async fn the_server_sets_the_hints_and_a_tool_lowers_the_time() {
    let five_minutes = Duration::from_secs(300);
    let server = McpServer::builder(())
        .tool(add_tool())
        .cache_hints(five_minutes, CacheScope::Public)
        .build()
        .expect("server");
    let served = Served::new(server);
    let list = served.list(modern()).await;
    assert_eq!(
        (list.ttl_ms, list.cache_scope),
        (Some(300_000), Some(CacheScope::Public))
    );
    let discovered = ServerHandler::discover(&served.server, served.context(modern()))
        .await
        .expect("server/discover");
    assert_eq!(discovered.ttl_ms, 300_000);
    assert_eq!(discovered.cache_scope, CacheScope::Public);

    let with_special = McpServer::builder(())
        .tools([add_tool(), special_tool()])
        .cache_hints(five_minutes, CacheScope::Public)
        .build()
        .expect("server");
    let list = Served::new(with_special).list(modern()).await;
    assert_eq!(
        list.ttl_ms,
        Some(60_000),
        "the tool's minute wins over five"
    );
}

#[tokio::test]
async fn a_visibility_rule_makes_the_list_private() {
    let server = McpServer::builder(())
        .tool(add_tool())
        .cache_hints(Duration::from_secs(60), CacheScope::Public)
        .visibility(|_| true)
        .build()
        .expect("server");
    let list = Served::new(server).list(modern()).await;
    assert_eq!(
        (list.ttl_ms, list.cache_scope),
        (Some(60_000), Some(CacheScope::Private))
    );
}

#[test]
fn a_tool_built_by_hand_sets_its_cache_time() {
    let info = ToolInfo::builder::<Empty, String>("clock", "The time.")
        .cache_ttl(Duration::from_secs(1))
        .build();
    assert_eq!(info.cache_ttl(), Some(Duration::from_secs(1)));
}

#[tokio::test]
async fn an_expired_state_is_refused_and_a_fresh_one_completes() {
    let build = |ttl| {
        McpServer::builder(())
            .tool(greet_tool())
            .request_state_key([7u8; 32])
            .request_state_ttl(ttl)
            .build()
            .expect("server")
    };
    for (ttl, completes) in [(Duration::from_secs(60), true), (Duration::ZERO, false)] {
        let served = Served::new(build(ttl));
        let first = served.call(CallToolRequestParams::new("greet")).await;
        let Ok(CallToolResponse::InputRequired(asked)) = first else {
            panic!("expected an InputRequiredResult: {first:?}");
        };
        let state = asked.request_state.expect("a sealed state");
        if ttl.is_zero() {
            tokio::time::sleep(Duration::from_millis(1100)).await;
        }
        let answers = [(
            "user_name".to_string(),
            json!({"action": "accept", "content": {"name": "Ada"}}),
        )];
        let retry = CallToolRequestParams::new("greet")
            .with_input_responses(answers.into_iter().collect())
            .with_request_state(state);
        match served.call(retry).await {
            Ok(CallToolResponse::Complete(result)) if completes => {
                let text = result.content[0].as_text().map(|text| text.text.clone());
                assert_eq!(text.as_deref(), Some("Hello, Ada!"));
            }
            Err(error) if !completes => {
                assert_eq!(error.code.0, -32602);
                assert!(
                    error.message.contains("(request state has expired)"),
                    "{error:?}"
                );
            }
            other => panic!("ttl {ttl:?}: {other:?}"),
        }
    }
}

#[test]
fn a_short_request_state_key_is_refused_at_build() {
    let built = McpServer::builder(())
        .tool(add_tool())
        .request_state_key(b"too short".to_vec())
        .build();
    assert_eq!(
        built.err(),
        Some(RegistryError::RequestStateKeyTooShort { length: 9 })
    );
}
