//! A client connected in memory to a server, for tests of its tools (feature `testing`).
//!
#![doc = include_str!("../docs/testing.md")]
// rmcp's client connected in memory through the stdio line transport, so that calls take the
// path they take in production (the transport's checks, the handshake, the handler), with
// what the server sends besides the answers recorded.
#![allow(deprecated)] // rmcp marks MCP logging and sampling deprecated (SEP-2577); 2025-11-25 has both.

use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ClientJsonRpcMessage,
    ContentBlock, CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams,
    ElicitResult, ErrorData, GetExtensions, Implementation, JsonRpcMessage,
    LoggingMessageNotificationParam, ProgressNotificationParam, ProtocolVersion, RequestMetaObject,
    ServerJsonRpcMessage, ServerNotification, Tool,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, RequestContext, RoleClient, RoleServer, RunningService,
    ServiceError,
};
use rmcp::transport::Transport;
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::{ClientHandler, ServiceExt};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::retry::RemoteError;
use crate::server::McpServer;
use crate::tool::Principal;
use crate::transport::{LineTransport, StdioOptions};

/// How many bytes the in-memory pipe buffers each way.
const PIPE_BYTES: usize = 1 << 16;

/// Answers a sampling request (`sampling/createMessage`) as a scripted model would.
type Sampling = dyn Fn(CreateMessageRequestParams) -> CreateMessageResult + Send + Sync;

/// Answers an elicitation request (`elicitation/create`) as a scripted user would.
type Elicitation = dyn Fn(ElicitRequestParams) -> ElicitResult + Send + Sync;

/// A client connected in memory to a server, for tests of its tools.
///
/// Calls go through rmcp's client, the stdio line transport and the server's handler, as a
/// real client's would. rmcp's client asks for progress on every request; progress and log
/// notifications are recorded in the order the server sent them, each before the answer of
/// its call. Sampling and elicitation requests are
/// answered by the closures given to [`TestClient::builder`].
///
/// ```
/// use mcp_tool_runtime::testing::TestClient;
/// use mcp_tool_runtime::{McpServer, ToolContext, mcp_tool};
///
/// /// Count to `to`, reporting progress.
/// #[mcp_tool]
/// async fn count(to: u32, ctx: ToolContext) -> String {
///     for step in 1..=to {
///         let _ = ctx.progress(f64::from(step), Some(f64::from(to)), None).await;
///     }
///     let _ = ctx.info("counted").await;
///     format!("counted to {to}")
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let server = McpServer::builder(()).tool(count_tool()).build()?;
/// let client = TestClient::connect(&server).await?;
/// let answer = client.call("count", serde_json::json!({"to": 3})).await?;
/// assert_eq!(answer.text(), "counted to 3");
/// assert_eq!(client.progress().len(), 3);
/// assert_eq!(client.logs()[0].data, "counted");
///
/// let refused = client.call("count", serde_json::json!({"to": "three"})).await?;
/// let envelope = refused.envelope.expect("an error result");
/// assert_eq!(envelope.code, "invalid_arguments");
/// # Ok(()) }
/// ```
pub struct TestClient {
    client: RunningService<RoleClient, Scripted>,
    recorded: Arc<Recorded>,
}

impl fmt::Debug for TestClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TestClient").finish_non_exhaustive()
    }
}

/// The answer to one call: the result as the client received it, and its error envelope
/// when it is an error result.
#[derive(Debug, Clone)]
pub struct Reply {
    /// The result.
    pub result: CallToolResult,
    /// The error envelope of an `isError` result.
    pub envelope: Option<RemoteError>,
}

impl Reply {
    /// Whether the tool failed (`isError: true`).
    pub fn is_error(&self) -> bool {
        self.result.is_error == Some(true)
    }

    /// The text of the result's text blocks, one per line.
    pub fn text(&self) -> String {
        let texts: Vec<&str> = self
            .result
            .content
            .iter()
            .filter_map(|block| match block {
                ContentBlock::Text(text) => Some(text.text.as_str()),
                _ => None,
            })
            .collect();
        texts.join("\n")
    }
}

/// Why [`TestClient::connect`] or [`TestClient::call_json`] failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum TestError {
    /// The handshake failed.
    Connect(Box<rmcp::service::ClientInitializeError>),
    /// A JSON-RPC error, such as an unknown tool.
    Protocol(ServiceError),
    /// The tool answered with an error result.
    Tool(Box<Reply>),
    /// The result has no structured content, or it is not a `T`.
    NotStructured(Box<Reply>, Option<serde_json::Error>),
}

