#!/usr/bin/env bash
# What each generated P6 crate hands LLVM: `cargo llvm-lines` on gen-ours and gen-rmcp, the
# lines of LLVM IR and copies of each function (a generic's copies are what each tool
# instantiates). Installs cargo-llvm-lines into target/tools on first use, and builds in a
# target directory of its own (its `--emit=llvm-ir` build would otherwise replace P6's).
#
#   cargo run --release -p mcp-tool-bench --bin gen_compile_crate   # the crates, once
#   bash bench/scripts/llvm_lines.sh [TOP]                          # TOP functions each (20)
set -euo pipefail
top=${1:-20}
root="$(cd "$(dirname "$0")/../.." && pwd)"
dir="$root/target/bench-compile"
tools="$root/target/tools"
if [ ! -x "$tools/bin/cargo-llvm-lines" ]; then
  cargo install --quiet --locked cargo-llvm-lines --version 0.4.48 --root "$tools"
fi
[ -f "$dir/Cargo.toml" ] || { echo "no P6 crates in $dir: run gen_compile_crate first" >&2; exit 1; }
for name in gen-ours gen-rmcp; do
  log="$dir/llvm-lines-$name.log"
  out=$(cd "$dir" && PATH="$tools/bin:$PATH" CARGO_TARGET_DIR="$dir/target-llvm-lines" \
    cargo llvm-lines --offline -p "$name" --lib 2>"$log") || { cat "$log" >&2; exit 1; }
  echo "$name: $(echo "$out" | awk '/\(TOTAL\)/ {print $1 " lines of LLVM IR, " $2 " function copies"}')"
  echo "$out" | sed -n "4,$((top + 3))p"
done
