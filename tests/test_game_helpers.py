"""Helpers of the game screen tests (no tests here): open a scheduled demo game with a fake
clock, press keys, compare states across a restart."""

from __future__ import annotations

import time
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path

from fakes import FakeClock

from fieldjudge.app import make_app
from fieldjudge.services.paintball import game as game_session

T0 = datetime(2026, 6, 1, 7, 40, tzinfo=UTC)


def fake_clock(monkeypatch) -> FakeClock:
    clock = FakeClock(T0)
    monkeypatch.setattr(game_session, "MonotonicClock", lambda: clock)
    return clock


WAIT_S = 30.0  # a deadline for a loaded CI machine; a condition met returns at once


async def wait_for(pilot, condition, what: str = "condition", tries: int = 300) -> None:
    """Poll ``condition`` between frames until it holds: at least ``tries`` polls and at
    least :data:`WAIT_S` seconds (a count of polls alone timed out on a loaded machine)."""
    deadline = time.monotonic() + WAIT_S
    n = 0
    while n < tries or time.monotonic() < deadline:
        if condition():
            return
        await pilot.pause(0.01)
        n += 1
    raise AssertionError(f"timed out waiting for {what}")


async def type_text(pilot, text: str) -> None:
    """Each character a key press, in order, each handled before the next is sent; the
    screen is waited for once at the end (once per key walked every widget of the screen
    per character: 2 s for a typed path on a loaded machine)."""
    await pilot.press(*(ch if ch != " " else "space" for ch in text))


def game_id(folder: Path, index: int = 4) -> str:
    from fieldjudge.services import open_tournament

    t = open_tournament(folder, startup_backup=False)
    try:
        return t.games()[index]["id"]  # the first game of round 2: not played yet
    finally:
        t.close()


async def open_game(app, pilot, gid: str):
    from fieldjudge.screens.game.screen import GameScreen

    await wait_for(pilot, lambda: app.tournament is not None, "the tournament")
    app.open_game(gid)
    await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
    await pilot.pause()
    return app.screen


@asynccontextmanager
async def game_screen(
    folder: Path, gid: str, lang: str = "en", size=(100, 32), judge: str = "Test judge"
):
    """The app on ``folder`` with game ``gid`` open on the game screen: (app, pilot, screen).
    ``judge``: this laptop's judge (``--judge``; "": the one remembered, else asked at the
    first event)."""
    app = make_app(folder.parent, folder, lang=lang, judge=judge)
    async with app.run_test(size=size) as pilot:
        yield app, pilot, await open_game(app, pilot, gid)


async def keys(pilot, *presses: str) -> None:
    for k in presses:
        for part in k.split() if " " in k else [k]:
            await pilot.press(part)


def state_key(session) -> dict:
    """Everything a restart must restore, without object identities."""
    st = session.state
    players = {
        f"{p.team}#{p.number}": (
            p.status,
            p.elimination
            and (p.elimination.reason, p.elimination.section, p.elimination.game_clock_ms),
            p.carrying,
            p.inspection,
            p.check and (p.check.kind, p.check.start_ms),
            [(c.kind, c.start_ms, c.end_ms, c.outcome) for c in p.checks],
        )
        for p in st.players.values()
    }
    flags = {
        t: (f.location, f.carrier, f.spares_hung, f.taken_by_judge, len(f.captures))
        for t, f in st.flags.items()
    }
    return {
        "phase": st.phase,
        "players": players,
        "flags": flags,
        "end": (st.end_reason, st.end_ms, st.hang_team),
        "clock": session.now_ms(),
        "events": len(session.events),
    }


async def reopened_state(folder: Path, gid: str) -> dict:
    """Quit and start the app again on the same folder; the game's state as it shows."""
    async with game_screen(folder, gid) as (_app, _pilot, screen):
        return state_key(screen.session)


def name_prompt_open(app) -> bool:
    """The judge's name is asked on the home screen (its inline prompt, typed ahead into)."""
    from fieldjudge.screens.home import HomeScreen
    from fieldjudge.screens.widgets.prompt import PromptPanel

    screen = app.screen
    return isinstance(screen, HomeScreen) and screen.query_one(PromptPanel).active


def signature_asked(app) -> bool:
    """The head judge is asked to sign a change of the teams or schedule just made
    (``CsvImportScreen.offer_signature``): a form with his secret only."""
    screen = app.screen
    fields = getattr(screen, "fields", None)
    return fields is not None and [f.key for f in fields] == ["pin"]


async def sign_later(pilot, app) -> None:
    """Wait for the head judge's signature to be asked after a change, and press Esc."""
    await wait_for(pilot, lambda: signature_asked(app), "the head judge asked to sign")
    await pilot.press("escape")
