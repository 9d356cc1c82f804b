// Checks MCP Apps wire shapes against the schema @modelcontextprotocol/ext-apps publishes
// (its `schema.json`, generated from the specification's types): each argument file holds
// {"McpUiToolMeta": [...], "McpUiResourceMeta": [...], "McpUiClientCapabilities": [...]}.
// Prints one line per checked value and exits 1 on the first that does not conform; the
// last line is the report, {"checked": N}.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(process.env.NODE_PATH + "/");
const Ajv2020 = require("ajv/dist/2020.js").default;
const schema = require("@modelcontextprotocol/ext-apps/schema.json");

const ajv = new Ajv2020({ strict: false, allErrors: true });
const values = JSON.parse(readFileSync(process.argv[2], "utf8"));
let checked = 0;
for (const [name, list] of Object.entries(values)) {
  const definition = schema.$defs[name];
  if (!definition) {
    console.error(`no definition ${name} in ext-apps schema.json`);
    process.exit(1);
  }
  const validate = ajv.compile(definition);
  for (const value of list) {
    if (!validate(value)) {
      console.error(`${name} rejects ${JSON.stringify(value)}: ${ajv.errorsText(validate.errors)}`);
      process.exit(1);
    }
    checked += 1;
    console.log(`${name} ok ${JSON.stringify(value)}`);
  }
}
console.log(JSON.stringify({ checked }));
