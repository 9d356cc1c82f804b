//! `live_tools`: an MCP server whose tools change while it serves, over stdio or Streamable
//! HTTP. Every change sends `notifications/tools/list_changed` to each connected client, and
//! to each 2026-07-28 client's `subscriptions/listen` stream that asked for tool changes.
//!
//! ```text
//! live_tools                        # stdio
//! live_tools --http 127.0.0.1:8080  # Streamable HTTP at http://127.0.0.1:8080/mcp
//! ```
//!
//! - `hello`: always there.
//! - `reset_shop`: tagged `admin`, hidden until `unlock_admin` is called.
//! - `unlock_admin`: enables the `admin` tag, from inside a tool.
//! - `add_tool {name, description}`: adds a tool built at run time from a JSON Schema, which
//!   echoes its `text` argument.
//! - `remove_tool {name}`, `switch_tool {name, enabled}`: remove, disable or enable a tool.

use std::process::ExitCode;
use std::sync::OnceLock;

use mcp_tool_examples::logging;
use mcp_tool_runtime::{
    HttpOptions, McpServer, ToolContext, ToolDef, ToolError, mcp_tool, mcp_tools,
    registry::LiveTools,
};
use serde_json::{Value, json};

/// The server's state: the handle on its own tool set, set once the server is built.
#[derive(Default)]
struct Shop {
    tools: OnceLock<LiveTools<Shop>>,
}

impl Shop {
    fn tools(&self) -> Result<&LiveTools<Shop>, ToolError> {
        self.tools
            .get()
            .ok_or_else(|| ToolError::internal(std::io::Error::other("the tool set is not bound")))
    }
}

/// An `echo` tool built at run time: its input is a JSON Schema, not a Rust type.
fn echo_tool(name: String, description: String) -> Result<ToolDef<Shop>, ToolError> {
    let schema = json!({
        "type": "object",
        "properties": {"text": {"type": "string", "minLength": 1, "description": "What to echo."}},
        "required": ["text"],
        "additionalProperties": false
    });
    ToolDef::from_schema(
        name,
        description,
        schema,
        |arguments: Value, _ctx: ToolContext| async move {
            Ok::<_, ToolError>(arguments["text"].as_str().unwrap_or_default().to_string())
        },
    )
    .map_err(ToolError::internal)
}

fn not_found(name: &str) -> ToolError {
    ToolError::new(
        mcp_tool_runtime::ErrorCode::NOT_FOUND,
        format!("No tool named '{name}'."),
    )
}

#[mcp_tools]
impl Shop {
    /// Say hello.
    #[mcp_tool(read_only)]
    fn hello(&self) -> String {
        "hello".into()
    }

    /// Reset the shop's stock (an administrator's tool).
    #[mcp_tool(tags = ["admin"], destructive)]
    fn reset_shop(&self) -> String {
        "the shop was reset".into()
    }

    /// Unlock the administrator's tools.
    #[mcp_tool]
    fn unlock_admin(&self) -> Result<String, ToolError> {
        self.tools()?.enable_tag("admin");
        Ok("administrator tools unlocked".into())
    }

    /// Add a tool that echoes its `text` argument.
    ///
    /// # Arguments
    /// * `name` - The new tool's name.
    /// * `description` - What the new tool says it does.
    #[mcp_tool]
    fn add_tool(&self, name: String, description: String) -> Result<String, ToolError> {
        let tool = echo_tool(name.clone(), description)?;
        self.tools()?.add(tool).map_err(|error| {
            ToolError::new(mcp_tool_runtime::ErrorCode::CONFLICT, error.to_string())
        })?;
        Ok(format!("added '{name}'"))
    }

    /// Remove a tool.
    ///
    /// # Arguments
    /// * `name` - The tool to remove.
    #[mcp_tool]
    fn remove_tool(&self, name: String) -> Result<String, ToolError> {
        if !self.tools()?.remove(&name) {
            return Err(not_found(&name));
        }
        Ok(format!("removed '{name}'"))
    }

    /// Enable or disable a tool.
    ///
    /// # Arguments
    /// * `name` - The tool to switch.
    /// * `enabled` - Whether it is served.
    #[mcp_tool]
    fn switch_tool(&self, name: String, enabled: bool) -> Result<String, ToolError> {
        let tools = self.tools()?;
        let known = if enabled {
            tools.enable(&name)
        } else {
            tools.disable(&name)
        };
        if !known {
            return Err(not_found(&name));
        }
        Ok(format!("'{name}' enabled: {enabled}"))
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    logging::init_stderr();
    let server = match McpServer::builder(Shop::default())
        .tool_set()
        .implementation("live_tools", env!("CARGO_PKG_VERSION"))
        .build()
    {
        Ok(server) => server,
        Err(error) => {
            tracing::error!(%error, "invalid tool set");
            return ExitCode::FAILURE;
        }
    };
    let tools = server.tools();
    tools.disable_tag("admin");
    // The state is built before the server; the handle joins it once the server exists.
    let _ = server.state().tools.set(tools);
    let mut args = std::env::args().skip(1);
    let served = match (args.next().as_deref(), args.next()) {
        (Some("--http"), Some(addr)) => match tokio::net::TcpListener::bind(&addr).await {
            Ok(listener) => {
                tracing::info!("live_tools serving MCP at http://{addr}/mcp");
                server
                    .serve_http_on(listener, HttpOptions::from_env())
                    .await
            }
            Err(error) => {
                tracing::error!(%error, %addr, "cannot listen");
                return ExitCode::FAILURE;
            }
        },
        (None, _) => server.serve_stdio().await,
        _ => {
            eprintln!("usage: live_tools [--http ADDR]");
            return ExitCode::FAILURE;
        }
    };
    logging::flush();
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(%error, "server stopped");
            ExitCode::FAILURE
        }
    }
}
