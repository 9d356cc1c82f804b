#!/usr/bin/env bash
# Instructions per stdio `tools/call` of a server binary, under callgrind: the difference
# between 2,500 and 500 P5 calls (`add_item`, valid arguments) piped in after the handshake,
# divided by 2,000, so that start-up and shutdown cancel out. Needs valgrind and release builds:
#   cargo build --release -p mcp-tool-bench --bin bench-ours-stdio --bin bench-rmcp-stdio
#   bench/scripts/callgrind_stdio.sh target/release/bench-ours-stdio
#   bench/scripts/callgrind_stdio.sh target/release/bench-rmcp-stdio
# KEEP=DIR keeps the callgrind files (DIR/NAME.CALLS.out) for callgrind_annotate.
set -euo pipefail
bin=$1
name=$(basename "$bin")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
arguments='{"sku":"ABC-0001","quantity":3,"note":"gift wrap, please"}'
# The handshake, then `calls` calls with ids 1..calls.
lines() {
  echo '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"callgrind_stdio","version":"0.1.0"}}}'
  echo '{"jsonrpc":"2.0","method":"notifications/initialized"}'
  for ((id = 1; id <= $1; id++)); do
    echo "{\"jsonrpc\":\"2.0\",\"id\":$id,\"method\":\"tools/call\",\"params\":{\"name\":\"add_item\",\"arguments\":$arguments}}"
  done
}
# Runs `calls` calls; prints the instructions of the whole run. Stdin stays open until the
# answers are in: a server may end at end of input before it has answered.
run() {
  local calls=$1 out=/dev/null answered
  [ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && out="$KEEP/$name.$calls.out"
  lines "$calls" >"$dir/in"
  (cat "$dir/in"; sleep 3) | valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" \
    >"$dir/answers" 2>"$dir/log" || true
  answered=$(grep -c '"isError":false' "$dir/answers" || true)
  if [ "$answered" != "$calls" ]; then
    echo "$name answered $answered of $calls calls:" >&2
    tail -5 "$dir/log" >&2
    exit 1
  fi
  grep 'I   refs' "$dir/log" | awk '{gsub(",", "", $4); print $4}'
}
few=$(run 500)
all=$(run 2500)
echo "$name: $(( (all - few) / 2000 )) instructions per call"
