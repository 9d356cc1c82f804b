#!/usr/bin/env python3
"""Lists the import cycles between the files of a crate: file A uses an item defined in file B
(through `use crate::…`, `use super::…` or a path in code) and B, directly or through others,
uses an item of A. A re-export alone (`pub use b::Item` in a mod.rs) is the module's surface,
not a use. Reads the text only (comments and strings stripped), so it is a check, not a proof.

    python3 bench/scripts/import_cycles.py mcp-tool-runtime/src [-v]
"""
import os, re, sys
from collections import defaultdict

root = sys.argv[1] if len(sys.argv) > 1 else 'mcp-tool-runtime/src'
verbose = '-v' in sys.argv

def modpath(rel):
    parts = rel[:-3].split('/')
    if parts[-1] in ('mod', 'lib'):
        parts = parts[:-1]
    return tuple(parts)

files = {}
for d, _, fs in os.walk(root):
    for f in fs:
        if f.endswith('.rs'):
            rel = os.path.relpath(os.path.join(d, f), root)
            files[modpath(rel)] = rel

def strip(src):
    src = re.sub(r'//[^\n]*', '', src)
    src = re.sub(r'/\*.*?\*/', '', src, flags=re.S)
    src = re.sub(r'"(\\.|[^"\\])*"', '""', src)
    return src

texts = {m: strip(open(os.path.join(root, f)).read()) for m, f in files.items()}

# inline modules (mod x { ... }) are treated as part of their file; tests modules too.
ITEM = re.compile(r'^\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+|const\s+|unsafe\s+|extern\s+"?[^"]*"?\s+)*(fn|struct|enum|const|static|type|trait|union|macro_rules!)\s+(\w+)', re.M)
defs = defaultdict(set)
for m, t in texts.items():
    for kind, name in ITEM.findall(t):
        defs[m].add(name)

def parse_tree(s, i, prefix, out):
    # parses a use tree at s[i:], appends (path tuple, alias) ; returns new index
    path = list(prefix)
    while True:
        while s[i].isspace(): i += 1
        if s[i] == '{':
            i += 1
            while True:
                while s[i].isspace() or s[i] == ',': i += 1
                if s[i] == '}':
                    return i + 1
                i = parse_tree(s, i, path, out)
        mt = re.match(r'(\*|r#\w+|\w+)', s[i:])
        seg = mt.group(1); i += len(seg)
        while s[i].isspace(): i += 1
        if s[i:i+2] == '::':
            path.append(seg); i += 2; continue
        alias = None
        ma = re.match(r'\s*as\s+(\w+)', s[i:])
        if ma:
            alias = ma.group(1); i += ma.end()
        out.append((tuple(path + [seg]), alias))
        return i

uses = defaultdict(list)      # module -> list of absolute paths used
reexports = defaultdict(dict) # module -> name -> absolute path
USE = re.compile(r'(pub(?:\([^)]*\))?\s+)?use\s+')
def absolute(m, path):
    if not path: return None
    if path[0] == 'crate': return tuple(path[1:])
    if path[0] in ('super', 'self'):
        cur = list(m)
        # file-level module: `super` from a.rs of module a::b is a
        p = list(path)
        while p and p[0] in ('super', 'self'):
            if p[0] == 'super': cur = cur[:-1]
            p = p[1:]
        return tuple(cur + p)
    # a name of a child module declared in this file
    if (m + (path[0],)) in files:
        return m + tuple(path)
    return None

for m, t in texts.items():
    for mu in USE.finditer(t):
        out = []
        try:
            parse_tree(t, mu.end(), [], out)
        except (IndexError, AttributeError):
            continue
        for path, alias in out:
            a = absolute(m, list(path))
            if a is None: continue
            name = alias or path[-1]
            if mu.group(1) and path[-1] != '*':
                reexports[m][name] = a
                # a re-export alone is the module's surface, not a use of the item
                if len(re.findall(r'\b' + re.escape(name) + r'\b', t)) < 2:
                    continue
            uses[m].append(a)
    # inline paths crate::a::b / super::x::y in code
    for mi in re.finditer(r'(?<![\w:])((?:crate|super)(?:::\w+)+)', t):
        p = mi.group(1).split('::')
        a = absolute(m, p)
        if a: uses[m].append(a)

def resolve(path, depth=0):
    """The defining module of the item at `path` (absolute, without crate)."""
    if depth > 20: return None
    mod = ()
    for i, seg in enumerate(path):
        if mod + (seg,) in files:
            mod = mod + (seg,)
            continue
        if seg == '*': return None
        if seg in defs[mod]:
            return mod
        if seg in reexports[mod]:
            target = reexports[mod][seg]
            return resolve(tuple(target) + tuple(path[i+1:]), depth + 1)
        return None
    return None  # a module path alone: no item

edges = defaultdict(set)
why = defaultdict(set)
for m, paths in uses.items():
    for p in paths:
        d = resolve(p)
        if d is not None and d != m and d in files:
            edges[m].add(d); why[(m, d)].add('::'.join(p))

# Tarjan SCC
index = {}; low = {}; stack = []; on = set(); sccs = []; counter = [0]
sys.setrecursionlimit(10000)
def strong(v):
    index[v] = low[v] = counter[0]; counter[0] += 1
    stack.append(v); on.add(v)
    for w in edges[v]:
        if w not in index:
            strong(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v: break
        sccs.append(comp)
for v in list(files):
    if v not in index: strong(v)
cyc = [c for c in sccs if len(c) > 1]
pairs = sorted({tuple(sorted((files[a], files[b]))) for a in edges for b in edges[a] if a in edges[b]})
print(f'{len(cyc)} cycles (strongly connected groups of files); {len(pairs)} mutually importing pairs')
for c in cyc:
    names = sorted(files[m] for m in c)
    print('  cycle:', ', '.join(names))
    if verbose:
        for a in c:
            for b in c:
                if b in edges[a]:
                    print(f'      {files[a]} -> {files[b]}: {sorted(why[(a,b)])}')

# A check in CI (.ci/run): any cycle fails it.
sys.exit(1 if cyc else 0)
