use mcp_tool_runtime::{mcp_tool, mcp_tools};

struct Library;

#[mcp_tools]
impl Library {
    /// Find books by title.
    #[mcp_tool]
    fn search(&self, title: String) -> String {
        format!("books titled {title}")
    }

    /// Find books by author.
    #[mcp_tool(name = "search")]
    fn search_by_author(&self, author: String) -> String {
        format!("books by {author}")
    }
}

fn main() {}
