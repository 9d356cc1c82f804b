//! Runnable MCP servers built with mcp-tool.
//!
//! - `inventory`: a shop over a real SQLite database (`cargo run -p mcp-tool-examples --bin inventory`).
//! - `gateway`: middleware in front of the tools: tracing, a tenant check reading an HTTP
//!   header, a rate limit and a concurrency limit (`--bin gateway`).
//! - `live_tools`: tools added, removed, enabled and disabled while serving.

pub mod inventory;
pub mod logging;
pub mod shared;

// The README's code blocks run as this package's doctests, so that what a newcomer copies
// compiles and what it says the model reads is what the model reads. Here rather than in
// mcp-tool-runtime: a published crate cannot include a file outside its own folder.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
