"""``fieldjudge chrono``: list ports, listen to a chronograph, run a simulated one.

``fieldjudge.cli`` does ``main.add_command(chrono)``.  ``python -m fieldjudge.commands.chrono``
runs the group on its own.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import random
import signal
import sys
import threading
from collections.abc import Iterable

import click
import orjson

from fieldjudge.devices.parsers import FORMATS, PLAUSIBLE_FPS, UNIT_TO_FPS, Garbled, Reading
from fieldjudge.devices.ports import BAUDS, DEFAULT_BAUD, list_chrono_ports
from fieldjudge.devices.reader import ChronoOpenError, ChronoReader, Status, errno_code
from fieldjudge.i18n import _
from fieldjudge.services.paintball.chrono import link_fault_text, load_remembered

FORMAT_CHOICES = ("auto", *FORMATS)


def item_to_json(item: Reading | Garbled | Status) -> dict:
    """The JSON line `listen` prints for one reader item."""
    if isinstance(item, Reading):
        # lag: how much earlier the frame may have arrived (s); null when its time is unknown
        # (frames that came together in one read): RULES.md "Timing a string of shots"
        lag = round(item.lag, 4) if item.timed else None
        return {"fps": item.fps, "format": item.format, "t": round(item.t, 4), "lag": lag}
    if isinstance(item, Garbled):
        return {"error": item.reason, "raw": item.raw.hex(), "t": round(item.t, 4)}
    return {"status": item.state, "message": item.message, "t": round(item.t, 4)}


def _out(obj: dict) -> None:
    sys.stdout.buffer.write(orjson.dumps(obj) + b"\n")
    sys.stdout.buffer.flush()


def _stop_on_signals(stop: threading.Event) -> None:
    """Ctrl-C / SIGTERM set `stop` (a clean exit, no traceback) — main thread only."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            signal.signal(sig, lambda *_: stop.set())
        except (ValueError, OSError):  # not the main thread (e.g. an embedding test runner)
            pass


@click.group()
def chrono() -> None:
    """Radar chronograph: ports, live readings, a simulator for rehearsals."""


@chrono.command("ports")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per port.")
def ports_cmd(as_json: bool) -> None:
    """List serial ports, USB-serial adapters first."""
    found = list_chrono_ports()
    if as_json:
        for p in found:
            _out(dataclasses.asdict(p))  # device, by_id, description, usb, serial_number
        return
    if not found:
        click.echo(_("No serial ports found. Is the chronograph's USB-serial adapter plugged in?"))
    for p in found:
        click.echo(p.label)
    bauds = ", ".join(map(str, BAUDS))
    click.echo(_("Bauds: {bauds} (default {default})").format(bauds=bauds, default=DEFAULT_BAUD))


