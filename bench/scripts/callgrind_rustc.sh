#!/bin/bash
# P6 in instructions: rustc's work on an incremental rebuild of each generated crate (one tool's
# factor edited), under callgrind, which a rebuild's time hides in its noise (±30 ms in 1.4 s;
# these counts move by ~0.01%). Prints the instructions of rustc's main thread (parsing, macro
# expansion, type checking: what a rebuild waits for) and of all its threads (with codegen).
#
#   cargo run --release -p mcp-tool-bench --bin gen_compile_crate   # the P6 workspace, once
#   bash bench/scripts/callgrind_rustc.sh [ROUNDS]                   # 2 rounds a crate by default
#
# Each crate is rebuilt once unmeasured first (the incremental state settles), then ROUNDS times.
# P6_DIR names another copy of the workspace. Needs valgrind; about a minute a round.
set -euo pipefail

# Called by cargo as RUSTC_WRAPPER: the generated crates under callgrind, the rest as they are.
if [ "${CALLGRIND_RUSTC_OUT:-}" != "" ]; then
    rustc=$1
    shift
    case " $* " in
    *" --crate-name gen_"*)
        exec valgrind --tool=callgrind --separate-threads=yes \
            --callgrind-out-file="$CALLGRIND_RUSTC_OUT" "$rustc" "$@" 2>>"$CALLGRIND_RUSTC_OUT.log"
        ;;
    *) exec "$rustc" "$@" ;;
    esac
fi

root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${P6_DIR:-$root/target/bench-compile}
rounds=${1:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -f "$dir/Cargo.toml" ] || { echo "no P6 workspace in $dir: run gen_compile_crate" >&2; exit 1; }

# Sets the first tool's price factor of `crate` (the generator writes 1000 there).
set_factor() {
    perl -0pi -e "s/total_cents: \\d+ \\*/total_cents: $2 */" "$dir/$1/src/lib.rs"
}

for crate in gen-ours gen-rmcp; do
    cargo build -q --offline --manifest-path "$dir/Cargo.toml" -p "$crate"
    for round in $(seq 0 "$rounds"); do
        set_factor "$crate" $((2000 + round))
        out="$work/$crate-$round.out"
        CALLGRIND_RUSTC_OUT=$out RUSTC_WRAPPER="$root/bench/scripts/callgrind_rustc.sh" \
            cargo build -q --offline --manifest-path "$dir/Cargo.toml" -p "$crate"
        [ "$round" = 0 ] && continue
        # One file a thread; rustc's main thread is the one that runs the most.
        counts=$(cat "$out"-* | sed -n 's/^summary: //p' | sort -n)
        main=$(echo "$counts" | tail -1)
        all=$(echo "$counts" | awk '{ sum += $1 } END { printf "%.0f", sum }')
        printf '%s round %d: main thread %s instructions, all threads %s\n' "$crate" "$round" "$main" "$all"
    done
    set_factor "$crate" 1000
done
