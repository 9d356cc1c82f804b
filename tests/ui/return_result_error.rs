use mcp_tool_runtime::mcp_tool;

#[derive(Debug)]
enum CartError {
    OutOfStock,
}

/// Reserve stock for an order.
#[mcp_tool]
fn reserve(sku: String) -> Result<String, CartError> {
    if sku.is_empty() {
        return Err(CartError::OutOfStock);
    }
    Ok(format!("reserved {sku}"))
}

fn main() {}
