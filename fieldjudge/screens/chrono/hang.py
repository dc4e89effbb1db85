"""The flag-hang check (23.01) with the device: `attach_hang_chrono` puts a `ChronoFeed` into
the game screen while its hang fps prompt is open (or into a dialog with a
``set_fps_reading`` hook) and fills the speed from the chronograph."""

from __future__ import annotations

from fieldjudge.rules.chrono_readings import reading_source
from fieldjudge.screens.chrono.feed import ChronoFeed


def attach_hang_chrono(host) -> ChronoFeed | None:
    """The flag-hang check (23.01) with the device: mount a `ChronoFeed` on `host` while its
    fps prompt is open and put every reading (the highest so far) into it through the host's
    hook — the game screen's ``fill_hang_fps(fps, source) -> bool`` or a dialog's
    ``set_fps_reading(fps, source)``.  The feed removes itself (releasing the port) once the
    hook reports the prompt closed (``fill_hang_fps`` returns False, or the game screen's
    hang prompt is no longer open).  Returns the feed, or None when `host` has no hook."""
    fill = getattr(host, "fill_hang_fps", None)
    setter = getattr(host, "set_fps_reading", None)
    if fill is None and setter is None:
        return None
    old = host.query("#hang-feed")
    if old:
        return old.first()
    best: list[float] = []

    def still_open() -> bool:
        if fill is None:
            return True  # a dialog: the feed goes with it
        mode = getattr(host, "hang_prompt_open", None)
        return True if mode is None else bool(mode)

    def on_reading(reading) -> None:
        best.append(reading.fps)
        source = reading_source(reading.format)
        if fill is not None:
            if fill(max(best), source) is False:
                feed.remove()
        else:
            setter(max(best), source)

    seen = [False]

    def watch() -> None:
        if feed.is_attached:
            seen[0] = True
            if not still_open():
                feed.remove()
                timer.stop()
        elif seen[0]:
            timer.stop()  # removed with its dialog or after a refused fill

    feed = ChronoFeed(on_reading=on_reading, id="hang-feed")
    containers = host.query(".dialog")
    target = containers.first() if containers else host
    target.mount(feed)
    timer = host.set_interval(0.25, watch)
    return feed
