use mcp_tool_runtime::ToolError;

#[derive(Debug, ToolError)]
enum ShopError {
    #[tool_error(code = "Not Found")]
    NotFound(u64),
    #[tool_error(hint = "Try later.")]
    Busy,
    #[tool_error(masked, code = "db")]
    Db,
    #[tool_error(cod = "x")]
    Typo,
}

impl std::fmt::Display for ShopError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for ShopError {}

fn main() {}
