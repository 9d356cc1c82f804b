//! The README's quick start, as a new user writes it: one crate depending on
//! `mcp-tool-runtime`, no tracing subscriber installed, served over stdio.

use std::fmt;
use std::time::Duration;

use mcp_tool_runtime::{Json, McpServer, ToolError, mcp_tool, mcp_tools};

/// A cart line, as the tool returns it.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct CartLine {
    sku: String,
    quantity: u32,
}

/// The shop's errors: the model reads a `NotFound` with its code and hint; a `Db` failure is
/// masked like any foreign error.
#[derive(Debug, ToolError)]
enum ShopError {
    #[tool_error(
        code = "not_found",
        hint = "Use add_item with a catalog code such as ABC-0001."
    )]
    NotFound(String),
    Db(std::io::Error),
}

impl fmt::Display for ShopError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotFound(sku) => write!(f, "No item with SKU '{sku}' is in the catalog."),
            Self::Db(error) => write!(f, "database failure: {error}"),
        }
    }
}

impl std::error::Error for ShopError {}

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

    /// The price of a catalog item, in cents.
    ///
    /// # Arguments
    /// * `sku` - Catalog code such as "ABC-0001".
    #[mcp_tool(read_only)]
    async fn price(&self, sku: String) -> Result<String, ShopError> {
        match sku.as_str() {
            "ABC-0001" => Ok("250".into()),
            "ZZZ-9999" => Err(ShopError::Db(std::io::Error::other("price table locked"))),
            _ => Err(ShopError::NotFound(sku)),
        }
    }

    /// Count the stock on the warehouse's shelves: a slow scan through a blocking library.
    ///
    /// # Arguments
    /// * `aisles` - How many aisles to scan; each takes 100 ms.
    #[mcp_tool(read_only, timeout = "1s")]
    fn count_stock(&self, #[validate(range(min = 1, max = 50))] aisles: u64) -> String {
        // A sync tool runs on the blocking pool: this sleep stalls no other call, and at the
        // time limit the call answers `timeout` while the scan finishes in the background.
        std::thread::sleep(Duration::from_millis(100 * aisles));
        format!("{} items on the shelves of {aisles} aisles.", 40 * aisles)
    }
}

// A second block on the same type needs a name; it is added with `.tools(Shop::report_tools())`.
#[mcp_tools(name = report_tools)]
impl Shop {
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
        .tools(Shop::report_tools())
        .implementation("shop", "1.0.0")
        .build()?
        .serve_stdio()
        .await?;
    Ok(())
}
