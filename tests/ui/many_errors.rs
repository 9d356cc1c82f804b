use mcp_tool_runtime::mcp_tool;

#[mcp_tool(name = "delete user", destructiv)]
fn delete_user(user_id: u64) -> String {
    format!("deleted {user_id}")
}

fn main() {}