@chrono.command("listen")
@click.option(
    "--port",
    "-p",
    default=None,
    help="Device path, /dev/serial/by-id name or COM port "
    "(default: the chronograph chosen on this laptop, that device only).",
)
@click.option(
    "--baud",
    "-b",
    type=int,
    default=DEFAULT_BAUD,
    show_default=True,
    help="The serial port's speed the chronograph is set to (bauds).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMAT_CHOICES),
    default="auto",
    show_default=True,
    help="How the chronograph writes a reading (auto: learnt from its first lines).",
)
@click.option(
    "--unit",
    type=click.Choice(tuple(UNIT_TO_FPS)),
    default="fps",
    show_default=True,
    help="The unit the chronograph is set to (converted to fps).",
)
@click.option(
    "--min-fps",
    type=float,
    default=PLAUSIBLE_FPS[0],
    show_default=True,
    help="Slower readings are errors (noise, a wrong unit), never readings.",
)
@click.option(
    "--max-fps",
    type=float,
    default=PLAUSIBLE_FPS[1],
    show_default=True,
    help="Faster readings are errors (noise, a wrong unit), never readings.",
)
def listen_cmd(
    port: str | None, baud: int, fmt: str, unit: str, min_fps: float, max_fps: float
) -> None:
    """Print one JSON line per reading, garbled frame or status change, until Ctrl-C."""
    if not 0 < min_fps < max_fps:
        raise click.BadParameter(_("need 0 < --min-fps < --max-fps"), param_hint="--min-fps")
    expect = None
    if port is None:
        saved = load_remembered()
        if saved is None:
            raise click.ClickException(
                _(
                    "no chronograph chosen on this laptop: give --port "
                    "(list them with `fieldjudge chrono ports`)."
                )
            )
        port, expect = saved.port, saved.device
        label = f" ({expect.label})" if expect else ""
        click.echo(_("Listening on {port}").format(port=port) + label, err=True)
    stop = threading.Event()

    def on_item(item: Reading | Garbled | Status) -> None:
        try:
            _out(item_to_json(item))
        except (BrokenPipeError, ValueError):  # reader of our stdout went away
            stop.set()

    if os.name == "posix" and "://" not in port and not os.path.exists(port):
        raise click.ClickException(
            _("port {port} does not exist. List ports with `fieldjudge chrono ports`.").format(
                port=port
            )
        )
    reader = ChronoReader(
        port,
        baud,
        fmt,
        unit,
        on_item=on_item,
        retry_first_open=False,
        plausible=(min_fps, max_fps),
        expect=expect,
    )
    _stop_on_signals(stop)  # Ctrl-C ends the reading loop below within a read timeout
    try:
        reader.run(cancelled=stop)
    except ChronoOpenError as exc:
        raise click.ClickException(
            link_fault_text(str(exc), errno_code(exc))
            + "\n"
            + _("Check the port name with `fieldjudge chrono ports`.")
        ) from None


SIMULATE_EPILOG = """\b
The defaults are a LEGAL marker: 285 ± 3 fps (limit 300), shots at least 110 ms
apart (20.02 needs 95 ms), bursts of 5, then the trigger is released for 3 s and
the marker fires nothing: press r (trigger released) on the marker check as soon
as a burst stops and the after-release test passes.

\b
Simulate each violation:
  over the velocity limit (19.05, 20.03)   --fps 310
  some shots over the limit (20.03)        --fps 296 --spread 6
  rate of fire too fast (20.02)            --interval-ms 80
  exactly 94 ms (fails) / 95 ms (passes)   --interval-ms 94 --jitter-pct 0
  fires after trigger release (19.05)      --after-release 1
  keeps firing after release (19.05)       --after-release 3 --after-release-gap-ms 70
  the 140-ball limit notice (19.05)        --burst 141 --count 141
  an unplugged cable                       --link PATH, then Ctrl-C and start again
  the slap test (19.05)                    judged by eye: s passed / x fired in the app

\b
Other formats: --format stalker-a | decatur | stalker-be (20 Hz frames: shots
closer than 100 ms cannot be shown by a bE gun).  --replay FILE plays a recording
of JSON lines {"delay_s": 0.05, "hex": "3238372e340d"}.
"""