impl fmt::Display for TestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Connect(error) => write!(f, "the MCP handshake failed: {error}"),
            Self::Protocol(error) => write!(f, "the request failed: {error}"),
            Self::Tool(outcome) => write!(f, "the tool failed: {}", outcome.text()),
            Self::NotStructured(outcome, None) => write!(
                f,
                "the result has no structured content: {}",
                outcome.text()
            ),
            Self::NotStructured(_, Some(error)) => {
                write!(
                    f,
                    "the structured content is not of the type asked for: {error}"
                )
            }
        }
    }
}

impl std::error::Error for TestError {}

impl From<ServiceError> for TestError {
    fn from(error: ServiceError) -> Self {
        Self::Protocol(error)
    }
}

/// Scripted answers to the server's requests, for [`TestClient::builder`].
#[derive(Default)]
pub struct TestClientBuilder {
    sampling: Option<Arc<Sampling>>,
    elicitation: Option<Arc<Elicitation>>,
    principal: Option<Principal>,
    revision: Option<ProtocolVersion>,
    extensions: rmcp::model::ExtensionCapabilities,
}

impl fmt::Debug for TestClientBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TestClientBuilder")
            .field("sampling", &self.sampling.is_some())
            .field("elicitation", &self.elicitation.is_some())
            .field("principal", &self.principal)
            .field("revision", &self.revision)
            .field("extensions", &self.extensions)
            .finish()
    }
}

impl TestClientBuilder {
    /// Answers every sampling request with `answer(request)`; the client declares the
    /// sampling capability.
    pub fn on_sampling(
        mut self,
        answer: impl Fn(CreateMessageRequestParams) -> CreateMessageResult + Send + Sync + 'static,
    ) -> Self {
        self.sampling = Some(Arc::new(answer));
        self
    }

    /// Answers every elicitation request with `answer(request)`; the client declares the
    /// elicitation capability.
    pub fn on_elicitation(
        mut self,
        answer: impl Fn(ElicitRequestParams) -> ElicitResult + Send + Sync + 'static,
    ) -> Self {
        self.elicitation = Some(Arc::new(answer));
        self
    }

    /// Every request carries `principal`, as the HTTP token verifier would put it in the
    /// request's extensions: for tests of a [visibility](crate::ServerBuilder::visibility)
    /// rule or of tools that read the caller.
    pub fn principal(mut self, principal: Principal) -> Self {
        self.principal = Some(principal);
        self
    }

    /// Speaks protocol `revision`: 2026-07-28 starts with `server/discover` and no handshake,
    /// and the server's questions come back as `InputRequiredResult`s, which the client
    /// answers with the scripted closures and retries, as a 2026 client does. Older revisions
    /// (the default, 2025-11-25) use `initialize`, and questions are requests.
    pub fn revision(mut self, revision: ProtocolVersion) -> Self {
        self.revision = Some(revision);
        self
    }

    /// Declares the extension `id` with `settings` (a JSON object) under
    /// `capabilities.extensions`, as a host does; for MCP Apps,
    /// [`apps::EXTENSION_ID`](crate::apps::EXTENSION_ID) with
    /// `{"mimeTypes": [`[`apps::MIME_TYPE`](crate::apps::MIME_TYPE)`]}`.
    pub fn extension(mut self, id: impl Into<String>, settings: Value) -> Self {
        let settings = match settings {
            Value::Object(object) => object,
            _ => rmcp::model::JsonObject::new(),
        };
        self.extensions.insert(id.into(), settings);
        self
    }

    /// Connects to a new session of `server`, served on a task of the current runtime.
    pub async fn connect<S: Send + Sync + 'static>(
        self,
        server: &McpServer<S>,
    ) -> Result<TestClient, TestError> {
        let (client_end, server_end) = tokio::io::duplex(PIPE_BYTES);
        let (read, write) = tokio::io::split(server_end);
        let transport = LineTransport::new(read, write, &StdioOptions::default())
            .with_limits(server.registry().input_limits());
        let session = server.new_session();
        match self.principal {
            None => tokio::spawn(serve(session, transport)),
            Some(principal) => tokio::spawn(serve(
                session,
                AsPrincipal {
                    inner: transport,
                    principal,
                },
            )),
        };
        let recorded = Arc::new(Recorded::default());
        let (read, write) = tokio::io::split(client_end);
        let transport = Recording {
            inner: AsyncRwTransport::new_client(read, write),
            recorded: Arc::clone(&recorded),
        };
        let scripted = Scripted {
            sampling: self.sampling,
            elicitation: self.elicitation,
            extensions: self.extensions,
        };
        let lifecycle = match self.revision {
            Some(revision) if !revision.has_initialize() => ClientLifecycleMode::Discover {
                preferred_versions: vec![revision],
            },
            _ => ClientLifecycleMode::Initialize,
        };
        let client = scripted
            .serve_with_lifecycle(transport, lifecycle)
            .await
            .map_err(|error| TestError::Connect(Box::new(error)))?;
        Ok(TestClient { client, recorded })
    }
}

