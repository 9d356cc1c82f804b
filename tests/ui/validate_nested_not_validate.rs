//! `#[validate(nested)]` on an argument whose type does not implement `Validate`: reported
//! at the argument, with what to derive.

use mcp_tool_runtime::mcp_tool;

/// Where to ship.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Address {
    city: String,
}

/// Ship an order.
#[mcp_tool]
fn ship(#[validate(nested)] address: Address) -> String {
    address.city
}

fn main() {}
