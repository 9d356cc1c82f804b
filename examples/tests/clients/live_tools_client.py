"""Two clients of the official Python SDK (2.x) on the `live_tools` server over Streamable
HTTP: a change made through one reaches both as `notifications/tools/list_changed`.

Both speak 2026-07-28 (`server/discover`, no `initialize`), where change notifications come
only on a `subscriptions/listen` stream: each client opens one for tool changes, and counts
the notifications that arrive on it (the SDK hands each to `message_handler` as well).

Usage: live_tools_client.py URL

Prints one JSON object with what each session saw; exits non-zero on the first broken promise.
"""

import asyncio
import json
import sys

import anyio
from mcp import Client

LIST_CHANGED = "notifications/tools/list_changed"


def check(condition, message):
    if not condition:
        raise SystemExit(f"FAILED: {message}")


def method_of(message):
    for candidate in (message, getattr(message, "root", None)):
        method = getattr(candidate, "method", None)
        if method:
            return method
    return None


class Watcher:
    """Counts `list_changed` notifications and lets a caller wait for the next one."""

    def __init__(self):
        self.count = 0
        self.changed = anyio.Event()

    async def handle(self, message):
        if method_of(message) == LIST_CHANGED:
            self.count += 1
            self.changed.set()

    async def next_change(self):
        with anyio.fail_after(10):
            await self.changed.wait()
        self.changed = anyio.Event()


async def names(client):
    return [tool.name for tool in (await client.list_tools()).tools]


def negotiated(client):
    """The revision the client speaks, after checking it did not fall back to `initialize`."""
    check(client.session.initialize_result is None, "the client fell back to initialize")
    check(client.session.discover_result is not None, "the client did not discover the server")
    return client.protocol_version


async def main(url):
    first, second = Watcher(), Watcher()
    report = {}
    async with Client(url, message_handler=first.handle) as a, Client(
        url, message_handler=second.handle
    ) as b, a.listen(tools_list_changed=True) as heard_a, b.listen(
        tools_list_changed=True
    ) as heard_b:
        report["protocol"] = [negotiated(a), negotiated(b)]
        report["honored"] = [
            heard.honored.model_dump(by_alias=True, exclude_none=True) for heard in (heard_a, heard_b)
        ]
        report["before"] = await names(b)
        added = await a.call_tool("add_tool", {"name": "echo", "description": "Echo text."})
        check(not added.is_error, f"add_tool failed: {added}")
        await first.next_change()
        await second.next_change()
        report["after_add"] = await names(b)
        echoed = await b.call_tool("echo", {"text": "hi"})
        report["echo"] = echoed.content[0].text
        switched = await a.call_tool("switch_tool", {"name": "hello", "enabled": False})
        check(not switched.is_error, f"switch_tool failed: {switched}")
        await first.next_change()
        await second.next_change()
        report["after_disable"] = await names(b)
        report["notified"] = [first.count, second.count]
    print(json.dumps(report))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
