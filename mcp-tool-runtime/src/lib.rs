//! Write Model Context Protocol tools as plain Rust functions.
//!
//! Put [`macro@mcp_tool`] on a function and the framework derives the tool's input schema
//! from its arguments, its output schema from its return type, validates every call
//! (serde types and `validator` constraints), and turns every failure into a result a
//! language model can read and act on.
//!
//! ```
//! use mcp_tool_runtime::{Json, McpServer, ToolError, mcp_tool};
//!
//! #[derive(serde::Serialize, schemars::JsonSchema)]
//! struct Quote { sku: String, total_cents: u64 }
//!
//! /// Price a quantity of one catalog item.
//! ///
//! /// # Arguments
//! /// * `sku` - Catalog code such as "ABC-0001".
//! /// * `quantity` - How many to price.
//! #[mcp_tool(read_only)]
//! fn quote(
//!     #[validate(length(min = 8, max = 8))] sku: String,
//!     #[validate(range(min = 1, max = 100))] quantity: u32,
//! ) -> Result<Json<Quote>, ToolError> {
//!     Ok(Json(Quote { sku, total_cents: 250 * u64::from(quantity) }))
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let server = McpServer::builder(()).tool(quote_tool()).build()?;
//! let result = server
//!     .call("quote", Some(serde_json::json!({"sku": "ABC-0001", "quantity": "five"})))
//!     .await?;
//! assert_eq!(result.is_error, Some(true));
//! let text = format!("{:?}", result.content);
//! assert!(text.contains("Argument 'quantity' expected an integer, but received 'five'."));
//! # Ok(()) }
//! ```
//!
//! # Error types
//!
//! A tool returns `Result<T, ToolError>`, or `Result<T, E>` for an error type of your own.
//! `?` on any other error masks it: the model reads a generic message with a correlation id,
//! the log gets the cause. To give your own error type codes, derive [`macro@ToolError`]:
//!
//! ```
//! use mcp_tool_runtime::{McpServer, ToolError, mcp_tool};
//!
//! #[derive(Debug, ToolError)]
//! enum ShopError {
//!     /// Shown to the model with the code `not_found` and a hint.
//!     #[tool_error(code = "not_found", hint = "Use search_items to find valid ids.")]
//!     NotFound(u64),
//!     /// No attribute: masked like any foreign error.
//!     Db(std::io::Error),
//! }
//! # impl std::fmt::Display for ShopError {
//! #     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
//! #         match self { Self::NotFound(id) => write!(f, "No product with id {id}."), Self::Db(e) => e.fmt(f) }
//! #     }
//! # }
//! # impl std::error::Error for ShopError {}
//!
//! /// Look up a product.
//! #[mcp_tool]
//! fn product(id: u64) -> Result<String, ToolError> {
//!     Err(ShopError::NotFound(id))? // `?` keeps the mapping: `not_found`, not masked
//! }
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let server = McpServer::builder(()).tool(product_tool()).build()?;
//! let result = server.call("product", Some(serde_json::json!({"id": 99}))).await?;
//! assert!(format!("{:?}", result.content).contains("No product with id 99."));
//! # Ok(()) }
//! ```
//!
//! Why a derive and a registry: `ToolError` converts from every `std::error::Error` (that is
//! what makes `?` mask foreign errors), so `impl From<ShopError> for ToolError` would overlap
//! it (E0119), and stable Rust has no specialization. The derive registers the type's mapping
//! at link time (the `inventory` crate); the one `From` looks the error's type up there and
//! masks what it does not find. Returning `Result<T, ShopError>` and `?` into
//! `Result<T, ToolError>` both go through that `From`, so both keep the mapping; the look-up
//! costs only failed calls.
//! `anyhow::Error` and `Box<dyn Error + Send + Sync>` are not `std::error::Error`, and a
//! `From` for them would overlap the one above (E0119: "upstream crates may add a new impl of
//! trait `std::error::Error`"). So `#[mcp_tool]` reads them in the return type itself: a tool
//! returning `anyhow::Result<T>`, `Result<T, anyhow::Error>` or
//! `Result<T, Box<dyn Error + Send + Sync>>` masks its errors, with the whole chain of causes
//! in the log, and `?` works inside it as anyhow's own `From` allows. (The macro reads the
//! written path: spell `anyhow::Result<T>`, not a `Result<T>` imported from anyhow.) Inside a tool that
//! returns `Result<T, ToolError>`, convert an `anyhow::Error` with
//! `.map_err(ToolError::internal)`. A `Result<T, String>` is refused at compile time: return
//! `ToolError::new(code, message)` to show the text, or `ToolError::internal(error)` to mask
//! it.
//!
//! # Sync and async tools
//!
//! An `async fn` tool runs on the server's executor, like any task: it must not block. A sync
//! `fn` tool may block (a database driver, a file, a long computation): it runs on a thread of
//! the sync tools' pool, so it never stalls other calls, even on a current-thread runtime. The
//! hand-off costs a few microseconds per call (`P1s` in BENCHMARKS.md); a cheap tool that never
//! blocks can be an `async fn` to skip it. Its arguments and its return value move between
//! threads, so they are `Send + 'static`, as owned types are.
//!
//! A time limit (`#[mcp_tool(timeout = "2s")]`, or the server's default) answers `timeout` at
//! the limit for both kinds. An async tool is then dropped at its next `.await`. A sync tool's
//! thread cannot be stopped from outside: it runs on to the end and its result is discarded,
//! so the model is told that the work may still complete. The pool's threads never keep the
//! process alive: a stdio server exits when its client goes, even with a tool still running.
//!
//! Methods on a state type work the same way inside an `impl` block marked
//! [`macro@mcp_tools`]; see that macro. [`McpServer`] serves the tools over rmcp, on stdio
//! ([`McpServer::serve_stdio`](crate::McpServer::serve_stdio)) or Streamable HTTP
//! (`McpServer::serve_http`, feature `http`).
//!
//! # Where things are
//!
//! The root holds what every server uses: the macros, [`McpServer`] and its
//! [`ServerBuilder`], [`ToolError`](struct@ToolError) and [`ErrorCode`], [`Json`], [`ToolContext`] and
//! [`Elicitation`], [`ToolDef`] and [`ToolInfo`] for tools built at run time, the
//! [`SchemaProfile`], the input options ([`InputMode`], [`InputLimits`]) and the transports'
//! options ([`StdioOptions`], and `HttpOptions` with the feature `http`). The rest is grouped
//! by concept:
//!
//! | module | what it holds |
//! | --- | --- |
//! | [`error`] | the error type, its codes, the violations and the envelope the model and clients read |
//! | [`tool`] | a tool's definition, output, context, principal and the sets of tools of a state type |
//! | [`registry`] | the tools a server serves, and the live set that changes while it serves |
//! | [`middleware`] | code around every call, and the built-ins (tracing, rate and concurrency limits; OpenTelemetry metrics with the feature `otel`) |
//! | [`schema`] | the schema profiles and the rules the published schemas follow |
//! | [`stdio`] | serving over stdio, and logging to stderr without blocking |
//! | `http` | Streamable HTTP: the service, its guard and token verification (feature `http`) |
//! | `client` | calling tools from Rust with retries (feature `client`) |
//! | `testing` | a client connected in memory, for tests of your tools (feature `testing`) |

