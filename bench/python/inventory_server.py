"""The inventory example's six tools as a Python SDK 2.x user writes them: MCPServer, pydantic
`Field` constraints, `Literal` for the enum, optional arguments with defaults.

The bodies are stubs: `cargo run --release -p mcp-tool-bench --bin tokens` compares only what
`tools/list` publishes, over stdio, with what the `inventory` example publishes.
"""

from typing import Annotated, Literal

from pydantic import Field

from mcp.server.mcpserver import MCPServer

mcp = MCPServer("inventory")

Sku = Annotated[str, Field(pattern=r"^[A-Z]{3}-[0-9]{4}$", examples=["ABC-0001"])]


@mcp.tool()
def add_item(
    sku: Sku,
    quantity: Annotated[int, Field(ge=1, le=100)],
    note: Annotated[str | None, Field(max_length=200)] = None,
) -> dict:
    """Add an item to the shopping cart."""
    return {}


@mcp.tool()
def search_items(
    query: Annotated[str, Field(min_length=1, max_length=100)],
    sort: Literal["asc", "desc"] = "asc",
    limit: Annotated[int, Field(ge=1, le=50)] = 10,
    tags: list[str] = [],
) -> dict:
    """Search the catalog by name or SKU."""
    return {}


@mcp.tool()
def get_user(user_id: Annotated[int, Field(ge=1)]) -> dict:
    """Look up a user by id."""
    return {}


@mcp.tool()
def list_users() -> dict:
    """List every user."""
    return {}


@mcp.tool()
def reserve_stock(sku: Sku, quantity: Annotated[int, Field(ge=1, le=100)]) -> dict:
    """Reserve stock of an item."""
    return {}


@mcp.tool()
def legacy_report(year: Annotated[int, Field(ge=2000, le=2100)]) -> dict:
    """The revenue report of a year."""
    return {}


if __name__ == "__main__":
    mcp.run()
