//! Runnable MCP servers built with mcp-tool.
//!
//! - `inventory`: a shop over a real SQLite database (`cargo run -p mcp-tool-examples --bin inventory`).
//! - `gateway`: middleware in front of the tools: tracing, a tenant check reading an HTTP
//!   header, a rate limit and a concurrency limit (`--bin gateway`).
//! - `tour`: starts `inventory` as a child process and shows what a model sees.
//! - `live_tools`: tools added, removed, enabled and disabled while serving.

pub mod inventory;
pub mod logging;