// docs.rs builds with `--cfg docsrs` on nightly: show which feature each item needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

// The folders are the stages of a call, from the wire inwards; each depends only on those
// listed after it. Five are public, each its concept's facade: only their `mod.rs` says what
// a user sees. The others are private, and the facade modules at the end of this file show
// what of them is public.
mod dispatch; // the registry: lookup, time limits, panics, failure log
pub mod error; // ToolError, codes, violations, the envelope: facts, no words
mod input; // arguments: serde and validator, repair, the schema walk
mod large; // what "large" means: every size past which an input is treated differently
pub mod middleware; // around each call: tracing, rate and concurrency limits, the user's own
mod render; // every sentence the model reads, and the protocol results
#[cfg(feature = "client")]
mod retry; // client side: calling with retries
pub mod schema; // canonical schemas, the profiles, one reader
mod server; // McpServer, its builder and the rmcp handler
mod stderr; // log lines to stderr through a bounded queue: a full pipe never blocks a call
pub mod store; // what outlives a call and instances share: tasks, rate-limit counters
#[cfg(feature = "testing")]
pub mod testing; // rmcp's client connected in memory
pub mod tool; // a tool's definition, call, context and output
mod transport; // stdio and HTTP, JSON-RPC checks before rmcp

pub use error::{ErrorCode, ToolError};
pub use input::InputLimits;
#[doc = include_str!("../docs/input.md")]
pub use input::InputMode;
pub use schema::SchemaProfile;
pub use server::{McpServer, ServeError, ServerBuilder};
pub use tool::{Elicitation, Json, Principal, ToolContext, ToolDef, ToolInfo};
#[cfg(feature = "http")]
pub use transport::HttpOptions;
pub use transport::StdioOptions;

