"""``PitServer``: the pit display's HTTP server, on its own thread with its own asyncio loop,
so the judging app's event loop and keypress path never wait for it.

Built on aiohttp (one library for the server and for the tests' HTTP/CDP client). Read-only
by construction: only GET and HEAD on a fixed set of paths (the page, its two assets,
``/api/live``, ``/api/standings`` and the ``/events`` stream); no path from a request ever
reaches the file system. The JSON is computed by a poller (one worker thread) when the
source's ``version()`` changes, and once a second while a game clock runs; requests only
ever get the cached bytes, so a flood of requests cannot make the server read the folder.

Limits: ``max_connections`` open sockets (more get a 503 and are closed), header lines and
fields of at most 8 KiB and 64 headers, idle or half-sent requests closed after
``idle_timeout_s``, each stream client has a bounded queue (a client that falls behind is
dropped; its browser reconnects and gets the current state) and a write timeout.

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
from collections.abc import Callable
from importlib import resources
from typing import Any, Protocol

import orjson
from aiohttp import web

from fieldjudge.serve.page import page_strings

DEFAULT_PORT = 8765
LANGS = ("ru", "en")

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
    """The server could not start (port taken, bad host ...): the message says why."""


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


class _Client:
    """One stream client: a bounded queue of messages, dropped when it overflows."""

    def __init__(self, request: web.Request, size: int) -> None:
        self.request = request
        self.queue: asyncio.Queue[bytes] = asyncio.Queue(maxsize=size)
        self.dropped = False

    def push(self, msg: bytes) -> None:
        if self.dropped:
            return
        try:
            self.queue.put_nowait(msg)
        except asyncio.QueueFull:
            self.drop()

    def drop(self) -> None:
        self.dropped = True
        transport = self.request.transport
        if transport is not None:
            transport.close()


class _Counted(asyncio.Protocol):
    """Wraps aiohttp's per-connection protocol to count open connections."""

    def __init__(self, inner: asyncio.Protocol, on_lost: Callable[[], None]) -> None:
        self._inner = inner
        self._on_lost = on_lost

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._inner.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        try:
            self._inner.connection_lost(exc)
        finally:
            self._on_lost()

    def data_received(self, data: bytes) -> None:
        self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self._inner.eof_received()

    def pause_writing(self) -> None:
        self._inner.pause_writing()

    def resume_writing(self) -> None:
        self._inner.resume_writing()


class _Busy(asyncio.Protocol):
    """Over the connection cap: a short 503 and close."""

    BODY = b"busy: too many connections\n"

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.WriteTransport)
        transport.write(
            b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n"
            b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(self.BODY), self.BODY)
        )
        transport.close()


class PitServer:
    """The pit display server for one ``source`` (see module docstring)."""

    def __init__(
        self,
        source: Source,
        host: str = "127.0.0.1",
        port: int = DEFAULT_PORT,
        *,
        max_connections: int = 200,
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
        self.queue_size = queue_size
        self.poll_s = poll_s
        self.tick_s = tick_s
        self.heartbeat_s = heartbeat_s
        self.write_timeout_s = write_timeout_s
        self.idle_timeout_s = idle_timeout_s
        self.url = ""
        self.errors: list[str] = []  # the last source errors (the page keeps the old state)
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
        self._live = b"{}"
        self._standings = b"{}"
        self._seq = 0
        self._ticking = False
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None

    # -- the API the app and the CLI use ------------------------------------------------
    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive() and self._ready.is_set()

    @property
    def clients(self) -> int:
        """Stream (``/events``) clients connected now."""
        return len(self._clients)

    @property
    def connections(self) -> int:
        return self._connections

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
                raise PitServerError(
                    f"cannot listen on {self.host}:{self.port}: {err.strerror or err}"
                ) from err
            raise PitServerError(f"cannot start the pit display: {err or 'timed out'}") from err
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
                self.errors.append(repr(exc))
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
        app.router.add_get("/api/live", self._api_live)
        app.router.add_get("/api/standings", self._api_standings)
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
            if self._connections >= self.max_connections:
                return _Busy()
            self._connections += 1
            return _Counted(server(), self._lost)

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

    def _lost(self) -> None:
        self._connections -= 1

    # -- state --------------------------------------------------------------------------
    async def _poll(self) -> None:
        loop = asyncio.get_running_loop()
        last_tick = loop.time()
        version = await loop.run_in_executor(self._pool, self.source.version)
        while True:
            await asyncio.sleep(self.poll_s)
            try:
                now_version = await loop.run_in_executor(self._pool, self.source.version)
            except Exception as exc:  # noqa: BLE001 - keep serving the last state
                self._error(exc)
                continue
            tick = self._ticking and loop.time() - last_tick >= self.tick_s
            if now_version != version or tick:
                version = now_version
                last_tick = loop.time()
                await self._read_source()

    def _error(self, exc: BaseException) -> None:
        _log.debug("source error: %r", exc)
        self.errors = [*self.errors[-19:], repr(exc)]

    async def _read_source(self, force: bool = False) -> None:
        loop = asyncio.get_running_loop()
        try:
            live, standings = await loop.run_in_executor(self._pool, self._read_both)
        except Exception as exc:  # noqa: BLE001 - keep serving the last state
            if force:
                raise
            self._error(exc)
            return
        if live != self._live:
            self._live = live
            self._broadcast(b"live", live)
        if standings != self._standings:
            self._standings = standings
            self._broadcast(b"standings", standings)

    def _read_both(self) -> tuple[bytes, bytes]:
        live = self.source.live()
        self._ticking = any((g.get("clock") or {}).get("running") for g in live.get("games", []))
        return orjson.dumps(live), orjson.dumps(self.source.standings())

    def _message(self, event: bytes, data: bytes) -> bytes:
        self._seq += 1
        return b"event: %s\nid: %d\ndata: %s\n\n" % (event, self._seq, data)

    def _broadcast(self, event: bytes, data: bytes) -> None:
        if not self._clients:
            return
        msg = self._message(event, data)
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
            self._error(exc)
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

    async def _api_live(self, request: web.Request) -> web.Response:
        return web.Response(body=self._live, content_type="application/json", charset="utf-8")

    async def _api_standings(self, request: web.Request) -> web.Response:
        return web.Response(body=self._standings, content_type="application/json", charset="utf-8")

    async def _events(self, request: web.Request) -> web.StreamResponse:
        resp = web.StreamResponse(
            headers={"Content-Type": "text/event-stream; charset=utf-8", "X-Accel-Buffering": "no"}
        )
        await resp.prepare(request)
        client = _Client(request, self.queue_size)
        self._clients.add(client)
        try:
            first = b"retry: 2000\n\n" + self._message(b"live", self._live)
            await asyncio.wait_for(resp.write(first), self.write_timeout_s)
            await asyncio.wait_for(
                resp.write(self._message(b"standings", self._standings)), self.write_timeout_s
            )
            while not client.dropped:
                try:
                    msg = await asyncio.wait_for(client.queue.get(), self.heartbeat_s)
                except TimeoutError:
                    msg = b"event: ping\ndata: {}\n\n"
                await asyncio.wait_for(resp.write(msg), self.write_timeout_s)
        except (ConnectionError, TimeoutError, RuntimeError):
            client.drop()  # gone, or too slow: its browser reconnects
        finally:
            self._clients.discard(client)
        return resp


def _allow(exc: web.HTTPException) -> dict[str, str]:
    allow = exc.headers.get("Allow")
    return {"Allow": allow} if allow else {}


__all__ = ["DEFAULT_PORT", "PitServer", "PitServerError", "Source"]
