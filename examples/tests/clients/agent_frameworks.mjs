// Drives a server the way the TypeScript agent frameworks do, with a scripted model in place of
// a real one: the framework lists the server's tools, converts them and sends them to the
// model; the model calls TOOL with ARGUMENTS (bad ones), and the framework sends it the answer.
// The scripted model keeps what it was sent.
//
// Usage:
//   node agent_frameworks.mjs ai-sdk TARGET TOOL ARGUMENTS [SERVER_ARGS...]
//       the AI SDK (`ai` generateText with `@ai-sdk/mcp` tools)
//   node agent_frameworks.mjs openai-agents TARGET TOOL ARGUMENTS [SERVER_ARGS...]
//       `@openai/agents` (an Agent with an MCP server, run by `run`)
//   node agent_frameworks.mjs openai-agents-strict TARGET TOOL ARGUMENTS [SERVER_ARGS...]
//       the same with `mcpConfig: { convertSchemasToStrict: true }`
//
// TARGET is a stdio server's executable, or the URL of a Streamable HTTP server. Prints one
// JSON object on its last line, with every warning the framework printed; the Rust tests
// judge it.

import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// The packages live in .ci/.deps/node (NODE_PATH), which `import` does not search.
const require = createRequire(join(process.env.NODE_PATH, 'resolve.js'));
const load = (path) => import(pathToFileURL(require.resolve(path)).href);

const warnings = [];
for (const level of ['warn', 'error']) {
  console[level] = (...args) => warnings.push(`${level}: ${args.map(String).join(' ')}`);
}
process.on('warning', (warning) => warnings.push(`process: ${warning.name}: ${warning.message}`));

const [command, target, toolName, argumentsJson, ...serverArgs] = process.argv.slice(2);
const isHttp = target.startsWith('http');

/// The text parts of what the model is sent as a tool's answer, joined.
function texts(value) {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(texts).join('\n');
  if (value && typeof value === 'object') {
    if (typeof value.text === 'string') return value.text;
    if ('value' in value) return texts(value.value);
    return JSON.stringify(value);
  }
  return String(value);
}

async function aiSdk() {
  const { generateText, stepCountIs } = await load('ai');
  const { MockLanguageModelV4 } = await load('ai/test');
  const { createMCPClient } = await load('@ai-sdk/mcp');
  let transport;
  if (isHttp) {
    transport = { type: 'http', url: target };
  } else {
    const { Experimental_StdioMCPTransport } = await load('@ai-sdk/mcp/mcp-stdio');
    transport = new Experimental_StdioMCPTransport({ command: target, args: serverArgs });
  }
  const client = await createMCPClient({ transport });
  const seen = [];
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  };
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      seen.push(options);
      const content = seen.length === 1
        ? [{ type: 'tool-call', toolCallId: 'call-1', toolName, input: argumentsJson }]
        : [{ type: 'text', text: 'done' }];
      const unified = seen.length === 1 ? 'tool-calls' : 'stop';
      return { content, finishReason: { unified, raw: unified }, usage, warnings: [] };
    },
  });
  try {
    const tools = await client.tools();
    await generateText({ model, tools, prompt: 'go', stopWhen: stepCountIs(2) });
  } finally {
    await client.close();
  }
  const sent = seen[0]?.tools ?? [];
  const answer = (seen[1]?.prompt ?? [])
    .filter((message) => message.role === 'tool')
    .flatMap((message) => message.content)
    .find((part) => part.type === 'tool-result');
  return {
    tools: sent.length,
    // What the AI SDK sends a provider: each tool's JSON schema, converted from ours.
    converted: sent.filter((tool) => tool.type === 'function' && tool.inputSchema?.type === 'object')
      .length,
    model_sees: answer ? texts(answer.output) : null,
  };
}

async function openaiAgents(strict) {
  const {
    Agent, MCPServerStdio, MCPServerStreamableHttp, Usage, run, setTracingDisabled,
  } = await load('@openai/agents');
  setTracingDisabled(true);
  const server = isHttp
    ? new MCPServerStreamableHttp({ url: target, name: 'server' })
    : new MCPServerStdio({ command: target, args: serverArgs, name: 'server' });
  const seen = [];
  const model = {
    async getResponse(request) {
      seen.push(request);
      const output = seen.length === 1
        ? [{
          type: 'function_call', callId: 'call-1', name: toolName, arguments: argumentsJson,
          status: 'completed',
        }]
        : [{
          type: 'message', role: 'assistant', status: 'completed',
          content: [{ type: 'output_text', text: 'done' }],
        }];
      return { usage: new Usage(), output, responseId: `response-${seen.length}` };
    },
    async *getStreamedResponse() {
      throw new Error('not streamed');
    },
  };
  await server.connect();
  try {
    const agent = new Agent({
      name: 'agent',
      model,
      mcpServers: [server],
      mcpConfig: { convertSchemasToStrict: strict },
    });
    await run(agent, 'go', { maxTurns: 3 });
  } finally {
    await server.close();
  }
  const sent = seen[0]?.tools ?? [];
  const input = Array.isArray(seen[1]?.input) ? seen[1].input : [];
  const answer = input.find((item) => item.type === 'function_call_result');
  return {
    tools: sent.length,
    converted: sent.filter((tool) => tool.type === 'function').length,
    strict: sent.filter((tool) => tool.strict).map((tool) => tool.name).sort(),
    not_strict: sent.filter((tool) => !tool.strict).map((tool) => tool.name).sort(),
    model_sees: answer ? texts(answer.output) : null,
  };
}

const runs = {
  'ai-sdk': aiSdk,
  'openai-agents': () => openaiAgents(false),
  'openai-agents-strict': () => openaiAgents(true),
};
const report = await runs[command]();
report.warnings = warnings;
process.stdout.write(`${JSON.stringify(report)}\n`);
process.exit(0);
