//! `add_item` with rmcp's `#[tool]`, served over stdio (the P5 server for rmcp's side).

use rmcp::ServiceExt;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let running = mcp_tool_bench::rmcp_tool::RmcpServer::default()
        .serve(rmcp::transport::stdio())
        .await?;
    running.waiting().await?;
    Ok(())
}
