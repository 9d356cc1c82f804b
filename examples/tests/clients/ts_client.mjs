// Drives the `inventory` server with the official TypeScript SDK (1.x) client.
//
// Usage: node ts_client.mjs stdio PATH_TO_INVENTORY | node ts_client.mjs http URL
//
// The 1.x client validates structuredContent against the outputSchema with Ajv, even on error
// results; every tool here declares one, so an error envelope in structuredContent would make
// callTool throw. The 1.x client speaks the revisions with the `initialize` handshake (up to
// 2025-11-25) and keeps no record of the one it settled on: it hands the `initialize`
// answer's protocolVersion to the transport's setProtocolVersion (the HTTP transport sends it
// as the MCP-Protocol-Version header), so the script wraps that method to report it as
// `protocol`. Prints one JSON object; exits non-zero on the first broken promise.
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

// The SDK lives in the local npm folder (.ci/.deps), named by NODE_PATH; ES modules do not
// read NODE_PATH, so resolve through it explicitly.
const require = createRequire(join(process.env.NODE_PATH, "resolve.js"));
const load = (path) => import(pathToFileURL(require.resolve(path)).href);
const { Client } = await load("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = await load("@modelcontextprotocol/sdk/client/stdio.js");
const { StreamableHTTPClientTransport } = await load(
  "@modelcontextprotocol/sdk/client/streamableHttp.js",
);

const VALID_CALLS = {
  add_item: { sku: "ABC-0001", quantity: 2, note: "gift" },
  search_items: { query: "tea", sort: "desc", limit: 5 },
  get_user: { user_id: 1 },
  list_users: {},
  reserve_stock: { sku: "DEF-0100", quantity: 1 },
};
const EXPECTED_TOOLS = [...Object.keys(VALID_CALLS), "legacy_report"].sort();

function check(condition, message) {
  if (!condition) {
    console.error(`FAILED: ${message}`);
    process.exit(1);
  }
}

const [kind, target] = process.argv.slice(2);
const transport =
  kind === "stdio"
    ? new StdioClientTransport({ command: target, args: [], stderr: "ignore" })
    : new StreamableHTTPClientTransport(new URL(target));
const report = { calls: {} };
const setProtocolVersion = transport.setProtocolVersion?.bind(transport);
transport.setProtocolVersion = (version) => {
  report.protocol = version;
  setProtocolVersion?.(version);
};
const client = new Client({ name: "ts-e2e", version: "1.0.0" });
await client.connect(transport);
if (kind !== "stdio") {
  check(
    transport.protocolVersion === report.protocol,
    `the HTTP transport sends ${transport.protocolVersion}, not ${report.protocol}`,
  );
}

const { tools } = await client.listTools();
report.tools = tools.map((tool) => tool.name).sort();
check(JSON.stringify(report.tools) === JSON.stringify(EXPECTED_TOOLS), `tools: ${report.tools}`);
for (const tool of tools) check(tool.outputSchema, `${tool.name} has no outputSchema`);

for (const [name, args] of Object.entries(VALID_CALLS)) {
  const result = await client.callTool({ name, arguments: args });
  check(!result.isError, `${name} failed: ${JSON.stringify(result)}`);
  check(result.structuredContent, `${name} has no structuredContent`);
  report.calls[name] = result.structuredContent;
}

const masked = await client.callTool({ name: "legacy_report", arguments: { year: 2024 } });
check(masked.isError === true, "legacy_report did not fail");
report.masked_text = masked.content[0].text;

const bad = await client.callTool({
  name: "add_item",
  arguments: { sku: "abc", quantity: "five", quantiy: 3 },
});
check(bad.isError === true, "bad arguments were accepted");
report.bad_arguments_text = bad.content[0].text;

try {
  await client.callTool({ name: "add_iten", arguments: {} });
  check(false, "an unknown tool did not throw");
} catch (error) {
  report.unknown_tool = { code: error.code, message: error.message };
  check(error.code === -32602, `unknown tool code ${error.code}: ${error}`);
}

await client.close();
console.log(JSON.stringify(report));
