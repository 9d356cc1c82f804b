#!/usr/bin/env python3
"""The code a call runs, in 64-byte lines: from a callgrind file written with
`--dump-instr=yes` for CALLS calls, the distinct lines holding an instruction run at least
`0.8 * CALLS` times (once a call, less the warm-up's share), which is what the instruction
cache has to hold for each call. Given two files, the lines of each function side by side.

    python3 bench/scripts/code_lines.py OURS.out CALLS [RMCP.out] [--top N]

A function's lines are those whose first hot instruction is its own; names are callgrind's.
"""
import argparse
import re
from collections import Counter


def position(text, last):
    """An instruction address of a cost line: absolute, relative (+n, -n) or the same (*)."""
    if text.startswith("0x"):
        return int(text, 16)
    if text[0] in "+-":
        return last + int(text)
    if text == "*":
        return last
    return int(text)


def executions(path):
    """Each instruction address's execution count (its own cost, not its calls') and the
    function it belongs to."""
    counts, owner, names = Counter(), {}, {}
    function, last = None, 0
    with open(path) as lines:
        for line in lines:
            head = line[:4]
            if head in ("fn=(", "cfn="):
                found = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line.strip())
                if found.group(2):
                    names[found.group(1)] = found.group(2)
                if head == "fn=(":
                    function = found.group(1)
                continue
            if line.startswith("calls="):
                # The next line is the call's inclusive cost: only its address counts.
                last = position(next(lines).split()[0], last)
                continue
            if not (line[0].isdigit() or line[0] in "+-*"):
                continue
            fields = line.split()
            if len(fields) < 3:
                continue
            last = position(fields[0], last)
            counts[last] += int(fields[2])
            owner[last] = function
    return counts, {address: names.get(id, "?") for address, id in owner.items()}


def hot_lines(path, calls):
    """The lines run on every call, each with the function of its first hot instruction."""
    counts, owner = executions(path)
    lines = {}
    for address in sorted(counts):
        if counts[address] >= 0.8 * calls:
            lines.setdefault(address // 64, owner[address])
    return Counter(lines.values())


def main():
    parser = argparse.ArgumentParser(description="The code lines a call runs.")
    parser.add_argument("ours")
    parser.add_argument("calls", type=int)
    parser.add_argument("theirs", nargs="?")
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()
    ours = hot_lines(args.ours, args.calls)
    if args.theirs is None:
        print(f"{sum(ours.values())} lines a call")
        for name, lines in ours.most_common(args.top):
            print(f"{lines:6d}  {name[:140]}")
        return
    theirs = hot_lines(args.theirs, args.calls)
    print(f"{sum(ours.values())} against {sum(theirs.values())} lines a call")
    names = sorted(set(ours) | set(theirs), key=lambda n: -abs(ours[n] - theirs[n]))
    for name in names[: args.top]:
        print(f"{ours[name]:6d} {theirs[name]:6d} {ours[name] - theirs[name]:+6d}  {name[:140]}")


if __name__ == "__main__":
    main()
