#!/usr/bin/env bash
# Instructions per HTTP call of a server binary, under callgrind: the difference between
# 2,500 and 500 `get_user` calls on one connection, divided by 2,000, so that start-up and
# shutdown cancel out. Needs valgrind and release builds:
#   cargo build --release -p mcp-tool-bench --bin http_load --bin bench-rmcp-http \
#       -p mcp-tool-examples --bin inventory
#   bench/scripts/callgrind_http.sh target/release/inventory [stateless|stateful]
#   bench/scripts/callgrind_http.sh target/release/bench-rmcp-http [stateless|stateful]
# CONNS=32 spreads the calls over 32 connections (one by default).
set -euo pipefail
bin=$1
mode=${2:-stateless}
root="$(cd "$(dirname "$0")/../.." && pwd)"
flag=()
[ "$mode" = stateless ] && flag=(--stateless)
total() {
  local calls=$1 port=$((20000 + RANDOM % 20000)) log
  log=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" --http "127.0.0.1:$port" "${flag[@]}" >"$log" 2>&1 &
  local pid=$!
  sleep 4
  "$root/target/release/http_load" --addr "127.0.0.1:$port" --modes "$mode" --connections ${CONNS:-1} \
    --requests "$calls" --rounds 1 >/dev/null 2>&1
  kill -TERM "$pid"
  wait "$pid" || true
  grep 'I   refs' "$log" | awk '{gsub(",", "", $4); print $4}'
  rm -f "$log"
}
small=$(total 500)
large=$(total 2500)
echo "$(basename "$bin") $mode: $(( (large - small) / 2000 )) instructions per call"
