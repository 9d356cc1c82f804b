//! `ServerBuilder`: the state, the tools, the server's identity and options, gathered once
//! and turned into an `McpServer` by `build()`.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{CacheScope, Implementation};

use super::apps::{Apps, UiResource};
use super::cache_hints::CacheHints;
use super::extra::ExtraHandler;
use super::rounds::{DEFAULT_STATE_TTL, Sealer};
use super::visibility::{ToolSighting, Visibility};
use super::{Inner, McpServer, handler};
use crate::dispatch::{Live, RegistryError};
use crate::input::{InputLimits, InputMode};
use crate::middleware::{Layer, Middleware};
use crate::schema::SchemaProfile;
use crate::store::{MemoryStore, Store};
use crate::tool::{Shared, ToolDef, ToolSet};
use crate::tool::{TaskSettings, TaskSupport, Tasks};

/// Makes the `with_handler` handler once the state is shared, since it may be part of it.
type MakeHandler<S> = Box<dyn FnOnce(&Shared<S>) -> Arc<dyn ExtraHandler> + Send + Sync>;

/// Collects the state, the tools and the server's identity. Start with
/// [`McpServer::builder`].
pub struct ServerBuilder<S> {
    state: S,
    tools: Vec<ToolDef<S>>,
    implementation: Option<Implementation>,
    instructions: Option<String>,
    profile: SchemaProfile,
    default_timeout: Option<Duration>,
    input_mode: InputMode,
    input_limits: InputLimits,
    handler: Option<MakeHandler<S>>,
    middleware: Vec<Box<dyn Layer>>,
    visibility: Option<Visibility>,
    request_state_key: Option<Vec<u8>>,
    request_state_ttl: Duration,
    cache_hints: CacheHints,
    store: Option<Arc<dyn Store>>,
    task_settings: TaskSettings,
    ui_resources: Vec<UiResource>,
}

