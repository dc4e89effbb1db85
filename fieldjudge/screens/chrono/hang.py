"""The flag-hang check (23.01) with the device: `attach_hang_chrono` puts a `ChronoFeed` into
the game screen while its hang fps prompt is open and fills the speed from the chronograph."""

from __future__ import annotations

from fieldjudge.rules.chrono_readings import reading_source
from fieldjudge.screens.chrono.feed import ChronoFeed


def attach_hang_chrono(host) -> ChronoFeed:
    """The flag-hang check (23.01) with the device: mount a `ChronoFeed` on the game screen
    `host` while its fps prompt is open and put every reading (the highest so far) into it
    through ``host.fill_hang_fps(fps, source) -> bool``.  The feed removes itself (releasing
    the port) once the prompt is closed (``fill_hang_fps`` returns False, or
    ``host.hang_prompt_open`` is no longer true).  Returns the feed."""
    old = host.query("#hang-feed")
    if old:
        return old.first()
    best: list[float] = []

    def on_reading(reading) -> None:
        best.append(reading.fps)
        if host.fill_hang_fps(max(best), reading_source(reading.format)) is False:
            feed.remove()

    seen = [False]

    def watch() -> None:
        if feed.is_attached:
            seen[0] = True
            if not host.hang_prompt_open:
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
