use mcp_tool_runtime::mcp_tool;

/// Book seats.
#[mcp_tool]
fn book(
    #[validate(range(1, 100))] seats: u32,
    #[validate(length(1, 5))] name: String,
) -> String {
    format!("{seats} for {name}")
}

fn main() {}
