//! An MCP server over rmcp: state, tools, and the transports that serve them.

use std::fmt;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ErrorData, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};

use crate::registry::{RegistryError, ToolDef, ToolRegistry, ToolSet, UnknownTool};
use crate::coerce::InputMode;
use crate::schema::SchemaProfile;

/// Collects the state, the tools and the server's identity. Start with
/// [`McpServer::builder`].
pub struct ServerBuilder<S> {
    state: S,
    tools: Vec<ToolDef<S>>,
    implementation: Implementation,
    instructions: Option<String>,
    profile: SchemaProfile,
    input_mode: InputMode,
}

impl<S: Send + Sync + 'static> ServerBuilder<S> {
    /// Adds one tool, such as the one `#[mcp_tool]` generates for a free function
    /// (`my_function_tool()`).
    pub fn tool(mut self, tool: ToolDef<S>) -> Self {
        self.tools.push(tool);
        self
    }

    /// Adds several tools.
    pub fn tools(mut self, tools: impl IntoIterator<Item = ToolDef<S>>) -> Self {
        self.tools.extend(tools);
        self
    }

    /// Adds the tools that `#[mcp_tools]` generated for the state type's methods.
    pub fn tool_set(self) -> Self
    where
        S: ToolSet,
    {
        self.tools(S::tools())
    }

    /// The server's name and version, as `initialize` reports them.
    pub fn implementation(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.implementation = Implementation::new(name, version);
        self
    }

    /// Instructions for the client about how to use this server.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// How published schemas are shaped (default [`SchemaProfile::Portable`]).
    pub fn schema_profile(mut self, profile: SchemaProfile) -> Self {
        self.profile = profile;
        self
    }

    /// How forgiving argument parsing is (default [`InputMode::Lenient`]: JSON text for
    /// arrays and objects, numeric strings, `"true"`/`"false"` are accepted).
    pub fn input_mode(mut self, mode: InputMode) -> Self {
        self.input_mode = mode;
        self
    }

    /// Builds the registry and publishes every tool definition once. Fails when two tools
    /// share a name.
    pub fn build(self) -> Result<McpServer<S>, RegistryError> {
        let registry =
            ToolRegistry::new(self.tools, self.profile)?.with_input_mode(self.input_mode);
        Ok(McpServer {
            inner: Arc::new(Inner {
                state: self.state,
                registry,
                implementation: self.implementation,
                instructions: self.instructions,
            }),
        })
    }
}

struct Inner<S> {
    state: S,
    registry: ToolRegistry<S>,
    implementation: Implementation,
    instructions: Option<String>,
}

/// A server: the tool state `S` and its registry. Cheap to clone.
///
/// ```no_run
/// use mcp_tool_runtime::{McpServer, mcp_tool};
///
/// /// Add two numbers.
/// #[mcp_tool]
/// fn add(a: i64, b: i64) -> String {
///     (a + b).to_string()
/// }
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// McpServer::builder(()).tool(add_tool()).build()?.serve_stdio().await?;
/// # Ok(()) }
/// ```
pub struct McpServer<S> {
    inner: Arc<Inner<S>>,
}

impl<S> Clone for McpServer<S> {
    fn clone(&self) -> Self {
        Self {
            inner: Arc::clone(&self.inner),
        }
    }
}

impl<S> fmt::Debug for McpServer<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpServer")
            .field("name", &self.inner.implementation.name)
            .field("tools", &self.inner.registry)
            .finish()
    }
}

/// Why serving stopped with an error.
#[derive(Debug)]
#[non_exhaustive]
pub enum ServeError {
    /// The MCP handshake failed.
    Initialize(Box<rmcp::service::ServerInitializeError>),
    /// The session task ended abnormally.
    Session(tokio::task::JoinError),
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Initialize(error) => write!(f, "MCP handshake failed: {error}"),
            Self::Session(error) => write!(f, "MCP session ended abnormally: {error}"),
        }
    }
}

impl std::error::Error for ServeError {}

impl<S: Send + Sync + 'static> McpServer<S> {
    /// Starts building a server around `state`.
    pub fn builder(state: S) -> ServerBuilder<S> {
        ServerBuilder {
            state,
            tools: Vec::new(),
            implementation: Implementation::new("mcp-tool-server", env!("CARGO_PKG_VERSION")),
            instructions: None,
            profile: SchemaProfile::default(),
            input_mode: InputMode::default(),
        }
    }

    /// The tools' shared state.
    pub fn state(&self) -> &S {
        &self.inner.state
    }

    /// The registry.
    pub fn registry(&self) -> &ToolRegistry<S> {
        &self.inner.registry
    }

    /// Calls a tool in-process, exactly as a `tools/call` request would.
    pub async fn call(
        &self,
        name: &str,
        arguments: Option<Value>,
    ) -> Result<rmcp::model::CallToolResult, UnknownTool> {
        self.inner
            .registry
            .call(&self.inner.state, name, arguments)
            .await
    }

    /// Serves MCP over this process's stdin and stdout until the client disconnects.
    pub async fn serve_stdio(self) -> Result<(), ServeError> {
        let running = self
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|error| ServeError::Initialize(Box::new(error)))?;
        running.waiting().await.map_err(ServeError::Session)?;
        Ok(())
    }
}

impl From<UnknownTool> for ErrorData {
    fn from(unknown: UnknownTool) -> Self {
        let data = json!({
            "tool": unknown.name,
            "suggestions": unknown.suggestions,
            "available": unknown.available,
        });
        ErrorData::invalid_params(unknown.to_string(), Some(data))
    }
}

impl<S: Send + Sync + 'static> ServerHandler for McpServer<S> {
    fn get_info(&self) -> ServerConfig {
        let mut info = ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(self.inner.implementation.clone());
        if let Some(instructions) = &self.inner.instructions {
            info = info.with_instructions(instructions.clone());
        }
        info
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(
            self.inner.registry.list().to_vec(),
        ))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.inner.registry.published(name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = request.arguments.map(Value::Object);
        let result = self.call(&request.name, arguments).await?;
        Ok(result.into())
    }
}
