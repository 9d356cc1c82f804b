#!/usr/bin/env bash
# What one in-process call of `profile` (P1-P4's calls: ours_handler, rmcp_handler,
# ours_valid, handwritten_valid, ...) costs under callgrind's model of this machine's caches:
# instructions, first-level instruction and data cache misses, mispredicted branches, and the
# 64-byte lines of code it runs (code_lines.py). Each is the difference between 1,000 calls
# and 1,000 + CALLS, over CALLS, so that start-up cancels out. Where two paths' instructions
# differ by more than their time does, the misses say why (BENCHMARKS.md, P1 and P2).
#
#   cargo build --release -p mcp-tool-bench --bin profile
#   bench/scripts/callgrind_profile.sh CALL [CALLS]     # CALLS: 10,000 by default
#
# KEEP=DIR keeps the callgrind files, for `code_lines.py DIR/CALL.N.out N OTHER.out`.
set -euo pipefail
call=$1
calls=${2:-10000}
root="$(cd "$(dirname "$0")/../.." && pwd)"
dir=${KEEP:-$(mktemp -d)}
mkdir -p "$dir"
# Runs `n` calls; prints Ir, I1 misses, D1 misses (reads and writes) and mispredicted branches
# (conditional and indirect).
run() {
  local n=$1 out="$dir/$call.$1.out"
  valgrind --tool=callgrind --cache-sim=yes --branch-sim=yes --dump-instr=yes \
    --callgrind-out-file="$out" "$root/target/release/profile" "$call" "$n" >/dev/null 2>&1
  # The totals line: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim, each with a share.
  callgrind_annotate "$out" | grep 'PROGRAM TOTALS' | tr -d ',' |
    awk '{print $1, $7, $9 + $11, $21 + $25}'
}
read -r ir0 i1_0 d1_0 miss0 < <(run 1000)
read -r ir1 i1_1 d1_1 miss1 < <(run $((1000 + calls)))
per_call() { echo $(( ($2 - $1) / calls )); }
lines=$(python3 "$root/bench/scripts/code_lines.py" "$dir/$call.$((1000 + calls)).out" \
  $((1000 + calls)) --top 0 | head -1)
echo "$call: $(per_call "$ir0" "$ir1") instructions, $(per_call "$i1_0" "$i1_1") I1 misses," \
  "$(per_call "$d1_0" "$d1_1") D1 misses, $(per_call "$miss0" "$miss1") mispredictions, $lines"
[ -n "${KEEP:-}" ] || rm -rf "$dir"
