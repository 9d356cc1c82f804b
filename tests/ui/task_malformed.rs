use mcp_tool_runtime::mcp_tool;

/// Build the report.
#[mcp_tool(task = "sometimes")]
async fn report() -> String {
    "done".into()
}

/// Import the file.
#[mcp_tool(task = true)]
async fn import() -> String {
    "imported".into()
}

/// Export the file.
#[mcp_tool(task = "optional", task_start = "later")]
async fn export() -> String {
    "exported".into()
}

/// Archive the file.
#[mcp_tool(task_start = "explicit")]
async fn archive() -> String {
    "archived".into()
}

fn main() {}
