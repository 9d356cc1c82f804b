use mcp_tool_runtime::mcp_tool;

/// Add a note.
#[mcp_tool(scopes = "notes:write")]
fn add_note(text: String) -> String {
    text
}

/// Delete a note.
#[mcp_tool(scopes = ["notes:write", "", "notes:write", "notes admin", "a\"b", 5])]
fn delete_note(id: u64) -> String {
    format!("deleted {id}")
}

fn main() {}
