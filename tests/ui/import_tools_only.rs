//! Only `mcp_tools` imported, and `#[mcp_tool]` used: on a method of an `#[mcp_tools]` block
//! rustc says `mcp_tool` is not found, at the attribute (no longer that `#[mcp_tools]` was
//! meant). On a free function no macro of ours runs: rustc suggests `#[mcp_tools]`, and
//! `tools_on_function.rs` shows what following that suggestion then says.

use mcp_tool_runtime::mcp_tools;

struct Shop;

#[mcp_tools]
impl Shop {
    /// Count the items.
    #[mcp_tool]
    fn count(&self) -> String {
        "3".into()
    }
}

/// Say hello.
#[mcp_tool]
fn hello() -> String {
    "hello".into()
}

fn main() {}
