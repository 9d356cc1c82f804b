// Compiles every schema of a JSON file [{id, profile, schema}] with Ajv's 2020-12 build in
// strict mode (unknown keywords and formats are errors; unresolvable $ref throws).
// Prints {"checked": n, "failures": [...]}.
const Ajv2020 = require("ajv/dist/2020.js").default;
const fs = require("fs");
const entries = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const STANDARD_FORMATS = ["date-time", "date", "time", "duration", "email", "idn-email",
  "hostname", "idn-hostname", "ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference",
  "uuid", "uri-template", "json-pointer", "relative-json-pointer", "regex"];
const failures = [];
// schemars's own integer and float formats: the full profile keeps them, as schemars writes
// them; every other profile must not use them.
const SCHEMARS_FORMATS = ["int8", "int16", "int32", "int64", "int128", "int", "uint8", "uint16",
  "uint32", "uint64", "uint128", "uint", "float", "double"];
for (const { id, profile, schema } of entries) {
  const ajv = new Ajv2020({ strict: true, allErrors: true, logger: false });
  for (const f of STANDARD_FORMATS) ajv.addFormat(f, true);
  if (profile === "full") for (const f of SCHEMARS_FORMATS) ajv.addFormat(f, true);
  // Ajv knows `nullable` (OpenAPI 3.0's null branch, which the gemini profile uses) itself.
  try {
    ajv.compile(schema);
  } catch (e) {
    failures.push(`${id}: ${e.message}`);
  }
}
console.log(JSON.stringify({ checked: entries.length, failures }));
