use mcp_tool_runtime::mcp_tool;

struct Clock;

impl Clock {
    /// The current server time.
    #[mcp_tool]
    fn now() -> String {
        "12:00".to_string()
    }
}

fn main() {}
