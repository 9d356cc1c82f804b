//! The same mistakes in one tool with several validated arguments: the first error of each
//! is at its argument; the `validator` derive, which sees all of them at once, repeats
//! what it can check at `#[mcp_tool]`.

use mcp_tool_runtime::mcp_tool;
use mcp_tool_runtime::validator::ValidationError;

/// Where to ship.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Address {
    city: String,
}

/// A label.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Tag {
    name: String,
}

fn weekday(day: String) -> Result<(), ValidationError> {
    let _ = day;
    Ok(())
}

/// Ship an order.
#[mcp_tool]
fn ship(
    #[validate(nested)] address: Address,
    #[validate(length(max = 5))] tags: Vec<Tag>,
    #[validate(custom(function = weekday))] day: String,
    #[validate(length(max = 5))] note: String,
) -> String {
    let _ = (address, tags, note);
    day
}

fn main() {}