impl TestClient {
    /// Connects to a new session of `server`, with no scripted answers (sampling and
    /// elicitation requests are refused).
    pub async fn connect<S: Send + Sync + 'static>(
        server: &McpServer<S>,
    ) -> Result<Self, TestError> {
        Self::builder().connect(server).await
    }

    /// Starts a client with scripted answers to sampling and elicitation.
    pub fn builder() -> TestClientBuilder {
        TestClientBuilder::default()
    }

    /// The tools the server lists (`tools/list`, every page).
    pub async fn list_tools(&self) -> Result<Vec<Tool>, ServiceError> {
        self.client.list_all_tools().await
    }

    /// The resources the server lists (`resources/list`, every page): the handler's and the
    /// MCP Apps views.
    pub async fn list_resources(&self) -> Result<Vec<rmcp::model::Resource>, ServiceError> {
        self.client.list_all_resources().await
    }

    /// Reads the resource at `uri` (`resources/read`).
    pub async fn read_resource(
        &self,
        uri: &str,
    ) -> Result<rmcp::model::ReadResourceResult, ServiceError> {
        let params = rmcp::model::ReadResourceRequestParams::new(uri);
        self.client.read_resource(params).await
    }

    /// Calls `name` with `arguments` (a JSON object). A tool error is an `Ok` outcome with
    /// its envelope; an unknown tool is an `Err` (-32602).
    pub async fn call(&self, name: &str, arguments: Value) -> Result<Reply, ServiceError> {
        self.send(request(name, arguments)).await
    }

    /// Calls `name` with `arguments` and the request's `_meta` (a JSON object), as a client
    /// that sends a trace context (`traceparent`) or, on revision 2026-07-28, asks for the
    /// call's log messages (`io.modelcontextprotocol/logLevel`) would. rmcp's client adds its
    /// own keys (progress token, and on 2026-07-28 the protocol version and client info).
    ///
    /// ```
    /// use mcp_tool_runtime::rmcp::model::ProtocolVersion;
    /// use mcp_tool_runtime::testing::TestClient;
    /// use mcp_tool_runtime::{McpServer, ToolContext, mcp_tool};
    /// use serde_json::json;
    ///
    /// /// Say hello, and log it.
    /// #[mcp_tool]
    /// async fn hello(ctx: ToolContext) -> String {
    ///     let _ = ctx.info("said hello").await;
    ///     "hello".into()
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let server = McpServer::builder(()).tool(hello_tool()).build()?;
    /// let client = TestClient::builder()
    ///     .revision(ProtocolVersion::V_2026_07_28)
    ///     .connect(&server)
    ///     .await?;
    /// client.call("hello", json!({})).await?;
    /// assert!(client.logs().is_empty()); // 2026-07-28: no level asked, no logs
    /// let meta = json!({"io.modelcontextprotocol/logLevel": "info"});
    /// client.call_with_meta("hello", json!({}), meta).await?;
    /// assert_eq!(client.logs()[0].data, "said hello");
    /// # Ok(()) }
    /// ```
    pub async fn call_with_meta(
        &self,
        name: &str,
        arguments: Value,
        meta: Value,
    ) -> Result<Reply, ServiceError> {
        let mut request = request(name, arguments);
        if let Value::Object(meta) = meta {
            request.meta = Some(RequestMetaObject(meta.into()));
        }
        self.send(request).await
    }

    /// Calls `name` and reads its structured content as a `T` (the value itself when the
    /// server wrapped it as `{"result": ...}` because `T` is not an object).
    pub async fn call_json<T: DeserializeOwned>(
        &self,
        name: &str,
        arguments: Value,
    ) -> Result<T, TestError> {
        let outcome = self.call(name, arguments).await?;
        if outcome.is_error() {
            return Err(TestError::Tool(Box::new(outcome)));
        }
        let Some(structured) = outcome.result.structured_content.clone() else {
            return Err(TestError::NotStructured(Box::new(outcome), None));
        };
        let direct = serde_json::from_value::<T>(structured.clone());
        let wrapped = match &structured {
            Value::Object(object) if object.len() == 1 => object.get("result").cloned(),
            _ => None,
        };
        match (direct, wrapped) {
            (Ok(value), _) => Ok(value),
            (Err(error), Some(inner)) => serde_json::from_value(inner)
                .map_err(|_| TestError::NotStructured(Box::new(outcome), Some(error))),
            (Err(error), None) => Err(TestError::NotStructured(Box::new(outcome), Some(error))),
        }
    }

    /// The progress notifications received so far, in order.
    pub fn progress(&self) -> Vec<ProgressNotificationParam> {
        lock(&self.recorded.progress).clone()
    }

    /// The log messages (`notifications/message`) received so far, in order.
    pub fn logs(&self) -> Vec<LoggingMessageNotificationParam> {
        lock(&self.recorded.logs).clone()
    }

    /// How many `notifications/tools/list_changed` were received so far.
    pub fn tool_list_changes(&self) -> usize {
        self.recorded.list_changed.load(Ordering::Relaxed)
    }

    /// Sets the session's log threshold (`logging/setLevel`).
    pub async fn set_log_level(
        &self,
        level: rmcp::model::LoggingLevel,
    ) -> Result<(), ServiceError> {
        self.client
            .set_level(rmcp::model::SetLevelRequestParams::new(level))
            .await
    }

    /// rmcp's client, for anything else.
    pub fn peer(&self) -> &rmcp::service::Peer<RoleClient> {
        self.client.peer()
    }

    async fn send(&self, request: CallToolRequestParams) -> Result<Reply, ServiceError> {
        let result = self.client.call_tool(request).await?;
        let envelope = RemoteError::of(&result);
        Ok(Reply { result, envelope })
    }
}

