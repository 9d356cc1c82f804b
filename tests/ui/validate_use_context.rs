use mcp_tool_runtime::mcp_tool;
use mcp_tool_runtime::validator::ValidationError;

struct Catalog;

fn known_sku(sku: &str, _catalog: &Catalog) -> Result<(), ValidationError> {
    if sku.is_empty() { Err(ValidationError::new("sku")) } else { Ok(()) }
}

/// Reserve stock for an order.
#[mcp_tool]
fn reserve(#[validate(custom(function = known_sku, use_context))] sku: String) -> String {
    sku
}

fn main() {}
