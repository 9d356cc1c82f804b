//! An MCP server over rmcp: state, tools, and the transports that serve them.

#![allow(deprecated)] // rmcp marks MCP logging deprecated (SEP-2577); 2025-11-25 has it.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, DiscoverResult, ErrorCode, ErrorData, Implementation,
    ListToolsResult, PaginatedRequestParams, ProtocolVersion, ServerCapabilities, ServerConfig,
    SetLevelRequestParams, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};

use crate::coerce::InputMode;
use crate::context::{CallScope, Session};
use crate::messages;
use crate::protocol::{RAW_ARGUMENTS_META_KEY, SUPPORTED_METHODS};
use crate::registry::{RegistryError, ToolDef, ToolRegistry, ToolSet, UnknownTool};
use crate::schema::SchemaProfile;
use crate::stdio::{LineTransport, StdioOptions};

/// The protocol revisions this server speaks: those with the `initialize` handshake, up to
/// 2025-11-25. (2026-07-28 replaces it with `server/discover`, which this server answers
/// with -32601 so that clients fall back to `initialize`.)
pub const SUPPORTED_PROTOCOL_VERSIONS: &[&str] =
    &["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// Collects the state, the tools and the server's identity. Start with
/// [`McpServer::builder`].
pub struct ServerBuilder<S> {
    state: S,
    tools: Vec<ToolDef<S>>,
    implementation: Implementation,
    instructions: Option<String>,
    profile: SchemaProfile,
    default_timeout: Option<Duration>,
    input_mode: InputMode,
}

impl<S: Send + Sync + 'static> ServerBuilder<S> {
    /// The time limit of every tool that does not set its own with
    /// `#[mcp_tool(timeout = "...")]`. A call that runs over is stopped and answered with a
    /// retryable `timeout` error. No limit by default.
    pub fn default_timeout(mut self, limit: Duration) -> Self {
        self.default_timeout = Some(limit);
        self
    }

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
                default_timeout: self.default_timeout,
            }),
            session: Arc::default(),
        })
    }
}

struct Inner<S> {
    state: S,
    registry: ToolRegistry<S>,
    implementation: Implementation,
    instructions: Option<String>,
    default_timeout: Option<Duration>,
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
    /// Per client session: a clone shares it, [`McpServer::new_session`] starts a fresh one.
    session: Arc<Session>,
}

impl<S> Clone for McpServer<S> {
    fn clone(&self) -> Self {
        Self {
            inner: Arc::clone(&self.inner),
            session: Arc::clone(&self.session),
        }
    }
}

impl<S> McpServer<S> {
    /// The same server with its own session state (the `logging/setLevel` threshold), for
    /// one more client connection.
    pub fn new_session(&self) -> Self {
        Self {
            inner: Arc::clone(&self.inner),
            session: Arc::default(),
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
    /// The HTTP listener failed.
    Io(std::io::Error),
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Initialize(error) => write!(f, "MCP handshake failed: {error}"),
            Self::Session(error) => write!(f, "MCP session ended abnormally: {error}"),
            Self::Io(error) => write!(f, "MCP HTTP listener failed: {error}"),
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
            default_timeout: None,
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

    /// The server-wide time limit, if one is set.
    pub fn default_timeout(&self) -> Option<Duration> {
        self.inner.default_timeout
    }

    /// Serves MCP over this process's stdin and stdout until the client disconnects, with
    /// the default [`StdioOptions`].
    ///
    /// A stdio server has one client, so a `current_thread` runtime is usually enough. It
    /// also keeps peak memory flat: a multi-threaded runtime spreads calls over one glibc
    /// malloc arena per worker, and each arena keeps its own high-water mark.
    pub async fn serve_stdio(self) -> Result<(), ServeError> {
        self.serve_stdio_with(StdioOptions::default()).await
    }

    /// Serves MCP over stdin and stdout with `options`. Malformed messages are answered
    /// with JSON-RPC errors and the session goes on (see [`crate::stdio`]).
    pub async fn serve_stdio_with(self, options: StdioOptions) -> Result<(), ServeError> {
        self.serve_lines(LineTransport::stdio(&options)).await
    }

    /// Serves MCP over any line transport, such as a [`LineTransport`] on a socket or a pipe.
    pub async fn serve_lines<R>(self, transport: LineTransport<R>) -> Result<(), ServeError>
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
    {
        let running = self
            .serve(transport)
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
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_logging()
            .build();
        let mut info =
            ServerConfig::new(capabilities).with_server_info(self.inner.implementation.clone());
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

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Owned(
            ProtocolVersion::KNOWN_VERSIONS
                .iter()
                .filter(|version| SUPPORTED_PROTOCOL_VERSIONS.contains(&version.as_str()))
                .cloned()
                .collect(),
        )
    }

    async fn discover(
        &self,
        _context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        Err(ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            messages::method_not_found("server/discover", SUPPORTED_METHODS),
            Some(json!({"method": "server/discover", "supported": SUPPORTED_METHODS})),
        ))
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.session.set_level(request.level);
        Ok(())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let RequestContext {
            ct,
            id,
            mut meta,
            peer,
            ..
        } = context;
        if let Some(request_meta) = request.meta {
            meta.extend(request_meta);
        }
        // A non-object `arguments`, carried here by the transport (see `protocol`).
        let raw = if meta.is_empty() {
            None
        } else {
            meta.remove(RAW_ARGUMENTS_META_KEY)
        };
        let arguments = match (request.arguments, raw) {
            (Some(object), _) => Some(Value::Object(object)),
            (None, raw) => raw,
        };
        let registry = &self.inner.registry;
        let Some(tool) = registry.get(&request.name) else {
            return Err(registry.unknown(&request.name).into());
        };
        let scope = CallScope::connected(
            peer,
            Arc::clone(&self.session),
            id,
            meta,
            tool.info().name(),
            ct,
        );
        let call = registry.run(
            &self.inner.state,
            tool,
            arguments,
            &scope,
            self.inner.default_timeout,
        );
        // rmcp cancels the request's token on `notifications/cancelled` and drops whatever
        // is answered after; dropping the call here is what stops the tool's work. The call
        // goes first: most finish in their first poll, before any waiter is registered.
        tokio::select! {
            biased;
            result = call => Ok(result.into()),
            () = scope.client_cancelled() => {
                tracing::info!(tool = %request.name, "{}", messages::CANCELLED_BY_CLIENT);
                Err(ErrorData::new(ErrorCode::INTERNAL_ERROR, messages::CANCELLED_BY_CLIENT.to_string(), None))
            }
        }
    }
}