impl<S: Send + Sync + 'static> ServerBuilder<S> {
    /// Where tasks and [`RateLimit`](crate::middleware::RateLimit)s keep their state
    /// (default: a [`MemoryStore`](crate::store::MemoryStore) of this process). Give every
    /// instance behind a load balancer the same shared store (a
    /// [`RedisStore`](crate::store::Store), feature `redis`) so that a task started on one is
    /// read, answered and cancelled through any.
    pub fn store(mut self, store: impl Store) -> Self {
        self.store = Some(Arc::new(store));
        self
    }

    /// The store of [`ServerBuilder::store`], already shared.
    pub fn shared_store(mut self, store: Arc<dyn Store>) -> Self {
        self.store = Some(store);
        self
    }

    /// How long a task and its result are kept after it starts (`ttlMs`; default one
    /// hour), and the interval clients are asked to poll at (`pollIntervalMs`; default
    /// 500 ms).
    pub fn task_times(mut self, ttl: Duration, poll_interval: Duration) -> Self {
        self.task_settings.ttl = ttl.max(Duration::from_millis(1));
        self.task_settings.poll_interval = poll_interval.max(Duration::from_millis(1));
        self
    }

    /// The most one task may hold (its result, or its open questions and answers), in
    /// bytes (default 1 MiB). A larger result fails the task; a larger answer is refused.
    pub fn task_max_bytes(mut self, bytes: usize) -> Self {
        self.task_settings.max_bytes = bytes;
        self
    }
    /// Adds a middleware around every tool call ([`Middleware`], or an `async fn` through
    /// [`from_fn`](crate::middleware::from_fn); built-ins:
    /// [`crate::middleware::TraceCalls`], [`crate::middleware::RateLimit`],
    /// [`crate::middleware::ConcurrencyLimit`]). Several run
    /// in the order they were added, the first outermost, and all outside argument checks,
    /// panic catching and time limits. In-process calls ([`McpServer::call`]) go through
    /// them too.
    pub fn middleware(mut self, middleware: impl Middleware) -> Self {
        self.middleware.push(Box::new(middleware));
        self
    }

    /// Which tools a caller may see and call: `rule` is asked, with the caller and the tool
    /// ([`ToolSighting`](crate::registry::ToolSighting)), for every tool of `tools/list` and for the tool of every
    /// `tools/call`. A tool it refuses is left out of the list, and a call of it is answered
    /// exactly as a call of a tool the server does not have, whose suggestions name only tools
    /// the caller may see. The principal is the one the HTTP token verifier established;
    /// `None` on stdio, for in-process calls ([`McpServer::call`]) and when no verifier is
    /// configured.
    ///
    /// The rule takes one argument, so a mistake in its type is reported at the closure with
    /// the signature it must have (`for<'a> fn(ToolSighting<'a>) -> bool`).
    ///
    /// ```
    /// use mcp_tool_runtime::{McpServer, mcp_tool};
    ///
    /// /// Delete a user.
    /// #[mcp_tool(tags = ["admin"])]
    /// fn delete_user(id: u64) -> String { format!("deleted {id}") }
    ///
    /// /// Say hello.
    /// #[mcp_tool]
    /// fn hello() -> String { "hello".into() }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let server = McpServer::builder(())
    ///     .tool(delete_user_tool())
    ///     .tool(hello_tool())
    ///     .visibility(|seen| {
    ///         !seen.tool().has_tag("admin")
    ///             || seen.principal().is_some_and(|p| p.claim("role").is_some_and(|r| r == "admin"))
    ///     })
    ///     .build()?;
    /// let unknown = server.call("delete_user", Some(serde_json::json!({"id": 7}))).await.unwrap_err();
    /// assert_eq!(unknown.available, ["hello"]);
    /// # Ok(()) }
    /// ```
    pub fn visibility(
        mut self,
        rule: impl Fn(ToolSighting<'_>) -> bool + Send + Sync + 'static,
    ) -> Self {
        self.visibility = Some(Arc::new(rule));
        self
    }

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

    /// Adds the tools that `#[mcp_tools]` generated for `T`, a part of this server's state
    /// that `part` picks out: tools of several state types share one server.
    ///
    /// ```
    /// # use mcp_tool_runtime::{McpServer, mcp_tool, mcp_tools};
    /// # #[derive(Default)] struct Users;
    /// # #[mcp_tools] impl Users { /// Count users.
    /// #     #[mcp_tool] fn count_users(&self) -> String { "3".into() } }
    /// # #[derive(Default)] struct Orders;
    /// # #[mcp_tools] impl Orders { /// Count orders.
    /// #     #[mcp_tool] fn count_orders(&self) -> String { "7".into() } }
    /// #[derive(Default)]
    /// struct App { users: Users, orders: Orders }
    ///
    /// let server = McpServer::builder(App::default())
    ///     .tool_set_of(|app: &App| &app.users)
    ///     .tool_set_of(|app: &App| &app.orders)
    ///     .build()?;
    /// assert_eq!(server.registry().list().len(), 2);
    /// # Ok::<(), mcp_tool_runtime::registry::RegistryError>(())
    /// ```
    pub fn tool_set_of<T: ToolSet>(self, part: fn(&S) -> &T) -> Self {
        self.tools(T::tools().into_iter().map(|tool| tool.for_part_of(part)))
    }

    /// Serves a view of the MCP Apps extension ([`UiResource`](crate::apps::UiResource)):
    /// listed and read beside the resources of the [handler](Self::with_handler), if any.
    /// The server then advertises the extension (`capabilities.extensions`) and the
    /// resources capability. Tools name it with `#[mcp_tool(ui = "ui://...")]`; `build()`
    /// refuses a tool whose view is not registered, a URI that is not `ui://` and two views
    /// with one URI. See the [`apps`](crate::apps) chapter.
    pub fn ui_resource(mut self, view: UiResource) -> Self {
        self.ui_resources.push(view);
        self
    }

    /// The server's name and version, as `initialize` reports them. Without it, the server
    /// is named after the crate that defines its first tool.
    pub fn implementation(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.implementation = Some(Implementation::new(name, version));
        self
    }

    /// Instructions for the client about how to use this server.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// Serves `handler`'s resources, prompts and completions beside the tools: any rmcp
    /// [`ServerHandler`](rmcp::ServerHandler), typically written with rmcp's
    /// `#[prompt_router]`/`#[prompt_handler]` and its resource methods.
    ///
    /// The server keeps `initialize`, `ping`, `tools/*` and `logging/setLevel`, and hands
    /// `resources/*` (list, templates, read, subscribe, unsubscribe), `prompts/*`,
    /// `completion/complete` and the client's notifications (`initialized`, roots changed,
    /// …) to `handler`. Its `initialize` answer adds the handler's resources, prompts,
    /// completions, experimental and extension capabilities to its own tools and logging; the
    /// server's [`instructions`](Self::instructions) win over the handler's. On a 2026-07-28
    /// `subscriptions/listen` stream the server sends the tool changes; what else the
    /// handler's `accepted_subscription_filter` accepts (resource and prompt notifications it
    /// advertises) makes the handler's `listen` run the stream, with the tool changes still
    /// sent on it. Everything goes through the same transport, so the stdio checks and the
    /// HTTP guard apply to the handler's methods too. One handler serves every session; a
    /// second call replaces the first.
    ///
    /// ```
    /// use mcp_tool_runtime::rmcp::model::{
    ///     ListResourcesResult, PaginatedRequestParams, ReadResourceRequestParams, Resource,
    ///     ReadResourceResponse, ReadResourceResult, ResourceContents, ServerCapabilities,
    ///     ServerConfig,
    /// };
    /// use mcp_tool_runtime::rmcp::service::RequestContext;
    /// use mcp_tool_runtime::rmcp::{ErrorData, RoleServer, ServerHandler};
    /// use mcp_tool_runtime::{McpServer, mcp_tool};
    ///
    /// /// Add two numbers.
    /// #[mcp_tool]
    /// fn add(a: i64, b: i64) -> String { (a + b).to_string() }
    ///
    /// /// One text resource, `docs://readme`.
    /// struct Docs;
    ///
    /// impl ServerHandler for Docs {
    ///     fn get_info(&self) -> ServerConfig {
    ///         ServerConfig::new(ServerCapabilities::builder().enable_resources().build())
    ///     }
    ///
    ///     async fn list_resources(
    ///         &self,
    ///         _page: Option<PaginatedRequestParams>,
    ///         _cx: RequestContext<RoleServer>,
    ///     ) -> Result<ListResourcesResult, ErrorData> {
    ///         let readme = Resource::new("docs://readme", "readme");
    ///         Ok(ListResourcesResult::with_all_items(vec![readme]))
    ///     }
    ///
    ///     async fn read_resource(
    ///         &self,
    ///         request: ReadResourceRequestParams,
    ///         _cx: RequestContext<RoleServer>,
    ///     ) -> Result<ReadResourceResponse, ErrorData> {
    ///         match request.uri.as_str() {
    ///             "docs://readme" => Ok(ReadResourceResult::new(vec![
    ///                 ResourceContents::text("Call add with two integers.", "docs://readme"),
    ///             ])
    ///             .into()),
    ///             other => Err(ErrorData::resource_not_found(format!("No resource {other}."), None)),
    ///         }
    ///     }
    /// }
    ///
    /// let server = McpServer::builder(()).tool(add_tool()).with_handler(Docs).build()?;
    /// let capabilities = server.get_info().capabilities;
    /// assert!(capabilities.tools.is_some() && capabilities.resources.is_some());
    /// # Ok::<(), mcp_tool_runtime::registry::RegistryError>(())
    /// ```
    ///
    #[doc = include_str!("../../docs/beside-the-tools.md")]
    pub fn with_handler<H: rmcp::ServerHandler>(mut self, handler: H) -> Self {
        self.handler = Some(Box::new(|_| Arc::new(Shared::new(handler))));
        self
    }

    /// Serves the resources, prompts and completions of a handler the server's state holds,
    /// as [`with_handler`](Self::with_handler) does: the state itself
    /// (`|counter: &Counter| counter`), or a part of it (`|app: &App| &app.docs`), as
    /// [`tool_set_of`](Self::tool_set_of) picks out tools. So one type can be both the tools'
    /// state and the rmcp `ServerHandler` of its prompts and resources, and both see the same
    /// data, with no `Arc` to share by hand; it is how rmcp's examples, whose one struct
    /// carries tools, prompts and resources, port (see `docs/from-rmcp.md`).
    ///
    /// ```
    /// use std::sync::atomic::{AtomicU64, Ordering};
    ///
    /// use mcp_tool_runtime::rmcp::model::{
    ///     ListResourcesResult, PaginatedRequestParams, Resource, ServerCapabilities, ServerConfig,
    /// };
    /// use mcp_tool_runtime::rmcp::service::RequestContext;
    /// use mcp_tool_runtime::rmcp::{ErrorData, RoleServer, ServerHandler};
    /// use mcp_tool_runtime::{McpServer, mcp_tool, mcp_tools};
    ///
    /// #[derive(Default)]
    /// struct Counter { count: AtomicU64 }
    ///
    /// #[mcp_tools]
    /// impl Counter {
    ///     /// Add one to the counter.
    ///     #[mcp_tool]
    ///     fn increment(&self) -> String {
    ///         (self.count.fetch_add(1, Ordering::Relaxed) + 1).to_string()
    ///     }
    /// }
    ///
    /// /// The counter's value, as a resource named after it.
    /// impl ServerHandler for Counter {
    ///     fn get_info(&self) -> ServerConfig {
    ///         ServerConfig::new(ServerCapabilities::builder().enable_resources().build())
    ///     }
    ///
    ///     async fn list_resources(
    ///         &self,
    ///         _page: Option<PaginatedRequestParams>,
    ///         _cx: RequestContext<RoleServer>,
    ///     ) -> Result<ListResourcesResult, ErrorData> {
    ///         let name = format!("count-{}", self.count.load(Ordering::Relaxed));
    ///         Ok(ListResourcesResult::with_all_items(vec![Resource::new("counter://count", name)]))
    ///     }
    /// }
    ///
    /// let server = McpServer::builder(Counter::default())
    ///     .tool_set()
    ///     .with_handler_of(|counter: &Counter| counter)
    ///     .build()?;
    /// assert!(server.get_info().capabilities.resources.is_some());
    /// # Ok::<(), mcp_tool_runtime::registry::RegistryError>(())
    /// ```
    pub fn with_handler_of<H: rmcp::ServerHandler>(mut self, part: fn(&S) -> &H) -> Self {
        self.handler = Some(Box::new(move |state| Arc::new(state.part(part))));
        self
    }

    /// The secret (at least 32 bytes) that seals the `requestState` of a 2026-07-28 call
    /// asking the client for input (see [`ToolContext::elicit`](crate::ToolContext::elicit)).
    /// Without it each server makes a random one, which is right for one process; instances
    /// behind a load balancer must share one, since a retry may reach another instance.
    pub fn request_state_key(mut self, key: impl Into<Vec<u8>>) -> Self {
        self.request_state_key = Some(key.into());
        self
    }

    /// How long a sealed `requestState` stays valid (default one hour): a retry after that
    /// is refused, and the client starts the call over.
    pub fn request_state_ttl(mut self, ttl: Duration) -> Self {
        self.request_state_ttl = ttl;
        self
    }

    /// How long a 2026-07-28 client may reuse this server's `tools/list` and
    /// `server/discover` results, and whether a cache may share them among callers
    /// (`ttlMs`, `cacheScope`). The default, zero and private, asks clients to fetch again
    /// each time, which is right for any server; raise it when the tool set is stable. A tool
    /// can lower the list's time ([`ToolInfoBuilder::cache_ttl`](crate::tool::ToolInfoBuilder),
    /// `#[mcp_tool(cache_ttl = "1m")]`), and a server with a
    /// [`visibility`](Self::visibility) rule always lists privately, since each caller may
    /// see other tools. Clients of older revisions get no hints.
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_tool_runtime::rmcp::model::CacheScope;
    /// # use mcp_tool_runtime::{McpServer, mcp_tool};
    /// # /// Add two numbers.
    /// # #[mcp_tool] fn add(a: i64, b: i64) -> String { (a + b).to_string() }
    /// let server = McpServer::builder(())
    ///     .tool(add_tool())
    ///     .cache_hints(Duration::from_secs(300), CacheScope::Public)
    ///     .build()?;
    /// # Ok::<(), mcp_tool_runtime::registry::RegistryError>(())
    /// ```
    pub fn cache_hints(mut self, ttl: Duration, scope: CacheScope) -> Self {
        self.cache_hints = CacheHints { ttl, scope };
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

    /// How large an array or object of a message may be, and how many values it may hold
    /// in all (default 100,000 items, 10,000 keys and 200,000 values; see [`InputLimits`]).
    /// Both transports check every message against them before parsing it, and calls made
    /// otherwise are checked before their arguments are parsed.
    pub fn input_limits(mut self, limits: InputLimits) -> Self {
        self.input_limits = limits;
        self
    }

    /// Builds the registry and publishes every tool definition once. Fails when there is no
    /// tool, when two tools share a name, or when a tool built at run time has a name MCP does
    /// not allow ([`RegistryError::InvalidName`]).
    pub fn build(self) -> Result<McpServer<S>, RegistryError> {
        if self.tools.is_empty() {
            return Err(RegistryError::NoTools);
        }
        let implementation = self
            .implementation
            .unwrap_or_else(|| default_implementation(&self.tools));
        let offers_tasks = self
            .tools
            .iter()
            .any(|tool| tool.info().task_support() != TaskSupport::Forbidden);
        let apps = Apps::new(self.ui_resources, &self.tools)?;
        let live = Live::new(self.tools, self.profile, self.input_mode, self.input_limits)?;
        let store = self
            .store
            .unwrap_or_else(|| Arc::new(MemoryStore::new()) as Arc<dyn Store>);
        let state = Shared::new(self.state);
        let handler = self.handler.map(|make| make(&state));
        Ok(McpServer {
            inner: Arc::new(Inner {
                state,
                live: Arc::new(live),
                visibility: self.visibility,
                info: handler::base_info(
                    implementation,
                    self.instructions,
                    offers_tasks,
                    apps.as_ref(),
                ),
                default_timeout: self.default_timeout,
                handler,
                middleware: self.middleware,
                sealer: Sealer::new(self.request_state_key, self.request_state_ttl)?,
                cache_hints: self.cache_hints,
                tasks: Tasks::new(store, self.task_settings),
                apps,
            }),
            session: Arc::default(),
        })
    }
}

/// The name and version of the crate that defines the first tool, or the runtime's own for a
/// server whose tools were all built by hand.
fn default_implementation<S>(tools: &[ToolDef<S>]) -> Implementation {
    let (name, version) = tools
        .iter()
        .find_map(|tool| tool.info().crate_info())
        .unwrap_or(("mcp-tool-server", env!("CARGO_PKG_VERSION")));
    Implementation::new(name, version)
}

impl<S: Send + Sync + 'static> McpServer<S> {
    /// Starts building a server around `state`.
    pub fn builder(state: S) -> ServerBuilder<S> {
        ServerBuilder {
            state,
            tools: Vec::new(),
            implementation: None,
            instructions: None,
            profile: SchemaProfile::default(),
            input_mode: InputMode::default(),
            input_limits: InputLimits::default(),
            default_timeout: None,
            handler: None,
            middleware: Vec::new(),
            visibility: None,
            request_state_key: None,
            request_state_ttl: DEFAULT_STATE_TTL,
            cache_hints: CacheHints::default(),
            store: None,
            task_settings: TaskSettings::default(),
            ui_resources: Vec::new(),
        }
    }
}
