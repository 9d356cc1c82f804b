#!/usr/bin/env python3
"""P7's load over a longer run: the release `inventory` over stdio, P7's four mixed calls
(`mixed_inventory_call` in bench/src/process.rs) with at most 64 in flight, and its `VmRSS`
and `VmHWM` printed at each checkpoint. A leak grows with the calls; what P7 sees instead is
a few steps at call counts that differ from run to run, then a flat line (BENCHMARKS.md).

    python3 bench/scripts/rss_curve.py target/release/inventory 1000,100000,400000
"""
import json
import subprocess
import sys

WINDOW = 64
CALLS = [
    ("get_user", {"user_id": 1}),
    ("add_item", {"sku": "abc", "quantity": "five", "quantiy": 3}),
    ("search_items", {"query": "tea", "sort": "desc"}),
    ("get_user", {"user_id": 0}),
]


def line(message):
    return (json.dumps(message) + "\n").encode()


def call(index):
    name, arguments = CALLS[index % len(CALLS)]
    params = {"name": name, "arguments": arguments}
    return line({"jsonrpc": "2.0", "id": index + 1, "method": "tools/call", "params": params})


def memory(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for row in status:
            if row.startswith(("VmRSS", "VmHWM")):
                key, value = row.split(":")
                fields[key] = int(value.split()[0])
    return fields


def main():
    binary, checkpoints = sys.argv[1], [int(n) for n in sys.argv[2].split(",")]
    server = subprocess.Popen(
        [binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    init = {"protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "rss_curve", "version": "0"}}
    server.stdin.write(line({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init}))
    server.stdin.flush()
    server.stdout.readline()
    server.stdin.write(line({"jsonrpc": "2.0", "method": "notifications/initialized"}))
    total, sent, answered = checkpoints[-1], 0, 0
    while answered < total:
        while sent < total and sent - answered < WINDOW:
            server.stdin.write(call(sent))
            sent += 1
        server.stdin.flush()
        while answered < sent and (sent - answered >= WINDOW or sent == total):
            if not server.stdout.readline():
                sys.exit("the server closed its output")
            answered += 1
            if answered in checkpoints:
                fields = memory(server.pid)
                print(f"{answered} calls: VmRSS {fields['VmRSS']} kB, VmHWM {fields['VmHWM']} kB",
                      flush=True)
    server.kill()


if __name__ == "__main__":
    main()
