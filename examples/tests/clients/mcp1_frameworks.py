"""Drives a server the way two more agent frameworks do, with no model: langchain-mcp-adapters
and google-adk. Both need packages that would downgrade the main venv (the MCP Python SDK 1.x,
google-genai 2.x), so this runs in `.ci/.deps/venv-mcp1`.

Usage:
  mcp1_frameworks.py langchain TARGET TOOL ARGUMENTS [SERVER_ARGS...]
  mcp1_frameworks.py adk TARGET TOOL ARGUMENTS [SERVER_ARGS...]
  mcp1_frameworks.py adk-gemini-schema TARGET TOOL ARGUMENTS [SERVER_ARGS...]
                    google-adk with its JSON-schema declarations off: each input schema
                    converted to Gemini's `Schema` (`_to_gemini_schema`)

TARGET is a stdio server's executable, or the `http://` URL of a Streamable HTTP server.
Each lists the tools, converts them as the framework does before a model sees them, then
calls TOOL with ARGUMENTS (JSON, bad ones) and reports what the framework hands the model.
Prints one JSON object on its last line, with every warning logged; the Rust tests judge it.
"""

import asyncio
import json
import logging
import sys
import warnings


class Records(logging.Handler):
    """Every log record at WARNING or above, from every logger."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.lines = []

    def emit(self, record):
        self.lines.append(f"{record.levelname} {record.name}: {record.getMessage()}")


def capture():
    handler = Records()
    logging.getLogger().addHandler(handler)
    return handler


async def langchain(target, tool_name, arguments, server_args):
    from langchain_core.utils.function_calling import convert_to_openai_tool
    from langchain_mcp_adapters.client import MultiServerMCPClient

    if target.startswith("http"):
        connection = {"transport": "streamable_http", "url": target}
    else:
        connection = {"transport": "stdio", "command": target, "args": server_args}
    client = MultiServerMCPClient({"server": connection})
    tools = await client.get_tools()
    failures = {}
    for tool in tools:
        # What `bind_tools` of every chat model does with a tool.
        try:
            convert_to_openai_tool(tool)
        except Exception as error:  # the report names each failure
            failures[tool.name] = f"{type(error).__name__}: {error}"
    tool = next(tool for tool in tools if tool.name == tool_name)
    call = {"name": tool_name, "args": arguments, "id": "call-1", "type": "tool_call"}
    message = await tool.ainvoke(call)
    return {
        "tools": len(tools),
        "converted": len(tools) - len(failures),
        "failures": failures,
        "status": message.status,
        "model_sees": message.content if isinstance(message.content, str)
        else "\n".join(block.get("text", "") for block in message.content),
    }


def scripted_model(tool_name, arguments, seen):
    """A model that calls `tool_name` once, then stops; it keeps every request it gets."""
    from google.adk.models.base_llm import BaseLlm
    from google.adk.models.llm_response import LlmResponse
    from google.genai import types

    class Scripted(BaseLlm):
        async def generate_content_async(self, llm_request, stream=False):
            seen.append(llm_request)
            if len(seen) == 1:
                call = types.FunctionCall(name=tool_name, args=arguments, id="call-1")
                part = types.Part(function_call=call)
            else:
                part = types.Part(text="done")
            # A real model reports its usage; ADK's telemetry warns when none comes.
            usage = types.GenerateContentResponseUsageMetadata(
                prompt_token_count=1, candidates_token_count=1, total_token_count=2
            )
            content = types.Content(role="model", parts=[part])
            yield LlmResponse(content=content, usage_metadata=usage)

    return Scripted(model="scripted")


async def adk(target, tool_name, arguments, server_args):
    from google.adk.agents import LlmAgent
    from google.adk.runners import InMemoryRunner
    from google.adk.tools.mcp_tool import (
        McpToolset,
        StdioConnectionParams,
        StreamableHTTPConnectionParams,
    )
    from google.genai import types
    from mcp import StdioServerParameters

    if target.startswith("http"):
        params = StreamableHTTPConnectionParams(url=target)
    else:
        server = StdioServerParameters(command=target, args=server_args)
        params = StdioConnectionParams(server_params=server)
    toolset = McpToolset(connection_params=params)
    seen = []
    agent = LlmAgent(
        name="inventory", model=scripted_model(tool_name, arguments, seen), tools=[toolset]
    )
    runner = InMemoryRunner(agent=agent)
    session = await runner.session_service.create_session(app_name=runner.app_name, user_id="u")
    message = types.Content(role="user", parts=[types.Part(text="go")])
    async for _ in runner.run_async(user_id="u", session_id=session.id, new_message=message):
        pass
    await toolset.close()
    await runner.close()
    declared = [
        declaration
        for tool in seen[0].config.tools or []
        for declaration in tool.function_declarations or []
    ]
    # The second request carries the tool's answer, as the model reads it.
    answers = [
        part.function_response.response
        for content in seen[-1].contents
        for part in content.parts or []
        if part.function_response is not None
    ]
    return {
        "tools": len(declared),
        "converted": len(declared),
        "declared": sorted(d.name for d in declared),
        # ADK converts each input schema to Gemini's `Schema` (`parameters`), or passes it
        # on as `parameters_json_schema` when its JSON-schema feature is on.
        "as_gemini_schema": sum(d.parameters is not None for d in declared),
        "model_sees": json.dumps(answers[-1], ensure_ascii=False) if answers else None,
    }


def main():
    command, target, tool, arguments, *rest = sys.argv[1:]
    if command == "adk-gemini-schema":
        from google.adk.features import FeatureName, override_feature_enabled

        override_feature_enabled(FeatureName.JSON_SCHEMA_FOR_FUNC_DECL, False)
    run = {"langchain": langchain, "adk": adk, "adk-gemini-schema": adk}[command]
    logged = capture()
    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        report = asyncio.run(run(target, tool, json.loads(arguments), rest))
    report["warnings"] = [f"{w.category.__name__}: {w.message}" for w in warned] + logged.lines
    print(json.dumps(report, ensure_ascii=False))


if __name__ == "__main__":
    main()
