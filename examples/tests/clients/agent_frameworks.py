"""Drives a server the way agent frameworks do, with no model: they list its tools, convert
them into their own tool form, and hand tool results to the model in their own way.

Usage:
  agent_frameworks.py genai-convert SERVER [ARGS...]   google-genai's MCP conversion of each tool
  agent_frameworks.py genai-error SERVER               the three-problem add_item call, as
                                                       google-genai hands it to the model
  agent_frameworks.py pydantic-ai-error SERVER TOOL ARGUMENTS
                                                       what pydantic-ai shows the model for an
                                                       error of TOOL called with ARGUMENTS (JSON)
  agent_frameworks.py openai-agents-strict SERVER [ARGS...]
                                                       openai-agents' strict conversion of each tool
  agent_frameworks.py fastmcp TARGET TOOL ARGUMENTS [ARGS...]
                                                       FastMCP as a client: each tool as FastMCP's
                                                       own `ProxyTool`, each output schema as the
                                                       type it parses results into, and what its
                                                       `ToolError` says for TOOL called with
                                                       ARGUMENTS; TARGET is a stdio server's
                                                       executable or a Streamable HTTP URL
  agent_frameworks.py python-sdk-close URL             an MCP Python SDK session over Streamable
                                                       HTTP, opened and closed

SERVER is a stdio server's executable. Prints one JSON object on its last line: what the
framework did, with every warning it logged. The Rust tests judge it.
"""

import asyncio
import json
import logging
import sys
import warnings


class Records(logging.Handler):
    """Every log record at `level` or above, from every logger."""

    def __init__(self, level):
        super().__init__(level)
        self.lines = []

    def emit(self, record):
        self.lines.append(f"{record.levelname} {record.name}: {record.getMessage()}")


def capture(level):
    handler = Records(level)
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(min(root.level or logging.WARNING, level))
    return handler


async def stdio_tools(server, args):
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=server, args=args)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            return (await session.list_tools()).tools


async def genai_convert(server, args):
    from google.genai import _mcp_utils

    tools = await stdio_tools(server, args)
    logged = capture(logging.WARNING)
    failures = {}
    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        for tool in tools:
            try:
                _mcp_utils.mcp_to_gemini_tool(tool)
            except Exception as error:  # the report names each failure
                failures[tool.name] = f"{type(error).__name__}: {error}"
    return {
        "tools": len(tools),
        "converted": len(tools) - len(failures),
        "failures": failures,
        "warnings": [str(w.message) for w in warned] + logged.lines,
    }


async def genai_error(server):
    """`google.genai._extra_utils` answers a function call of an MCP tool with
    `Part.from_function_response(name, {"error": result})` when `isError`: the whole
    `CallToolResult`, `_meta` included, serialised as the request sends it."""
    from google.genai import types
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    arguments = {"sku": "abc", "quantity": "five", "quantiy": 3}
    async with stdio_client(StdioServerParameters(command=server, args=[])) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            result = await session.call_tool("add_item", arguments)
    part = types.Part.from_function_response(name="add_item", response={"error": result})
    sent = part.model_dump(mode="json", exclude_none=True)["function_response"]["response"]
    return {
        "text": result.content[0].text,
        "whole": json.dumps(sent, separators=(",", ":"), ensure_ascii=False),
    }


async def pydantic_ai_error(server, tool, arguments):
    from fastmcp.client.transports import StdioTransport
    from pydantic_ai.exceptions import ModelRetry
    from pydantic_ai.mcp import MCPToolset

    toolset = MCPToolset(StdioTransport(command=server, args=[]))
    async with toolset:
        listed = {tool.name: tool for tool in await toolset.list_tools()}
        has_output_schema = getattr(listed[tool], "outputSchema", None) is not None
        try:
            await toolset.direct_call_tool(tool, json.loads(arguments))
            seen = None
        except ModelRetry as retry:
            # The retry prompt pydantic-ai sends the model.
            seen = retry.message
    return {"has_output_schema": has_output_schema, "model_sees": seen}


async def openai_agents_strict(server, args):
    from agents import Agent, RunContextWrapper
    from agents.mcp import MCPServerStdio

    logged = capture(logging.INFO)
    params = {"command": server, "args": args}
    async with MCPServerStdio(params=params, cache_tools_list=True) as mcp_server:
        agent = Agent(
            name="corpus",
            mcp_servers=[mcp_server],
            mcp_config={"convert_schemas_to_strict": True},
        )
        tools = await agent.get_mcp_tools(RunContextWrapper(context=None))
    return {
        "tools": len(tools),
        "strict": sorted(t.name for t in tools if t.strict_json_schema),
        "not_strict": sorted(t.name for t in tools if not t.strict_json_schema),
        "logged": [line for line in logged.lines if "strict" in line],
    }


async def fastmcp_client(target, tool_name, arguments, args):
    from fastmcp import Client
    from fastmcp.client.transports import StdioTransport, StreamableHttpTransport
    from fastmcp.exceptions import ToolError
    from fastmcp.server.providers.proxy import ProxyTool
    from fastmcp.utilities.json_schema_type import json_schema_to_type_adapter

    if target.startswith("http"):
        transport = StreamableHttpTransport(target)
    else:
        transport = StdioTransport(command=target, args=args)
    logged = capture(logging.WARNING)
    failures = {}
    client = Client(transport)
    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        async with client:
            tools = await client.list_tools()
            for tool in tools:
                try:
                    ProxyTool.from_mcp_tool(lambda: client, tool).to_mcp_tool()
                    if tool.output_schema is not None:
                        json_schema_to_type_adapter(tool.output_schema)
                except Exception as error:  # the report names each failure
                    failures[tool.name] = f"{type(error).__name__}: {error}"
            try:
                await client.call_tool(tool_name, json.loads(arguments))
                seen = None
            except ToolError as error:
                # What a FastMCP user hands on: the error's message.
                seen = str(error)
    return {
        "tools": len(tools),
        "converted": len(tools) - len(failures),
        "failures": failures,
        "model_sees": seen,
        "warnings": [str(w.message) for w in warned] + logged.lines,
    }


async def python_sdk_close(url):
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    logged = capture(logging.WARNING)
    async with streamable_http_client(url) as streams:
        async with ClientSession(streams[0], streams[1]) as session:
            await session.initialize()
            tools = (await session.list_tools()).tools
    return {"tools": len(tools), "warnings": logged.lines}


def main():
    command, target, *rest = sys.argv[1:]
    run = {
        "genai-convert": lambda: genai_convert(target, rest),
        "genai-error": lambda: genai_error(target),
        "pydantic-ai-error": lambda: pydantic_ai_error(target, *rest),
        "openai-agents-strict": lambda: openai_agents_strict(target, rest),
        "fastmcp": lambda: fastmcp_client(target, rest[0], rest[1], rest[2:]),
        "python-sdk-close": lambda: python_sdk_close(target),
    }[command]
    print(json.dumps(asyncio.run(run())))


if __name__ == "__main__":
    main()
