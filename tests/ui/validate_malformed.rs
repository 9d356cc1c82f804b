use mcp_tool_runtime::mcp_tool;

/// Rename a user.
#[mcp_tool]
fn rename_user(
    #[validate(lenght(min = 1, max = 64))] name: String,
    #[validate(range(min = 1, maxx = 1_000_000))] user_id: u64,
) -> String {
    format!("user {user_id} is now {name}")
}

fn main() {}
