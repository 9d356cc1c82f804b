"""Generates argument values from published input schemas with hypothesis-jsonschema, and
mutations of them that the published schema rejects (checked with Draft202012Validator).

Input: [{tool, schema}]. Output: [{tool, kind, value, path}], where kind is "valid" or the
mutation (wrong_type, out_of_range, missing_required, extra_property) and path is the
mutated argument path (items[2].qty), as a list of
segments; node is the mutated node: the value itself, or for a missing or extra property the
object that holds it."""
import json, sys, warnings
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import NonInteractiveExampleWarning
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator

warnings.simplefilter("ignore", NonInteractiveExampleWarning)


def _shim_many_more():
    """hypothesis-jsonschema 0.23 calls `many.more()`, which newer Hypothesis replaced by a
    context manager and iterator. Give it `more()` back on top of the new protocol."""
    from hypothesis.internal.conjecture import utils as cu

    if hasattr(cu.many, "more"):
        return

    def more(self):
        if not hasattr(self, "_shim_iter"):
            self.__enter__()
            self._shim_iter = iter(self)
        try:
            next(self._shim_iter)
            return True
        except StopIteration:
            self.__exit__(None)
            return False

    cu.many.more = more


_shim_many_more()
EXAMPLES = int(sys.argv[3]) if len(sys.argv) > 3 else 25


def show(path):
    out = ""
    for seg in path:
        if isinstance(seg, int):
            out += f"[{seg}]"
        else:
            out += ("." if out else "") + seg
    return out


def nodes(value, path=()):
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from nodes(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from nodes(v, path + (i,))


def replaced(value, path, new):
    if not path:
        return new
    copy = json.loads(json.dumps(value))
    node = copy
    for seg in path[:-1]:
        node = node[seg]
    node[path[-1]] = new
    return copy


def mutations(value):
    for path, node in nodes(value):
        if not path:
            continue
        wrong = "oops" if isinstance(node, (dict, list)) else {"wrong": True}
        yield "wrong_type", replaced(value, path, wrong), path
        if isinstance(node, bool):
            continue
        if isinstance(node, int):
            for delta in (10**6, -(10**6), 10**25, -(10**25)):
                yield "out_of_range", replaced(value, path, node + delta), path
        if isinstance(node, str):
            yield "out_of_range", replaced(value, path, node + "x" * 300), path
    for path, node in nodes(value):
        if isinstance(node, dict):
            for key in node:
                copy = json.loads(json.dumps(value))
                target = copy
                for seg in path:
                    target = target[seg]
                del target[key]
                yield "missing_required", copy, path + (key,)
            yield "extra_property", replaced(value, path, {**node, "zz_extra": 1}), path + ("zz_extra",)


def unrolled(schema, defs, depth=3):
    """hypothesis-jsonschema cannot resolve recursive references: generate from the schema
    with each `$ref` unrolled a few levels (deeper levels end the recursion). Draws are still
    checked against the real schema."""
    if isinstance(schema, list):
        return [unrolled(s, defs, depth) for s in schema]
    if not isinstance(schema, dict):
        return schema
    ref = schema.get("$ref", "")
    if ref.startswith("#/$defs/"):
        target = defs[ref[len("#/$defs/"):]]
        if depth == 0:
            return {"not": {}}
        rest = {k: v for k, v in schema.items() if k != "$ref"}
        return unrolled({**target, **rest}, defs, depth - 1)
    return {k: (v if k in ("enum", "const", "required", "default", "examples") else unrolled(v, defs, depth))
            for k, v in schema.items() if k != "$defs"}


def main():
    tools = json.load(open(sys.argv[1]))
    out = []
    for tool in tools:
        schema = tool["schema"]
        # Declared formats (uuid, date, date-time) are meant: assert them.
        validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
        drawn = []

        source = unrolled(schema, schema.get("$defs", {})) if "$defs" in schema else schema

        @settings(max_examples=EXAMPLES, database=None, deadline=None,
                  suppress_health_check=list(HealthCheck))
        @given(from_schema(source))
        def collect(value):
            drawn.append(value)

        collect()
        seen = set()
        for value in drawn:
            key = json.dumps(value, sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            # hypothesis-jsonschema predates 2020-12's `prefixItems`: a draw the schema itself
            # rejects is the generator's limit, not a value from the schema.
            if not validator.is_valid(value):
                continue
            out.append({"tool": tool["tool"], "kind": "valid", "value": value, "path": [], "node": []})
            kinds = {}
            for kind, mutated, path in mutations(value):
                # One of each kind per drawn value keeps the run short; the schema must reject it.
                if kinds.get(kind, 0) >= 2 or validator.is_valid(mutated):
                    continue
                kinds[kind] = kinds.get(kind, 0) + 1
                out.append({"tool": tool["tool"], "kind": kind, "value": mutated, "path": list(path),
                            "node": list(path[:-1]) if kind in ("missing_required", "extra_property") else list(path)})
    json.dump(out, open(sys.argv[2], "w"))


main()
