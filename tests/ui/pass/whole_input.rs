//! `#[arg(input)]`: one struct is the whole input. It derives `Validate` through the
//! runtime's re-export; `#[validate(crate = "mcp_tool_runtime::validator")]` makes the derive
//! refer to that re-export, so the crate needs no `validator` dependency of its own (without
//! it the derive writes `::validator::...` paths, which only resolve with a direct
//! dependency on `validator`).

use mcp_tool_runtime::validator::Validate;
use mcp_tool_runtime::{McpServer, mcp_tool};

/// The filter of an order search.
#[derive(serde::Deserialize, schemars::JsonSchema, Validate)]
#[validate(crate = "mcp_tool_runtime::validator")]
struct OrderQuery {
    /// The customer whose orders to list.
    #[validate(range(min = 1))]
    customer_id: u64,
    /// Only orders in this state.
    #[validate(length(min = 1, max = 20))]
    status: Option<String>,
}

/// List a customer's orders.
#[mcp_tool(read_only)]
fn list_orders(#[arg(input)] query: OrderQuery) -> String {
    format!("orders of {} ({:?})", query.customer_id, query.status)
}

fn main() {
    let tool = list_orders_tool::<()>();
    assert_eq!(
        tool.info().input_schema()["properties"]["customer_id"]["description"],
        "The customer whose orders to list."
    );
    let _server = McpServer::builder(()).tool(tool).build().unwrap();
}
