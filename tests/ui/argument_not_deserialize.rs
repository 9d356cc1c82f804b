use mcp_tool_runtime::mcp_tool;

struct Point {
    x: i32,
    y: i32,
}

/// Move the cursor to a point on the canvas.
#[mcp_tool]
fn move_cursor(target: Point) -> String {
    format!("moved to ({}, {})", target.x, target.y)
}

fn main() {}
