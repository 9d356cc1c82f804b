//! `inventory`: an MCP server for a small shop, over stdio.
//!
//! ```text
//! cargo run -q -p mcp-tool-examples --bin inventory
//! ```

use std::process::ExitCode;

use mcp_tool_examples::inventory::Inventory;
use mcp_tool_examples::logging;
use mcp_tool_runtime::McpServer;

#[tokio::main]
async fn main() -> ExitCode {
    logging::init_stderr();
    let inventory = match Inventory::open() {
        Ok(inventory) => inventory,
        Err(error) => {
            tracing::error!(%error, "could not create the inventory database");
            return ExitCode::FAILURE;
        }
    };
    let server = McpServer::builder(inventory)
        .tool_set()
        .implementation("inventory", env!("CARGO_PKG_VERSION"))
        .instructions("A small shop: search the catalog, manage a cart, look up users.")
        .build();
    let server = match server {
        Ok(server) => server,
        Err(error) => {
            tracing::error!(%error, "invalid tool set");
            return ExitCode::FAILURE;
        }
    };
    tracing::info!("inventory serving MCP on stdio");
    match server.serve_stdio().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(%error, "server stopped");
            ExitCode::FAILURE
        }
    }
}
