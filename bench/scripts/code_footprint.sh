#!/usr/bin/env bash
# What one HTTP call costs the caches of a server binary, under callgrind's cache model: the
# instructions, first-level instruction and data cache misses per call (2,500 calls minus
# 500, divided by 2,000), and the 64-byte lines of code each call runs (code_lines.py).
# Where instructions are within a percent of another server's but time is not, this is
# where the time goes (BENCHMARKS.md, P8). Needs valgrind and the release builds of
# callgrind_http.sh:
#   bench/scripts/code_footprint.sh target/release/inventory [stateless|stateful] [OUT_DIR]
# Then, for two servers' files, the lines of each function side by side:
#   python3 bench/scripts/code_lines.py OUT_DIR/inventory.2500.out 2500 \
#       OUT_DIR/bench-rmcp-http.2500.out
set -euo pipefail
bin=$1
mode=${2:-stateless}
out=${3:-$(mktemp -d)}
root="$(cd "$(dirname "$0")/../.." && pwd)"
name=$(basename "$bin")
flag=()
[ "$mode" = stateless ] && flag=(--stateless)
mkdir -p "$out"
run() {
  local calls=$1 port=$((20000 + RANDOM % 20000))
  valgrind --tool=callgrind --cache-sim=yes --dump-instr=yes \
    --callgrind-out-file="$out/$name.$calls.out" "$bin" --http "127.0.0.1:$port" "${flag[@]}" \
    >"$out/$name.$calls.log" 2>&1 &
  local pid=$!
  sleep 4
  "$root/target/release/http_load" --addr "127.0.0.1:$port" --modes "$mode" --connections 1 \
    --requests "$calls" --rounds 1 >/dev/null 2>&1
  kill -TERM "$pid"
  wait "$pid" || true
}
# The totals line of callgrind_annotate: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw.
totals() {
  callgrind_annotate "$out/$name.$1.out" | grep 'PROGRAM TOTALS' | tr -d ',' |
    awk '{print $1, $7, $9, $11}'
}
run 500
run 2500
read -r ir0 i1_0 d1r0 d1w0 < <(totals 500)
read -r ir1 i1_1 d1r1 d1w1 < <(totals 2500)
lines=$(python3 "$root/bench/scripts/code_lines.py" "$out/$name.2500.out" 2500 --top 0 | head -1)
echo "$name $mode per call: $(( (ir1 - ir0) / 2000 )) instructions," \
  "$(( (i1_1 - i1_0) / 2000 )) I1 misses, $(( (d1r1 - d1r0 + d1w1 - d1w0) / 2000 )) D1 misses," \
  "$lines; files in $out"
