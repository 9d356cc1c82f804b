//! `length` on a `Vec<T>` whose `T` is not `Serialize` (`validator` puts the checked value
//! in its errors): reported at the argument.

use mcp_tool_runtime::mcp_tool;

/// A label.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Tag {
    name: String,
}

/// Tag an order.
#[mcp_tool]
fn tag(#[validate(length(min = 1, max = 5))] tags: Vec<Tag>) -> String {
    tags.len().to_string()
}

fn main() {}
