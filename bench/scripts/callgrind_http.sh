#!/usr/bin/env bash
# Instructions per HTTP call of a server binary, under callgrind: the difference between
# 2,500 and 500 `get_user` calls on one connection, divided by 2,000, so that start-up and
# shutdown cancel out. Needs valgrind and release builds:
#   cargo build --release -p mcp-tool-bench --bin http_load --bin bench-rmcp-http
#   cargo build --release -p mcp-tool-examples --bin inventory   # apart, as the summary does
#   bench/scripts/callgrind_http.sh target/release/inventory [stateless|stateful]
#   bench/scripts/callgrind_http.sh target/release/bench-rmcp-http [stateless|stateful]
# CONNS=32 spreads the calls over 32 connections (one by default).
#
# FOOTPRINT=DIR runs callgrind's cache model as well, keeps its files in DIR and adds, per
# call, the first-level instruction and data cache misses and the 64-byte lines of code a
# call runs (code_lines.py). Where instructions are within a percent of another server's
# but time is not, this is where the time goes (BENCHMARKS.md, P8). Then, for two servers:
#   python3 bench/scripts/code_lines.py DIR/inventory.2500.out 2500 DIR/bench-rmcp-http.2500.out
set -euo pipefail
bin=$1
mode=${2:-stateless}
root="$(cd "$(dirname "$0")/../.." && pwd)"
name=$(basename "$bin")
flag=()
[ "$mode" = stateless ] && flag=(--stateless)
callgrind=(--callgrind-out-file=/dev/null)
if [ -n "${FOOTPRINT:-}" ]; then
  mkdir -p "$FOOTPRINT"
  callgrind=(--cache-sim=yes --dump-instr=yes)
fi
# Runs `calls` calls; prints callgrind's totals: Ir, then with FOOTPRINT I1mr, D1mr, D1mw.
run() {
  local calls=$1 port=$((20000 + RANDOM % 20000)) log out=()
  log=$(mktemp)
  [ -n "${FOOTPRINT:-}" ] && out=(--callgrind-out-file="$FOOTPRINT/$name.$calls.out")
  valgrind --tool=callgrind "${callgrind[@]}" "${out[@]}" "$bin" --http "127.0.0.1:$port" \
    "${flag[@]}" >"$log" 2>&1 &
  local pid=$!
  sleep 4
  "$root/target/release/http_load" --addr "127.0.0.1:$port" --modes "$mode" --connections ${CONNS:-1} \
    --requests "$calls" --rounds 1 >/dev/null 2>&1
  kill -TERM "$pid"
  wait "$pid" || true
  if [ -n "${FOOTPRINT:-}" ]; then
    # The totals line of callgrind_annotate: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw.
    callgrind_annotate "$FOOTPRINT/$name.$calls.out" | grep 'PROGRAM TOTALS' | tr -d ',' |
      awk '{print $1, $7, $9, $11}'
  else
    grep 'I   refs' "$log" | awk '{gsub(",", "", $4); print $4}'
  fi
  rm -f "$log"
}
read -r ir0 i1_0 d1r0 d1w0 < <(run 500)
read -r ir1 i1_1 d1r1 d1w1 < <(run 2500)
echo "$name $mode: $(( (ir1 - ir0) / 2000 )) instructions per call"
if [ -n "${FOOTPRINT:-}" ]; then
  lines=$(python3 "$root/bench/scripts/code_lines.py" "$FOOTPRINT/$name.2500.out" 2500 --top 0 | head -1)
  echo "  $(( (i1_1 - i1_0) / 2000 )) I1 misses, $(( (d1r1 - d1r0 + d1w1 - d1w0) / 2000 ))" \
    "D1 misses, $lines"
fi
