//! `#[mcp_tools]` where `#[mcp_tool]` was meant (rustc suggests it when `mcp_tool` is not
//! imported): on a free function, on a method of an `#[mcp_tools]` block, and on a method
//! of a plain `impl` block. Each error says what to write and what to import.

use mcp_tool_runtime::mcp_tools;

/// Say hello.
#[mcp_tools]
fn hello() -> String {
    "hello".into()
}

struct Shop;

#[mcp_tools]
impl Shop {
    /// Count the items.
    #[mcp_tools]
    fn count(&self) -> String {
        "3".into()
    }
}

struct Cart;

impl Cart {
    /// Empty the cart.
    #[mcp_tools]
    fn empty(&self) -> String {
        "emptied".into()
    }
}

fn main() {}