/// Marks an `impl` block whose `#[mcp_tool]` methods are the tools of that state type.
/// Import both: `use mcp_tool_runtime::{mcp_tool, mcp_tools};`.
///
/// Several blocks on one type: one block without a name implements [`tool::ToolSet`], which
/// `.tool_set()` registers; each other block gets a name, `#[mcp_tools(name = admin_tools)]`,
/// and with it an associated function `admin_tools()` that returns its tools, which
/// `.tools(Shop::admin_tools())` registers. That function is `pub(crate)`, so a block nobody
/// registers is reported by the `dead_code` lint at its name; `vis = pub` exports it from a
/// library. It is generic over the server's state, which must be the type or borrow as it:
/// `Arc<Shop>` works. Two blocks without a name on one type fail to compile with
/// "conflicting implementations of trait `ToolSet`" (E0119) at their `#[mcp_tools]`: give
/// the other blocks a name.
///
/// ```
/// use std::sync::Arc;
/// use std::sync::atomic::{AtomicU64, Ordering};
///
/// use mcp_tool_runtime::{McpServer, mcp_tool, mcp_tools};
///
/// #[derive(Default)]
/// struct Shop { stock: AtomicU64 }
///
/// #[mcp_tools]
/// impl Shop {
///     /// How many items are in stock.
///     #[mcp_tool(read_only)]
///     fn stock(&self) -> String { self.stock.load(Ordering::Relaxed).to_string() }
/// }
///
/// #[mcp_tools(name = admin_tools)]
/// impl Shop {
///     /// Add items to the stock.
///     #[mcp_tool]
///     fn restock(&self, quantity: u64) -> String {
///         self.stock.fetch_add(quantity, Ordering::Relaxed);
///         "restocked".into()
///     }
/// }
///
/// let server = McpServer::builder(Arc::new(Shop::default()))
///     .tool_set()
///     .tools(Shop::admin_tools())
///     .build()?;
/// assert_eq!(server.registry().list().len(), 2);
/// # Ok::<(), mcp_tool_runtime::registry::RegistryError>(())
/// ```
pub use mcp_tool_macros::mcp_tools;
pub use mcp_tool_macros::{ToolError, mcp_tool};

/// The MCP SDK this framework serves through.
pub use rmcp;
/// Re-exported so that tool authors can derive `Validate` without their own dependency.
pub use validator;

pub mod apps {
    //! Tools with a user interface, the MCP Apps extension (SEP-1865,
    //! `io.modelcontextprotocol/ui`): the views ([`UiResource`]) a server registers with
    //! [`ServerBuilder::ui_resource`](crate::ServerBuilder::ui_resource), and who may call a
    //! tool ([`UiVisibility`]).
    //!
    #![doc = include_str!("../docs/apps.md")]

    pub use crate::server::{Permission, UiResource};
    pub use crate::tool::UiVisibility;
    pub use crate::tool::ui::{EXTENSION_ID, MIME_TYPE};
}

pub mod registry {
    //! The tools a server serves: the [`ToolRegistry`] built once, and the [`LiveTools`] that
    //! add, remove, enable and disable tools while the server runs.
    //!
    #![doc = include_str!("../docs/live-tools.md")]

    pub use crate::dispatch::{LiveTools, RegistryError, ToolRegistry, UnknownTool};
    pub use crate::server::ToolSighting;
}

pub mod stdio {
    //! Serving over stdio ([`McpServer::serve_stdio`](crate::McpServer::serve_stdio)), and
    //! logging to stderr without blocking.
    //!
    #![doc = include_str!("../docs/stdio.md")]

    pub use crate::stderr::StderrLog;
    pub use crate::transport::{LineTransport, StdinReader, StdioOptions};
}

#[cfg(feature = "http")]
pub mod http {
    //! Serving over Streamable HTTP (feature `http`): [`McpServer::serve_http`](crate::McpServer::serve_http), or the
    //! [`HttpService`] mounted in an app of your own behind its [`HttpGuardLayer`].
    //!
    #![doc = include_str!("../docs/http.md")]

    pub use crate::tool::def::BoxFuture;
    #[cfg(feature = "oauth")]
    #[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
    pub use crate::transport::{
        FetchError, Fetcher, HttpsFetcher, IntrospectionVerifier, JwsAlgorithm, JwtVerifier,
    };
    pub use crate::transport::{
        HttpGuard, HttpGuardLayer, HttpOptions, HttpResponse, HttpService, ProtectedResource,
        ResourceMetadata, StaticToken, TokenRejection, TokenVerifier,
    };
}

#[cfg(feature = "client")]
pub mod client {
    //! Calling tools from Rust through rmcp's client, retrying what may succeed later
    //! (feature `client`).
    //!
    #![doc = include_str!("../docs/client.md")]

    pub use crate::retry::{RemoteError, RetryError, RetryPolicy, call_with_retry};
}

/// What `#[mcp_tools]` leaves on the methods it has expanded. A module of the macro's name,
/// so that `use mcp_tool_runtime::mcp_tool;` imports it too and counts as used by them.
#[doc(hidden)]
pub mod mcp_tool {
    pub use mcp_tool_macros::__handled;
}

#[doc(hidden)]
pub mod __private;
