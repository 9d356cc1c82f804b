// A custom error code is what clients match on: it must be snake_case, checked when the
// constant is evaluated.
use mcp_tool_runtime::{ErrorCode, error::ErrorClass};

const OUT_OF_STOCK: ErrorCode = ErrorCode::custom("Out Of Stock!", ErrorClass::Input, false);

fn main() {
    let _ = OUT_OF_STOCK;
}
