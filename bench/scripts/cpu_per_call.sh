#!/usr/bin/env bash
# Server CPU per HTTP call of two builds (or one build in two settings), side by side: the
# way to tell whether a change on the HTTP path pays in time, where P8's throughput moves by
# percents from run to run and P8i counts instructions, not cache misses (BENCHMARKS.md, P8).
#
#   cargo build --release -p mcp-tool-bench --bin http_load
#   bench/scripts/cpu_per_call.sh MODE ROUNDS BIN_A BIN_B
#
# MODE is stateless or stateful; each of ROUNDS rounds starts A, then B (each afresh, on a
# port of its own), warms it with 5,000 calls and takes 3 samples of 40,000 `get_user` calls
# over 32 connections: the server's user and system time (`/proc/PID/stat`, in 10 ms ticks)
# over the calls. Prints each sample, then each side's mean and median in µs a call.
# A_ENV and B_ENV ("NAME=value ...") set each side's environment: one binary with a change
# switched by a variable of its own compares without the noise of two code layouts.
set -euo pipefail
mode=$1
rounds=$2
bin_a=$3
bin_b=$4
root="$(cd "$(dirname "$0")/../.." && pwd)"
load="$root/target/release/http_load"
flag=()
[ "$mode" = stateless ] && flag=(--stateless)
ticks_per_second=$(getconf CLK_TCK)
out=$(mktemp)

# Prints the server CPU per call, in µs, of three samples of `bin` with `env` set.
samples() {
  # Below Linux's ephemeral ports (32768 up), which the load's own connections take.
  local bin=$1 env=$2 port=$((20000 + RANDOM % 12000)) pid
  # shellcheck disable=SC2086
  env $env "$bin" --http "127.0.0.1:$port" "${flag[@]}" >/dev/null 2>&1 &
  pid=$!
  sleep 1.5
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "$bin did not start on port $port" >&2
    exit 1
  fi
  "$load" --addr "127.0.0.1:$port" --modes "$mode" --connections 32 --requests 5000 \
    --rounds 1 >/dev/null 2>&1
  for _ in 1 2 3; do
    local before after
    before=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    "$load" --addr "127.0.0.1:$port" --modes "$mode" --connections 32 --requests 40000 \
      --rounds 1 >/dev/null 2>&1
    after=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    awk -v ticks=$((after - before)) -v hz="$ticks_per_second" \
      'BEGIN {printf "%.2f\n", ticks * 1000000 / hz / 40000}'
  done
  kill "$pid"
  wait "$pid" 2>/dev/null || true
}

for round in $(seq "$rounds"); do
  for side in A B; do
    if [ "$side" = A ]; then bin=$bin_a env=${A_ENV:-}; else bin=$bin_b env=${B_ENV:-}; fi
    values=$(samples "$bin" "$env")
    for sample in $values; do
      echo "$side $sample" | tee -a "$out" | sed "s/^/round $round: /"
    done
  done
done
for side in A B; do
  grep "^$side " "$out" | awk '{print $2}' | sort -n |
    awk -v side="$side" '{v[NR] = $1; sum += $1}
      END {printf "%s: mean %.2f µs, median %.2f µs a call (%d samples)\n", side, sum / NR, v[int((NR + 1) / 2)], NR}'
done
rm -f "$out"
