//! `add_item` with `#[mcp_tool]`, served over stdio (the P5 server for our side).

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    mcp_tool_bench::ours::server().serve_stdio().await?;
    Ok(())
}
