"""The inventory example's `get_user` over Streamable HTTP, with the official Python SDK 2.x
(`MCPServer`) or FastMCP, for the P8 comparison (`bench/src/http_load.rs`).

    python http_get_user_server.py --sdk official|fastmcp --http 127.0.0.1:8080 [--stateless]

The same users table as the inventory, in an in-memory SQLite database, one connection for the
process behind a lock (the inventory's setup). Stateless runs answer with JSON, as the
inventory's stateless mode does; stateful runs keep sessions and answer with SSE. Uvicorn runs
one worker with its access log off, as a deployment of one process would.
"""

import argparse
import sqlite3
import threading
from typing import Annotated

from pydantic import BaseModel, Field

SCHEMA = """
    CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL);
    INSERT INTO users VALUES
        (1, 'Ada Lovelace', 'ada@example.com'),
        (2, 'Grace Hopper', 'grace@example.com'),
        (3, 'Katherine Johnson', 'katherine@example.com');
"""

db = sqlite3.connect(":memory:", check_same_thread=False)
db.executescript(SCHEMA)
db_lock = threading.Lock()


class User(BaseModel):
    """A registered user."""

    id: int
    name: str
    email: str


def get_user(user_id: Annotated[int, Field(ge=1, description="The user's numeric id.")]) -> User:
    """Look up one user by id."""
    with db_lock:
        row = db.execute("SELECT id, name, email FROM users WHERE id = ?", (user_id,)).fetchone()
    if row is None:
        raise ValueError(f"No user has id {user_id}.")
    return User(id=row[0], name=row[1], email=row[2])


def serve_official(host: str, port: int, stateless: bool) -> None:
    import uvicorn
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("inventory")
    server.tool()(get_user)
    app = server.streamable_http_app(json_response=stateless, stateless_http=stateless, host=host)
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False)


def serve_fastmcp(host: str, port: int, stateless: bool) -> None:
    from fastmcp import FastMCP

    server = FastMCP("inventory")
    server.tool(get_user)
    server.run(
        transport="http",
        host=host,
        port=port,
        show_banner=False,
        log_level="warning",
        json_response=stateless,
        stateless_http=stateless,
        uvicorn_config={"access_log": False},
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sdk", choices=["official", "fastmcp"], required=True)
    parser.add_argument("--http", required=True, help="HOST:PORT")
    parser.add_argument("--stateless", action="store_true")
    args = parser.parse_args()
    host, port = args.http.rsplit(":", 1)
    serve = serve_official if args.sdk == "official" else serve_fastmcp
    serve(host, int(port), args.stateless)


if __name__ == "__main__":
    main()