@chrono.command("simulate", epilog=SIMULATE_EPILOG)
@click.option("--replay", type=click.Path(exists=True, dir_okay=False), help="JSONL recording.")
@click.option("--loop", is_flag=True, help="Replay the recording again and again.")
@click.option("--fps", type=float, default=285.0, show_default=True, help="Mean velocity.")
@click.option("--spread", type=float, default=3.0, show_default=True, help="± fps")
@click.option(
    "--interval-ms",
    type=float,
    default=110.0,
    show_default=True,
    help="Shortest time between two shots of a burst (up to 10 % slower, never faster).",
)
@click.option(
    "--jitter-pct",
    type=float,
    default=10.0,
    show_default=True,
    help="Gaps are up to this much longer than --interval-ms, at random.",
)
@click.option("--rate", type=float, default=None, help="Shots per second (sets --interval-ms).")
@click.option("--burst", type=int, default=5, show_default=True, help="Shots per trigger pull.")
@click.option(
    "--pause", "pause_s", type=float, default=3.0, show_default=True, help="Seconds released."
)
@click.option(
    "--after-release",
    type=int,
    default=0,
    show_default=True,
    help="Shots the marker fires after the trigger is released (0 = legal).",
)
@click.option(
    "--after-release-ms",
    type=float,
    default=450.0,
    show_default=True,
    help="When the first of them comes, after the last shot of the burst (19.05 counts "
    "the shots within 500 ms of r: press r as the burst stops).",
)
@click.option(
    "--after-release-gap-ms",
    type=float,
    default=200.0,
    show_default=True,
    help="Time between the shots fired after the release.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(("plain", "stalker-a", "decatur", "stalker-be")),
    default="plain",
    show_default=True,
    help="Write each reading as this chronograph model does.",
)
@click.option("--count", type=int, default=None, help="Shots to send (default: endless).")
@click.option("--seed", type=int, default=None, help="Seed for a repeatable stream.")
@click.option("--link", type=click.Path(dir_okay=False), default=None, help="Symlink path.")
@click.option("--exit-when-done", is_flag=True, help="Exit after a finite stream ends.")
def simulate_cmd(
    replay: str | None,
    loop: bool,
    fps: float,
    spread: float,
    interval_ms: float,
    jitter_pct: float,
    rate: float | None,
    burst: int,
    pause_s: float,
    after_release: int,
    after_release_ms: float,
    after_release_gap_ms: float,
    fmt: str,
    count: int | None,
    seed: int | None,
    link: str | None,
    exit_when_done: bool,
) -> None:
    """Pretend to be a chronograph on a pseudo-terminal; prints the port path first."""
    try:
        from fieldjudge.devices.simulator import (
            PtyChrono,
            load_recording,
            marker_shots,
            marker_stream,
            play,
        )
    except ImportError as exc:  # tty/pty: POSIX only
        raise click.ClickException(_("the simulator needs a POSIX system") + f": {exc}") from exc
    if rate is not None:
        if rate <= 0:
            raise click.BadParameter(_("must be > 0"), param_hint="--rate")
        interval_ms = 1000.0 / rate
    try:
        chunks = load_recording(replay) if replay else None
        make_shots = functools.partial(
            marker_shots,
            fps=fps,
            spread=spread,
            interval_ms=interval_ms,
            jitter=jitter_pct / 100,
            count=count,
            burst=burst,
            pause_s=pause_s,
            after_release=after_release,
            after_release_ms=after_release_ms,
            after_release_gap_ms=after_release_gap_ms,
        )
        if chunks is None:  # check the numbers before opening a pty
            next(make_shots(count=1), None)
    except (OSError, ValueError) as exc:
        raise click.ClickException(str(exc)) from exc
    stop = threading.Event()
    _stop_on_signals(stop)
    try:
        sim = PtyChrono(link)
    except OSError as exc:
        raise click.ClickException(str(exc)) from exc
    with sim:
        click.echo(sim.path)
        click.echo(
            _("Simulated chronograph on {path} (-> {slave}); Ctrl-C to stop.").format(
                path=sim.path, slave=sim.slave_name
            ),
            err=True,
        )
        sys.stdout.flush()
        try:
            while not stop.is_set():
                stream: Iterable[tuple[float, bytes]]
                if chunks is not None:
                    stream = chunks
                else:
                    shots = make_shots(rng=random.Random(seed))
                    stream = marker_stream(shots, fmt)
                play(sim, stream, cancelled=stop.is_set)
                if chunks is None or not loop:
                    break
            # a finite stream is over: stay plugged in (an idle device) until Ctrl-C
            while not exit_when_done and not stop.is_set():
                stop.wait(0.2)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    chrono()
