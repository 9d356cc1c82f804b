//! The README's quick start, as a new user writes it: one crate depending on
//! `mcp-tool-runtime`, no tracing subscriber installed, served over stdio.

use mcp_tool_runtime::{Json, McpServer, ToolError, mcp_tool, mcp_tools};

/// A cart line, as the tool returns it.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct CartLine {
    sku: String,
    quantity: u32,
}

/// The shop's state.
struct Shop {
    /// Where the daily report is read from.
    report_path: std::path::PathBuf,
}

#[mcp_tools]
impl Shop {
    /// Add an item to the shopping cart.
    ///
    /// # Arguments
    /// * `sku` - Catalog code such as "ABC-0001".
    /// * `quantity` - How many to add.
    #[mcp_tool(destructive = false)]
    async fn add_item(
        &self,
        #[validate(length(equal = 8))] sku: String,
        #[validate(range(min = 1, max = 100))] quantity: u32,
    ) -> Result<Json<CartLine>, ToolError> {
        Ok(Json(CartLine { sku, quantity }))
    }

    /// Today's sales report.
    #[mcp_tool(read_only)]
    async fn daily_report(&self) -> Result<String, ToolError> {
        // `?` on a foreign error masks it for the model; the cause goes to the log.
        Ok(std::fs::read_to_string(&self.report_path)?)
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let shop = Shop {
        report_path: "/nonexistent/mcp-tool-quickstart/report.txt".into(),
    };
    McpServer::builder(shop)
        .tool_set()
        .implementation("shop", "1.0.0")
        .build()?
        .serve_stdio()
        .await?;
    Ok(())
}
