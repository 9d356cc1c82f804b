"""Drives the `inventory` server with the official Python SDK (2.x) client.

Usage: python_client.py stdio PATH_TO_INVENTORY | python_client.py http URL

`mcp.Client` probes `server/discover` and, as the server answers it, speaks 2026-07-28: no
`initialize`, every request carrying its revision and capabilities in `_meta`. It would fall
back to `initialize` only on a server that does not answer the probe; the report says which
revision it speaks (`protocol`) and whether it fell back (`fell_back`). The client validates
`structuredContent` against each tool's `outputSchema` on success. Prints one JSON object
with what it saw; exits non-zero on the first broken promise.
"""

import asyncio
import json
import sys

from mcp import Client, StdioServerParameters

VALID_CALLS = {
    "add_item": {"sku": "ABC-0001", "quantity": 2, "note": "gift"},
    "search_items": {"query": "tea", "sort": "desc", "limit": 5},
    "get_user": {"user_id": 1},
    "list_users": {},
    "reserve_stock": {"sku": "DEF-0100", "quantity": 1},
}
EXPECTED_TOOLS = sorted([*VALID_CALLS, "legacy_report"])
BAD_ARGUMENTS = {"sku": "abc", "quantity": "five", "quantiy": 3}


def check(condition, message):
    if not condition:
        raise SystemExit(f"FAILED: {message}")


async def main(kind, target):
    server = StdioServerParameters(command=target, args=[]) if kind == "stdio" else target
    report = {}
    async with Client(server) as client:
        # The session keeps the answer that settled the revision: `initialize`'s after a
        # fallback, `server/discover`'s otherwise.
        report["protocol"] = client.protocol_version
        report["fell_back"] = client.session.initialize_result is not None
        check(
            (client.session.discover_result is None) == report["fell_back"],
            "the session holds both or neither of the discover and initialize results",
        )
        tools = (await client.list_tools()).tools
        names = sorted(tool.name for tool in tools)
        check(names == EXPECTED_TOOLS, f"tools listed: {names}")
        report["tools"] = names
        report["calls"] = {}
        for name, arguments in VALID_CALLS.items():
            result = await client.call_tool(name, arguments)
            check(not result.is_error, f"{name} failed: {result}")
            check(result.structured_content is not None, f"{name} has no structuredContent")
            report["calls"][name] = result.structured_content

        # legacy_report's valid call fails on purpose, masked: an isError result, no exception.
        masked = await client.call_tool("legacy_report", {"year": 2024})
        check(masked.is_error, "legacy_report did not fail")
        report["masked_text"] = masked.content[0].text

        bad = await client.call_tool("add_item", BAD_ARGUMENTS)
        check(bad.is_error, "bad arguments were accepted")
        report["bad_arguments_text"] = bad.content[0].text

        try:
            await client.call_tool("add_iten", {})
            check(False, "an unknown tool did not raise")
        except Exception as error:  # the SDK's MCPError carries the JSON-RPC error
            data = getattr(error, "error", None)
            code = getattr(data, "code", None) if data is not None else getattr(error, "code", None)
            report["unknown_tool"] = {"code": code, "message": str(error)}
            check(code == -32602, f"unknown tool code {code}: {error!r}")
    print(json.dumps(report))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
