//! Argument types of the user's own (derived `Deserialize` + `JsonSchema`), optional
//! arguments, structured output, and a call that goes through the generated handler.

use mcp_tool_runtime::{Json, McpServer, ToolError, mcp_tool};
use serde_json::json;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Point {
    x: i32,
    y: i32,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Unit {
    Pixels,
    Points,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Moved {
    x: i32,
    y: i32,
    unit: String,
}

/// Move the cursor to a point on the canvas.
///
/// # Arguments
/// * `target` - Where to move the cursor.
/// * `unit` - The unit of the coordinates (pixels when omitted).
#[mcp_tool(idempotent)]
async fn move_cursor(target: Point, unit: Option<Unit>) -> Result<Json<Moved>, ToolError> {
    let unit = match unit.unwrap_or(Unit::Pixels) {
        Unit::Pixels => "pixels",
        Unit::Points => "points",
    };
    Ok(Json(Moved {
        x: target.x,
        y: target.y,
        unit: unit.to_string(),
    }))
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let tool = move_cursor_tool::<()>();
    let schema = tool.info().input_schema();
    assert_eq!(schema["required"], json!(["target"]));
    assert!(tool.info().output_schema().is_some());

    let server = McpServer::builder(()).tool(tool).build().unwrap();
    let result = server
        .call(
            "move_cursor",
            Some(json!({"target": {"x": 3, "y": 4}, "unit": "points"})),
        )
        .await
        .unwrap();
    assert_ne!(result.is_error, Some(true));
    assert_eq!(
        result.structured_content,
        Some(json!({"x": 3, "y": 4, "unit": "points"}))
    );

    let result = server
        .call("move_cursor", Some(json!({"target": {"x": 3}})))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(true));
}