/// Serves one session of `server` on `transport` until the client goes.
async fn serve<S, T>(server: McpServer<S>, transport: T)
where
    S: Send + Sync + 'static,
    T: Transport<RoleServer> + 'static,
{
    match server.serve(transport).await {
        Ok(running) => {
            let _ = running.waiting().await;
        }
        Err(error) => tracing::debug!(%error, "test session did not start"),
    }
}

/// The server's transport, putting the principal in every request's extensions.
struct AsPrincipal<T> {
    inner: T,
    principal: Principal,
}

impl<T: Transport<RoleServer>> Transport<RoleServer> for AsPrincipal<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        let mut message = self.inner.receive().await?;
        if let JsonRpcMessage::Request(request) = &mut message {
            request
                .request
                .extensions_mut()
                .insert(self.principal.clone());
        }
        Some(message)
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

fn request(name: &str, arguments: Value) -> CallToolRequestParams {
    let request = CallToolRequestParams::new(name.to_string());
    match arguments {
        Value::Object(object) => request.with_arguments(object),
        _ => request,
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What the server sent besides answers.
#[derive(Default)]
struct Recorded {
    progress: Mutex<Vec<ProgressNotificationParam>>,
    logs: Mutex<Vec<LoggingMessageNotificationParam>>,
    list_changed: AtomicUsize,
}

/// The client transport, recording notifications as they arrive. rmcp hands notifications to
/// the handler on tasks of their own, which may run after the answer that followed them;
/// recorded here, they are in place before that answer reaches the caller.
struct Recording<T> {
    inner: T,
    recorded: Arc<Recorded>,
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for Recording<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<ServerJsonRpcMessage> {
        let message = self.inner.receive().await?;
        if let JsonRpcMessage::Notification(notification) = &message {
            match &notification.notification {
                ServerNotification::ProgressNotification(progress) => {
                    lock(&self.recorded.progress).push(progress.params.clone());
                }
                ServerNotification::LoggingMessageNotification(log) => {
                    lock(&self.recorded.logs).push(log.params.clone());
                }
                ServerNotification::ToolListChangedNotification(_) => {
                    self.recorded.list_changed.fetch_add(1, Ordering::Relaxed);
                }
                _ => {}
            }
        }
        Some(message)
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

/// The client's answers to the server's requests.
struct Scripted {
    sampling: Option<Arc<Sampling>>,
    elicitation: Option<Arc<Elicitation>>,
    extensions: rmcp::model::ExtensionCapabilities,
}

impl ClientHandler for Scripted {
    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        match &self.sampling {
            Some(answer) => Ok(answer(params)),
            None => Err(ErrorData::method_not_found::<
                rmcp::model::CreateMessageRequestMethod,
            >()),
        }
    }

    async fn create_elicitation(
        &self,
        params: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        match &self.elicitation {
            Some(answer) => Ok(answer(params)),
            None => Err(ErrorData::method_not_found::<
                rmcp::model::ElicitationCreateRequestMethod,
            >()),
        }
    }

    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        if self.sampling.is_some() {
            capabilities.sampling = Some(Default::default());
        }
        if self.elicitation.is_some() {
            capabilities.elicitation = Some(Default::default());
        }
        if !self.extensions.is_empty() {
            capabilities.extensions = Some(self.extensions.clone());
        }
        ClientConfig::new(
            capabilities,
            Implementation::new("mcp-tool-test-client", env!("CARGO_PKG_VERSION")),
        )
    }
}
