"""``PitServer``: the pit display's HTTP server, on its own thread with its own asyncio loop,
so the judging app's event loop and keypress path never wait for it.

Built on aiohttp (one library for the server and for the tests' HTTP/CDP client). Read-only
by construction: only GET and HEAD on a fixed set of paths (the page, its two assets,
``/api/live``, ``/api/standings`` and the ``/events`` stream); no path from a request ever
reaches the file system. The JSON is computed by a poller (one worker thread) when the
source's ``version()`` changes, and once a second while a game clock runs; requests only
ever get the cached bytes, so a flood of requests cannot make the server read the folder.
A source that reads a big folder in parts (``"pending"`` in its live document: games not
checked yet, shown without data) is read again at once until nothing is pending, so the
server listens and answers within the source's first part, not after every game.
The stream sends the whole live document once, then only the games that changed
(:mod:`fieldjudge.serve.feed`): a running clock alone sends nothing, the page counts it down.

Limits: ``max_connections`` open sockets and ``max_per_address`` from one address (more get a
503, or a 429 for one address, and are closed), header lines and fields of at most 8 KiB
and 64 headers, idle or half-sent requests closed after ``idle_timeout_s``, each stream
client has a bounded queue and a write timeout: a client that falls behind is dropped by
aborting its socket (never waiting for a flush it would not read; its browser reconnects
and gets the current state).

Usage::

    server = PitServer(PitView(folder), "127.0.0.1", 8765)
    url = server.start()      # returns once listening; raises PitServerError otherwise
    server.running            # True
    server.stop()
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import threading
from collections import deque
from collections.abc import Callable
from importlib import resources
from typing import Any, Protocol

import orjson
from aiohttp import web

from fieldjudge.i18n import LANGS
from fieldjudge.rules.messages import Phrase
from fieldjudge.rules.os_errors import os_error_phrase
from fieldjudge.serve.addresses import DEFAULT_MAX_PER_ADDRESS, DEFAULT_PORT
from fieldjudge.serve.feed import Feed
from fieldjudge.serve.page import page_strings

DEFAULT_MAX_CONNECTIONS = 200

_log = logging.getLogger("fieldjudge.serve")
_log.addHandler(logging.NullHandler())
_log.propagate = False  # never print into the judge's terminal UI

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class Source(Protocol):
    def version(self) -> Any: ...
    def live(self) -> dict[str, Any]: ...
    def standings(self) -> dict[str, Any]: ...


class PitServerError(Exception):
    """The server could not start (port taken, bad host ...): the message (a ``Phrase``,
    rendered in the UI language by ``i18n.rule_text``) says why."""


def _asset(name: str) -> bytes:
    return (resources.files("fieldjudge.serve") / "static" / name).read_bytes()


def _page(lang: str) -> bytes:
    strings = json.dumps(page_strings(lang), ensure_ascii=False).replace("</", "<\\/")
    html = _asset("pit.html").decode("utf-8")
    return (
        html.replace("{{LANG}}", lang)
        .replace("{{TITLE}}", page_strings(lang)["title"])
        .replace("{{STRINGS}}", strings)
        .encode("utf-8")
    )


PING = b"event: ping\ndata: {}\n\n"


class _Client:
    """One stream client: a bounded list of messages; dropped when it overflows."""

    def __init__(self, transport: asyncio.BaseTransport | None, size: int) -> None:
        self.transport = transport
        self.size = size
        self.pending: deque[bytes] = deque()
        self.wake = asyncio.Event()
        self.dropped = False

    def push(self, msg: bytes) -> None:
        if self.dropped:
            return
        if len(self.pending) >= self.size:
            self.drop()
            return
        self.pending.append(msg)
        self.wake.set()

    async def next(self, heartbeat_s: float) -> bytes | None:
        """The next message, a ping after ``heartbeat_s`` of silence, None once dropped."""
        if not self.pending and not self.dropped:
            self.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), heartbeat_s)
        if self.dropped:
            return None
        return self.pending.popleft() if self.pending else PING

    def drop(self) -> None:
        """Abort the socket: ``close()`` would wait for the kernel to send what this
        client never reads, and keep its buffers and its connection slot meanwhile."""
        self.dropped = True
        self.wake.set()
        if isinstance(self.transport, asyncio.Transport):
            self.transport.abort()


def _refusal(status: bytes, body: bytes) -> bytes:
    return (
        b"HTTP/1.1 %s\r\nContent-Type: text/plain\r\nRetry-After: 5\r\n"
        b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (status, len(body), body)
    )


BUSY = _refusal(b"503 Service Unavailable", b"busy: too many connections\n")
BUSY_ADDRESS = _refusal(b"429 Too Many Requests", b"busy: too many connections from your address\n")


def _peer(transport: asyncio.BaseTransport) -> str:
    peer = transport.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple) and peer else str(peer)


class _Gate(asyncio.Protocol):
    """One accepted socket: over a cap, a short refusal and close; else aiohttp's own
    per-connection protocol behind it, counted (per address too) until the socket goes."""

    def __init__(self, server: PitServer, make: Callable[[], asyncio.Protocol]) -> None:
        self._server = server
        self._make = make
        self._inner: asyncio.Protocol | None = None
        self._address = ""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._address = _peer(transport)
        refusal = self._server._admit(self._address)
        if refusal is not None:
            transport.write(refusal)  # a few hundred bytes: the socket's buffer takes them
            transport.close()
            return
        self._inner = self._make()
        self._inner.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._inner is None:
            return
        try:
            self._inner.connection_lost(exc)
        finally:
            self._inner = None
            self._server._release(self._address)

    def data_received(self, data: bytes) -> None:
        if self._inner is not None:
            self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self._inner.eof_received() if self._inner is not None else None

    def pause_writing(self) -> None:
        if self._inner is not None:
            self._inner.pause_writing()

    def resume_writing(self) -> None:
        if self._inner is not None:
            self._inner.resume_writing()


class PitServer:
    """The pit display server for one ``source`` (see module docstring)."""

    def __init__(
        self,
        source: Source,
        host: str = "127.0.0.1",
        port: int = DEFAULT_PORT,
        *,
        max_connections: int = DEFAULT_MAX_CONNECTIONS,
        max_per_address: int = DEFAULT_MAX_PER_ADDRESS,
        queue_size: int = 8,
        poll_s: float = 0.2,
        tick_s: float = 1.0,
        heartbeat_s: float = 5.0,
        write_timeout_s: float = 5.0,
        idle_timeout_s: float = 10.0,
    ) -> None:
        self.source = source
        self.host = host
        self.port = port
        self.max_connections = max_connections
        self.max_per_address = max_per_address
        self.queue_size = queue_size
        self.poll_s = poll_s
        self.tick_s = tick_s
        self.heartbeat_s = heartbeat_s
        self.write_timeout_s = write_timeout_s
        self.idle_timeout_s = idle_timeout_s
        self.url = ""
        self._pages = {lang: _page(lang) for lang in LANGS}
        self._assets = {
            "/pit.css": (_asset("pit.css"), "text/css"),
            "/pit.js": (_asset("pit.js"), "text/javascript"),
        }
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._ready = threading.Event()
        self._start_error: BaseException | None = None
        self._clients: set[_Client] = set()
        self._connections = 0
        self._per_address: dict[str, int] = {}
        self._feed = Feed()
        self._live = b"{}"
        self._standings = b"{}"
        self._seq = 0
        self._ticking = False
        self._pending = False  # the source's last update left games unchecked
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None

    # -- the API the app and the CLI use ------------------------------------------------
    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive() and self._ready.is_set()

    def start(self, timeout: float = 15.0) -> str:
        """Start listening; returns the URL. Raises :class:`PitServerError`."""
        if self.running:
            return self.url
        self._ready.clear()
        self._start_error = None
        self._thread = threading.Thread(target=self._run, name="pit-server", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout) or self._start_error is not None:
            self._thread.join(timeout)
            self._thread = None
            err = self._start_error
            if isinstance(err, OSError):
                why = os_error_phrase(err.errno) if err.errno else Phrase("{e}", e=str(err))
                raise PitServerError(
                    Phrase(
                        "cannot listen on {address}: {why}",
                        address=f"{self.host}:{self.port}",
                        why=why,
                    )
                ) from err
            if err is None:
                raise PitServerError(Phrase("cannot start the pit display: timed out"))
            raise PitServerError(
                Phrase("cannot start the pit display: {error}", error=repr(err))
            ) from err
        return self.url

    def stop(self, timeout: float = 10.0) -> None:
        thread, loop, stopping = self._thread, self._loop, self._stopping
        if thread is None:
            return
        if loop is not None and stopping is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop just closed
                loop.call_soon_threadsafe(stopping.set)
        thread.join(timeout)
        self._thread = None
        self._ready.clear()

    # -- the loop -----------------------------------------------------------------------
    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        loop.set_exception_handler(lambda _loop, ctx: _log.debug("loop: %s", ctx.get("message")))
        self._loop = loop
        self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="pit-read")
        try:
            loop.run_until_complete(self._main())
        except BaseException as exc:  # noqa: BLE001 - reported to start() or kept
            if not self._ready.is_set():
                self._start_error = exc
                self._ready.set()
            else:
                _log.debug("server: %r", exc)
        finally:
            self._pool.shutdown(wait=False, cancel_futures=True)
            with contextlib.suppress(Exception):
                loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    async def _main(self) -> None:
        self._stopping = asyncio.Event()
        await self._read_source(force=True)
        app = web.Application(middlewares=[self._errors], client_max_size=1024)
        app.router.add_get("/", self._index)
        app.router.add_get("/pit.css", self._asset)
        app.router.add_get("/pit.js", self._asset)
        app.router.add_get("/api/live", self._api)
        app.router.add_get("/api/standings", self._api)
        app.router.add_get("/events", self._events)
        app.on_response_prepare.append(self._headers)
        runner = web.AppRunner(
            app,
            access_log=None,
            logger=_log,
            keepalive_timeout=self.idle_timeout_s,
            max_line_size=8190,
            max_field_size=8190,
            max_headers=64,
            handle_signals=False,
            shutdown_timeout=1.0,
        )
        await runner.setup()
        loop = asyncio.get_running_loop()
        server = runner.server
        assert server is not None

        def factory() -> asyncio.Protocol:
            return _Gate(self, server)

        try:
            listener = await loop.create_server(factory, self.host, self.port, backlog=256)
        except BaseException:
            await runner.cleanup()
            raise
        port = listener.sockets[0].getsockname()[1]
        host = f"[{self.host}]" if ":" in self.host else self.host
        self.url = f"http://{host}:{port}/"
        self._ready.set()
        poller = asyncio.create_task(self._poll())
        try:
            await self._stopping.wait()
        finally:
            poller.cancel()
            listener.close()
            for c in list(self._clients):
                c.drop()
            await runner.cleanup()
            with contextlib.suppress(asyncio.CancelledError):
                await poller

    def _admit(self, address: str) -> bytes | None:
        """Count a new connection from ``address``, or the refusal to send it."""
        if self._connections >= self.max_connections:
            return BUSY
        n = self._per_address.get(address, 0)
        if n >= self.max_per_address:
            return BUSY_ADDRESS
        self._connections += 1
        self._per_address[address] = n + 1
        return None

    def _release(self, address: str) -> None:
        self._connections -= 1
        n = self._per_address.get(address, 0) - 1
        if n > 0:
            self._per_address[address] = n
        else:
            self._per_address.pop(address, None)

    # -- state --------------------------------------------------------------------------
    async def _poll(self) -> None:
        loop = asyncio.get_running_loop()
        last_tick = loop.time()
        version = await loop.run_in_executor(self._pool, self.source.version)
        while True:
            # games left unchecked by the source's last update: the next one at once
            await asyncio.sleep(0 if self._pending else self.poll_s)
            try:
                now_version = await loop.run_in_executor(self._pool, self.source.version)
            except Exception as exc:  # noqa: BLE001 - keep serving the last state
                _log.debug("source error: %r", exc)
                continue
            tick = self._ticking and loop.time() - last_tick >= self.tick_s
            if now_version != version or tick or self._pending:
                version = now_version
                last_tick = loop.time()
                await self._read_source()

    async def _read_source(self, force: bool = False) -> None:
        loop = asyncio.get_running_loop()
        try:
            live, standings = await loop.run_in_executor(self._pool, self._read_both)
        except Exception as exc:  # noqa: BLE001 - keep serving the last state
            if force:
                raise
            _log.debug("source error: %r", exc)
            return
        if live[1] != self._live:
            self._live = live[1]
            full, games = self._feed.changes(live[0])
            if full:
                self._broadcast(b"live", [live[1]])
            elif games:
                self._broadcast(b"game", games)
        if standings[1] != self._standings:
            self._standings = standings[1]
            if self._feed.standings_changed(standings[0]):
                self._broadcast(b"standings", [standings[1]])

    def _read_both(self) -> tuple[tuple[dict[str, Any], bytes], tuple[dict[str, Any], bytes]]:
        live = self.source.live()
        self._ticking = any((g.get("clock") or {}).get("running") for g in live.get("games", []))
        self._pending = bool(live.get("pending"))
        standings = self.source.standings()
        return (live, orjson.dumps(live)), (standings, orjson.dumps(standings))

    def _message(self, event: bytes, data: bytes) -> bytes:
        self._seq += 1
        return b"event: %s\nid: %d\ndata: %s\n\n" % (event, self._seq, data)

    def _broadcast(self, event: bytes, datas: list[bytes]) -> None:
        """One queued write per client however many games changed at once."""
        if not self._clients:
            return
        msg = b"".join(self._message(event, d) for d in datas)
        for c in list(self._clients):
            c.push(msg)

    # -- handlers -----------------------------------------------------------------------
    @web.middleware
    async def _errors(self, request: web.Request, handler: Any) -> web.StreamResponse:
        try:
            return await handler(request)
        except web.HTTPException as exc:
            return web.Response(
                status=exc.status, text=f"{exc.status} {exc.reason}\n", headers=_allow(exc)
            )
        except (ConnectionError, asyncio.CancelledError):
            raise
        except Exception as exc:  # noqa: BLE001 - never a traceback to a client
            _log.debug("handler error: %r", exc)
            return web.Response(status=500, text="500 internal error\n")

    async def _headers(self, request: web.Request, response: web.StreamResponse) -> None:
        for k, v in SECURITY_HEADERS.items():
            response.headers.setdefault(k, v)
        if request.path.startswith("/api/"):
            response.headers["Access-Control-Allow-Origin"] = "*"

    async def _index(self, request: web.Request) -> web.Response:
        lang = request.query.get("lang", "ru")
        body = self._pages.get(lang, self._pages["ru"])
        return web.Response(body=body, content_type="text/html", charset="utf-8")

    async def _asset(self, request: web.Request) -> web.Response:
        body, ctype = self._assets[request.path]  # the router only lets the two names in
        return web.Response(body=body, content_type=ctype, charset="utf-8")

    async def _api(self, request: web.Request) -> web.Response:
        body = self._live if request.path == "/api/live" else self._standings
        return web.Response(body=body, content_type="application/json", charset="utf-8")

    async def _events(self, request: web.Request) -> web.StreamResponse:
        resp = web.StreamResponse(
            headers={"Content-Type": "text/event-stream; charset=utf-8", "X-Accel-Buffering": "no"}
        )
        await resp.prepare(request)
        client = _Client(request.transport, self.queue_size)
        self._clients.add(client)
        try:
            first = b"retry: 2000\n\n" + self._message(b"live", self._live)
            first += self._message(b"standings", self._standings)
            await asyncio.wait_for(resp.write(first), self.write_timeout_s)
            while (msg := await client.next(self.heartbeat_s)) is not None:
                await asyncio.wait_for(resp.write(msg), self.write_timeout_s)
        except (ConnectionError, TimeoutError, RuntimeError):
            client.drop()  # gone, or too slow: its browser reconnects
        finally:
            self._clients.discard(client)
        return resp


def _allow(exc: web.HTTPException) -> dict[str, str]:
    allow = exc.headers.get("Allow")
    return {"Allow": allow} if allow else {}


__all__ = [
    "DEFAULT_MAX_CONNECTIONS",
    "DEFAULT_MAX_PER_ADDRESS",
    "DEFAULT_PORT",
    "PitServer",
    "PitServerError",
    "Source",
]
