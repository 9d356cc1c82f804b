//! `gateway`: an MCP server with middleware in front of its tools, over stdio or Streamable
//! HTTP.
//!
//! ```text
//! gateway                                   # stdio
//! gateway --http 127.0.0.1:8080 [--stateless]
//! ```
//!
//! - `TraceCalls`: a `tracing` span per call (`RUST_LOG=mcp_tool_runtime=info` shows them).
//! - `tenant_check`, its own middleware (an `async fn`): over HTTP, a call must name its
//!   tenant in the `X-Tenant` header, or it is answered `forbidden`; the tools read the header
//!   through `ToolContext::http_parts`.
//! - `RateLimit`: `quote` allows 2 calls per minute per caller.
//! - `ConcurrencyLimit`: at most 8 calls at once.

use std::process::ExitCode;
use std::time::Duration;

use mcp_tool_examples::logging;
use mcp_tool_runtime::middleware::{
    CallOutcome, ConcurrencyLimit, Next, RateLimit, ToolRequest, TraceCalls, from_fn,
};
use mcp_tool_runtime::{HttpOptions, McpServer, ToolContext, ToolError, mcp_tool};

/// The tenant a call names in its `X-Tenant` header; `None` on stdio or without the header.
fn tenant(ctx: &ToolContext) -> Option<&str> {
    ctx.http_parts()?.headers.get("x-tenant")?.to_str().ok()
}

/// Say which tenant and caller the call came from.
#[mcp_tool(read_only)]
async fn whoami(ctx: ToolContext) -> String {
    let caller = ctx.principal().map_or("anonymous", |p| p.subject());
    match tenant(&ctx) {
        Some(tenant) => format!("tenant {tenant}, caller {caller}"),
        None => format!("no tenant (stdio), caller {caller}"),
    }
}

/// Quote the price of a catalog item.
///
/// # Arguments
/// * `sku` - Catalog code such as "ABC-0001".
#[mcp_tool(read_only)]
async fn quote(sku: String) -> String {
    format!("{sku}: 2.50")
}

/// Over HTTP, refuses calls that name no tenant.
async fn tenant_check(request: ToolRequest<'_>, next: Next<'_>) -> Result<CallOutcome, ToolError> {
    let ctx = request.context();
    if ctx.http_parts().is_some() && tenant(ctx).is_none() {
        return Err(ToolError::forbidden("This server serves tenants only.")
            .with_hint("Send the X-Tenant header with your tenant's name."));
    }
    Ok(next.run(request).await)
}

fn main() -> ExitCode {
    logging::init_stderr();
    let code = run();
    logging::flush();
    code
}

fn run() -> ExitCode {
    let mut http = None;
    let mut stateless = false;
    let mut words = std::env::args().skip(1);
    while let Some(word) = words.next() {
        match word.as_str() {
            "--http" => http = words.next(),
            "--stateless" => stateless = true,
            other => {
                tracing::error!(
                    "unknown option '{other}'; usage: gateway [--http ADDR [--stateless]]"
                );
                return ExitCode::FAILURE;
            }
        }
    }
    let server = McpServer::builder(())
        .tool(whoami_tool())
        .tool(quote_tool())
        .implementation("gateway", env!("CARGO_PKG_VERSION"))
        .middleware(TraceCalls::new())
        .middleware(from_fn(tenant_check))
        .middleware(
            RateLimit::new(2, Duration::from_secs(60))
                .per_principal()
                .only(["quote"]),
        )
        .middleware(ConcurrencyLimit::new(8))
        .build();
    let server = match server {
        Ok(server) => server,
        Err(error) => {
            tracing::error!(%error, "invalid tool set");
            return ExitCode::FAILURE;
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            tracing::error!(%error, "cannot start the async runtime");
            return ExitCode::FAILURE;
        }
    };
    let served = runtime.block_on(async move {
        match http {
            Some(addr) => {
                let options = HttpOptions::from_env().stateless(stateless);
                let listener = tokio::net::TcpListener::bind(&addr)
                    .await
                    .map_err(mcp_tool_runtime::ServeError::Io)?;
                tracing::info!("gateway serving MCP at http://{addr}/mcp");
                server.serve_http_on(listener, options).await
            }
            None => server.serve_stdio().await,
        }
    });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(%error, "server stopped");
            ExitCode::FAILURE
        }
    }
}
