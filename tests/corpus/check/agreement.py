"""Generates argument values from published input schemas with hypothesis-jsonschema, and
mutations of them that the published schema rejects (checked with Draft202012Validator).

Input: [{tool, schema, canonical}]: the published (portable) input schema and the canonical
one (schemars's, with its number formats such as int64). Output: [{tool, kind, value, path}],
where kind is "valid" or the mutation (wrong_type, out_of_range, missing_required,
extra_property) and path is the mutated argument path (items[2].qty), as a list of
segments; node is the mutated node: the value itself, or for a missing or extra property the
object that holds it.

Integers beyond +-2^53 (issue 12, item 8). The published schema leaves out the bounds of
i64, u64 and wider types, which exceed what JSON clients represent exactly, so a value it
accepts may lie outside the Rust type. For a value holding such an integer, the expectation
comes from the canonical schema, whose integer formats are checked as the Rust type's range:
kind wide_in_range (the runtime must accept it) or wide_out_of_range (the runtime must reject
it with its range error at path). The range is checked on the number as the runtime reads it:
serde_json keeps an integer that fits i64 or u64 exactly and reads a larger one as the
nearest double, as JSON clients do. Values within +-2^53 keep the exact agreement."""
import json, sys, warnings
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import NonInteractiveExampleWarning
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator, FormatChecker

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

EXACT = 2**53
I64 = (-(2**63), 2**63 - 1)
U64 = (0, 2**64 - 1)
F32_MAX = 3.4028234663852886e38
# The Rust type's range of each number format schemars writes; i128 and u128 are filled from
# what serde_json holds, an i64 or a u64.
WIDTHS = {
    "int8": (-(2**7), 2**7 - 1), "int16": (-(2**15), 2**15 - 1), "int32": (-(2**31), 2**31 - 1),
    "uint8": (0, 2**8 - 1), "uint16": (0, 2**16 - 1), "uint32": (0, 2**32 - 1),
    "int64": I64, "int": I64, "uint64": U64, "uint": U64, "uint128": U64,
    "int128": (I64[0], U64[1]), "float": (-F32_MAX, F32_MAX),
}
# Integers past +-2^53 tried in every integer position: the ends of i64 and u64 and one past
# them, and numbers no 64-bit integer holds.
WIDE = [2**53 + 1, -(2**53 + 1), I64[1], I64[1] + 1, I64[0], I64[0] - 4096, U64[1], U64[1] + 1,
        10**25, -(10**25)]


def as_read(number):
    """The number as the runtime reads it: exact if an i64 or u64 holds it, else a double."""
    if isinstance(number, int) and not I64[0] <= number <= U64[1]:
        return float(number)
    return number


def width_checker():
    checker = FormatChecker()
    checker.checkers = dict(Draft202012Validator.FORMAT_CHECKER.checkers)
    for name, (low, high) in WIDTHS.items():
        def check(instance, low=low, high=high):
            if isinstance(instance, bool) or not isinstance(instance, (int, float)):
                return True
            # Python compares an int with a float exactly.
            return low <= as_read(instance) <= high
        checker.checks(name)(check)
    return checker


WIDTH_CHECKER = width_checker()


def is_wide(node):
    return isinstance(node, int) and not isinstance(node, bool) and abs(node) > EXACT


def holds_wide(value):
    return any(is_wide(node) for _, node in nodes(value))


def flattened(errors):
    for error in errors:
        yield error
        yield from flattened(error.context or [])


def wide_case(tool, exact, value):
    """A value with an integer past +-2^53: in range of the Rust types, or out of range at the
    first path the canonical schema rejects."""
    errors = list(exact.iter_errors(value))
    if not errors:
        return {"tool": tool, "kind": "wide_in_range", "value": value, "path": [], "node": []}
    # Inside a union the error is the union's; the range itself is among its context.
    ranges = [e for e in flattened(errors) if e.validator == "format"] or errors
    at = min((list(e.absolute_path) for e in ranges), key=json.dumps)
    return {"tool": tool, "kind": "wide_out_of_range", "value": value, "path": at, "node": at}


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


# The keywords whose presence leaves an object open, as the runtime's closing rule has them
# (mcp-tool-runtime/src/schema/close.rs): it says what it admits, or its properties are spread
# over sub-schemas.
LEAVE_OPEN = ("additionalProperties", "unevaluatedProperties", "patternProperties",
              "allOf", "anyOf", "oneOf", "$ref", "if")
