//! Malformed `#[mcp_tools(...)]` options, each reported at its token.

use mcp_tool_runtime::{mcp_tool, mcp_tools};

struct Shop;

#[mcp_tools(name = "admin_tools")]
impl Shop {
    /// Empty the shop.
    #[mcp_tool]
    fn clear(&self) -> &'static str {
        "cleared"
    }
}

#[mcp_tools(name = 3, nmae = report_tools)]
impl Shop {
    /// Report.
    #[mcp_tool]
    fn report(&self) -> &'static str {
        "report"
    }
}

#[mcp_tools(vis = pub)]
impl Shop {
    /// Count.
    #[mcp_tool]
    fn count(&self) -> String {
        "3".into()
    }
}

#[mcp_tools(name = tools, vis = crate)]
impl Shop {
    /// Sell.
    #[mcp_tool]
    fn sell(&self) -> String {
        "1".into()
    }
}

#[mcp_tools(audit_tools)]
impl Shop {
    /// Audit.
    #[mcp_tool]
    fn audit(&self) -> String {
        "1".into()
    }
}

fn main() {
    let _ = Shop::admin_tools::<Shop>();
}
