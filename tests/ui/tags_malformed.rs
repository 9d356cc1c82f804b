use mcp_tool_runtime::mcp_tool;

/// Reset the shop.
#[mcp_tool(tags = "admin")]
fn reset() -> String {
    "reset".into()
}

/// Delete a user.
#[mcp_tool(tags = ["admin", "", "admin", 5])]
fn delete_user(id: u64) -> String {
    format!("deleted {id}")
}

fn main() {}