DATA_KEYWORDS = ("enum", "const", "required", "default", "examples")


def closed(schema, root=True, closable=True):
    """The published schema with its objects closed as the runtime closes them. The portable
    profile leaves `additionalProperties: false` out (google-genai fails on it, issue 27);
    the runtime still rejects unknown keys at every depth of a struct, the one place where it
    is stricter than the published schema. Drawing from the closed form keeps unknown keys out
    of the valid draws, and keeps the extra-property mutation, which the runtime must reject."""
    if not isinstance(schema, dict):
        return schema
    # The branches of `allOf`, and of a union beside fixed properties (a flattened enum),
    # describe only part of one object: they stay open.
    branches_closable = {"allOf": False, "anyOf": "properties" not in schema}
    branches_closable["oneOf"] = branches_closable["anyOf"]
    out = {}
    for key, value in schema.items():
        if key in DATA_KEYWORDS:
            out[key] = value
        elif key in branches_closable and isinstance(value, list):
            out[key] = [closed(v, False, branches_closable[key]) for v in value]
        elif key in ("properties", "$defs", "patternProperties") and isinstance(value, dict):
            out[key] = {name: closed(v, False) for name, v in value.items()}
        elif key == "prefixItems" and isinstance(value, list):
            out[key] = [closed(v, False) for v in value]
        elif isinstance(value, dict):
            out[key] = closed(value, False)
        else:
            out[key] = value
    is_object = "properties" in out or (root and out.get("type") == "object")
    if closable and is_object and not any(k in out for k in LEAVE_OPEN):
        out["additionalProperties"] = False
    return out


def mutated_at(value, path):
    for seg in path:
        value = value[seg]
    return value


def wide_mutations(value):
    """Every integer position with each of WIDE, and with +-2^53 itself."""
    for path, node in nodes(value):
        if not path or isinstance(node, bool) or not isinstance(node, int):
            continue
        for new in WIDE + [EXACT, -EXACT]:
            yield replaced(value, path, new), path


def main():
    tools = json.load(open(sys.argv[1]))
    out = []
    for tool in tools:
        schema = closed(tool["schema"])
        # Declared formats (uuid, date, date-time) are meant: assert them.
        validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
        exact = Draft202012Validator(tool["canonical"], format_checker=WIDTH_CHECKER)
        drawn = []

        source = unrolled(schema, schema.get("$defs", {})) if "$defs" in schema else schema

        @settings(max_examples=EXAMPLES, database=None, deadline=None,
                  suppress_health_check=list(HealthCheck))
        @given(from_schema(source))
        def collect(value):
            drawn.append(value)

        collect()
        seen = set()
        tried = set()
        for value in drawn:
            key = json.dumps(value, sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            # hypothesis-jsonschema predates 2020-12's `prefixItems`: a draw the schema itself
            # rejects is the generator's limit, not a value from the schema.
            if not validator.is_valid(value):
                continue
            if holds_wide(value):
                out.append(wide_case(tool["tool"], exact, value))
            else:
                out.append({"tool": tool["tool"], "kind": "valid", "value": value, "path": [], "node": []})
            kinds = {}
            for mutated, path in wide_mutations(value):
                # Every candidate once per integer position (array indices aside) of a tool.
                shape = (json.dumps(["[]" if isinstance(seg, int) else seg for seg in path]), json.dumps(mutated_at(mutated, path)))
                if shape in tried or not validator.is_valid(mutated):
                    continue
                tried.add(shape)
                if not holds_wide(mutated):
                    # +-2^53 where the schema takes it: exact agreement, the value must pass.
                    out.append({"tool": tool["tool"], "kind": "valid", "value": mutated, "path": [], "node": []})
                else:
                    out.append(wide_case(tool["tool"], exact, mutated))
            for kind, mutated, path in mutations(value):
                # One of each kind per drawn value keeps the run short; the schema must reject it.
                if kinds.get(kind, 0) >= 2 or validator.is_valid(mutated):
                    continue
                kinds[kind] = kinds.get(kind, 0) + 1
                out.append({"tool": tool["tool"], "kind": kind, "value": mutated, "path": list(path),
                            "node": list(path[:-1]) if kind in ("missing_required", "extra_property") else list(path)})
    json.dump(out, open(sys.argv[2], "w"))


main()
