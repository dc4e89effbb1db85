"""The anchor of ``bench_pit_start.py``, in its own process: a bare aiohttp server that
reads a tournament folder's ``tournament.json`` and answers ``/api/live`` with its games
(no signature checked, no game read: the floor of starting a Python web server on the
folder). Prints ``{"url": ...}`` once listening; stops when its standard input closes.

Run: ``python benchmarks/pit_anchor.py FOLDER``."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import orjson
from aiohttp import web


def main(folder: str) -> None:
    async def run() -> None:
        doc = orjson.loads((Path(folder) / "tournament.json").read_bytes())
        games = doc.get("games") or {}
        body = orjson.dumps({"games": list(games.values()) if isinstance(games, dict) else games})

        async def live(_request: web.Request) -> web.Response:
            return web.Response(body=body, content_type="application/json")

        app = web.Application()
        app.router.add_get("/api/live", live)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        print(json.dumps({"url": f"http://127.0.0.1:{port}/"}), flush=True)
        # until the benchmark closes its standard input (as the app stops its pit)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.buffer.read)
        await runner.cleanup()

    asyncio.run(run())


if __name__ == "__main__":
    main(sys.argv[1])
