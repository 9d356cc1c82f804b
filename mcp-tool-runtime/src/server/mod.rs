//! An MCP server over rmcp: the tools' state, the registry, and the server's identity.
//! `handler` answers rmcp's requests; each transport owns its own `serve_*`.

mod apps;
mod builder;
mod cache_hints;
mod call;
mod extra;
mod handler;
mod handoff;
mod methods;
mod params;
mod rounds;
mod tasks;
mod visibility;

pub use apps::{Permission, UiResource};
pub use builder::ServerBuilder;
pub(crate) use handoff::{Handed, Handoff};
pub(crate) use methods::{
    SUPPORTED_METHODS, SUPPORTED_PROTOCOL_VERSIONS, TOOLS_CALL, is_routed, method_not_found,
    method_not_found_data,
};
pub(crate) use params::{invalid_params, params_problem};
pub use visibility::ToolSighting;

use std::fmt;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::ServerConfig;
use serde_json::Value;

use self::apps::Apps;
use self::cache_hints::CacheHints;
use self::extra::ExtraHandler;
use self::rounds::Sealer;
use self::visibility::Visibility;
use crate::dispatch::{CallOutcome, Live, LiveTools, ToolRegistry, UnknownTool};
use crate::error::Violation;
use crate::middleware::{Layer, run_chain};
use crate::tool::{Arguments, CallScope, Principal, Session, Shared, Tasks, ToolDef, ToolInfo};

/// A call under way: see [`McpServer::run_call`].
pub(crate) type RunningCall<'a> = Pin<Box<dyn Future<Output = CallOutcome> + Send + 'a>>;

struct Inner<S> {
    state: Shared<S>,
    live: Arc<Live<S>>,
    visibility: Option<Visibility>,
    /// The server's name, version, instructions and capabilities.
    info: ServerConfig,
    default_timeout: Option<Duration>,
    /// The user's handler of everything but tools and logging (`with_handler`).
    handler: Option<Arc<dyn ExtraHandler>>,
    middleware: Vec<Box<dyn Layer>>,
    /// Seals the answers a 2026-07-28 call carries from round to round.
    sealer: Sealer,
    cache_hints: CacheHints,
    /// The tasks this server runs and answers for, in its store.
    tasks: Tasks,
    /// The views and the negotiation of MCP Apps, for a server whose tools use it.
    apps: Option<Apps>,
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
///
#[doc = include_str!("../../docs/revisions.md")]
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
            .field("name", &self.inner.info.server_info.name)
            .field("tools", &*self.inner.live.load())
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
    /// The tools' shared state.
    pub fn state(&self) -> &S {
        &self.inner.state
    }

    /// The tools served now, before the [visibility](ServerBuilder::visibility) rule: a
    /// snapshot, which later changes through [`McpServer::tools`] do not alter.
    pub fn registry(&self) -> Arc<ToolRegistry<S>> {
        self.inner.live.load_full()
    }

    /// The handle that adds, removes, enables and disables this server's tools while it
    /// serves (see [`LiveTools`]).
    pub fn tools(&self) -> LiveTools<S> {
        LiveTools::new(Arc::clone(&self.inner.live))
    }

    /// Calls a tool in-process, exactly as a `tools/call` request without a principal would.
    pub async fn call(
        &self,
        name: &str,
        arguments: Option<Value>,
    ) -> Result<rmcp::model::CallToolResult, UnknownTool> {
        let registry = self.inner.live.load();
        let tool = self.lookup(&registry, name, None)?;
        let scope = CallScope::detached();
        let limit = self.inner.default_timeout;
        let (arguments, oversized) =
            Arguments::checked_if_sent(arguments, &registry.input_limits());
        let arguments = arguments.as_ref();
        // Awaited in place: nothing moves this future, so the box `run_call` makes for rmcp
        // would only cost its allocation (291 instructions, P1).
        let inner = &self.inner;
        let start = || registry.run(&inner.state, tool, arguments, &scope, limit);
        if inner.middleware.is_empty() && oversized.is_none() {
            // The registry's future awaited as it is: inside the `async` block below it was
            // copied in on every call (10,730 to 10,508 instructions a P1 call).
            return Ok(start().await.into_result());
        }
        let run = async {
            match oversized {
                Some(violation) => ToolRegistry::refuse(tool, *violation),
                None => start().await,
            }
        };
        let outcome = if inner.middleware.is_empty() {
            run.await
        } else {
            let sent = arguments.map(Arguments::value);
            run_chain(&inner.middleware, tool.info(), sent, &scope, run).await
        };
        Ok(outcome.into_result())
    }

    /// Runs one call of `tool` of `registry` through the middleware, if any, and the
    /// registry; `refused` when the arguments are over the input limits (found by the
    /// transport, or by [`Arguments::checked`]).
    ///
    /// Boxed, each path at its own size. rmcp moves the future of each request several
    /// times (into its task, then its stage), so the call's part of it is best behind a
    /// pointer; one box sized for the middleware path too (1,960 bytes) took glibc's slow
    /// path for large blocks on every call, where the path without middleware (about 560
    /// bytes) takes its per-thread cache: 14,389 to 12,687 instructions per in-process
    /// call (P2; rmcp's router takes 13,373).
    pub(crate) fn run_call<'a>(
        &'a self,
        registry: &'a ToolRegistry<S>,
        tool: &'a ToolDef<S>,
        arguments: Option<&'a Arguments>,
        refused: Option<Violation>,
        scope: &'a CallScope,
        default_timeout: Option<Duration>,
    ) -> RunningCall<'a> {
        let inner = &self.inner;
        let start = move || registry.run(&inner.state, tool, arguments, scope, default_timeout);
        if inner.middleware.is_empty() {
            // The registry's future itself, not an `async` block that copied it in on every
            // call (12,354 to 12,162 instructions a P2 call, `callgrind_profile.sh`).
            return match refused {
                Some(violation) => Box::pin(async move { ToolRegistry::refuse(tool, violation) }),
                None => Box::pin(start()),
            };
        }
        let run = async move {
            match refused {
                Some(violation) => ToolRegistry::refuse(tool, violation),
                None => start().await,
            }
        };
        let sent = arguments.map(Arguments::value);
        Box::pin(run_chain(&inner.middleware, tool.info(), sent, scope, run))
    }

    /// The tool `name` if `principal` may see it; otherwise the error for an unknown tool,
    /// naming only what `principal` may see.
    pub(crate) fn lookup<'r>(
        &self,
        registry: &'r ToolRegistry<S>,
        name: &str,
        principal: Option<&Principal>,
    ) -> Result<&'r ToolDef<S>, UnknownTool> {
        let visible = |info: &ToolInfo| self.visible(principal, info);
        match registry.get(name) {
            Some(tool) if visible(tool.info()) => Ok(tool),
            _ => Err(registry.unknown_among(name, visible)),
        }
    }

    /// Whether `principal` may see and call the tool `info`.
    pub(crate) fn visible(&self, principal: Option<&Principal>, info: &ToolInfo) -> bool {
        self.inner.visibility.as_ref().is_none_or(|rule| {
            rule(ToolSighting {
                principal,
                tool: info,
            })
        })
    }

    /// The server-wide time limit, if one is set.
    pub fn default_timeout(&self) -> Option<Duration> {
        self.inner.default_timeout
    }
}
