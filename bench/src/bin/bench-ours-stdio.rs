//! `add_item` with `#[mcp_tool]`, served over stdio (the P5 server for our side).
//! `--noop-middleware` registers one middleware that only passes calls on (P5m).

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = if std::env::args().any(|arg| arg == "--noop-middleware") {
        mcp_tool_bench::ours::server_with(mcp_tool_bench::Noop)
    } else {
        mcp_tool_bench::ours::server()
    };
    server.serve_stdio().await?;
    Ok(())
}
