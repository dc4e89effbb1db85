"""The pit page as a TV (issue 25, item 5), in Debian's headless Chromium: at 1920x1080 with
1, 3 and 4 games in play the page never scrolls, every live card and the schedule's next
games lie inside the screen, "Поле 1" stays on one line; a game whose protocol the captains
signed and the head judge voided back (31) is not in the live list; two games in play on one
field are marked as a conflict (RULES.md "One live game per field and per team"); a chrono
reading states what it caused (20.04: the group removal 1+1); and at 390 px (a phone) one
column, no sideways scrolling, the next games before the standings.

What is checked is what the page lays out (the DOM of the same browser), not pixels. The
screenshots are written to the test's folder (their paths printed) to be looked at."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from pit_browser import CHROMIUM, Browser
from pit_helpers import Play, field_laptop_copy, open_demo, start_on_field_laptop

from fieldjudge.serve.server import PitServer
from fieldjudge.services.demo import DEMO_PASSPHRASE
from fieldjudge.services.paintball import results as res
from fieldjudge.services.pitview import PitView

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")

# What the page lays out: the page's size, each live card's box, the schedule's rows of the
# given games, the height of each card's field name against its line height.
LAYOUT_JS = """
((next) => {
  const box = (n) => { const r = n.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width,
            height: r.height}; };
  const cards = Array.from(document.querySelectorAll('#live .card'));
  return {
    scrollHeight: document.documentElement.scrollHeight,
    scrollWidth: document.documentElement.scrollWidth,
    innerHeight: window.innerHeight,
    innerWidth: window.innerWidth,
    cards: cards.map((c) => ({id: c.dataset.game, box: box(c), text: c.textContent})),
    fields: Array.from(document.querySelectorAll('#live .card .field')).map((f) => {
      const cs = getComputedStyle(f);
      const line = cs.lineHeight === 'normal' ? 1.3 * parseFloat(cs.fontSize)
                                               : parseFloat(cs.lineHeight);
      return {text: f.textContent, height: f.getBoundingClientRect().height, line: line};
    }),
    next: next.map((id) => {
      const r = document.querySelector('#schedule tr[data-game="' + id + '"]');
      return {id: id, shown: !!r && r.getClientRects().length > 0, box: r ? box(r) : null};
    }),
    schedule: box(document.getElementById('schedule-section')),
    standings: box(document.getElementById('standings-section')),
  };
})
"""


async def layout(browser: Browser, next_games: list[str]) -> dict[str, Any]:
    return await browser.js(f"{LAYOUT_JS}({json.dumps(next_games)})")


def inside(b: dict[str, float], w: int, h: int) -> bool:
    return (
        b["height"] > 0
        and b["top"] >= 0
        and b["left"] >= 0
        and b["bottom"] <= h
        and (b["right"] <= w)
    )


def tv_problems(lay: dict[str, Any], live: list[str], what: str) -> list[str]:
    """Everything wrong with one 1920x1080 frame showing the games ``live``."""
    out = []
    if lay["scrollHeight"] > lay["innerHeight"]:
        out.append(f"{what}: the page scrolls ({lay['scrollHeight']} > {lay['innerHeight']})")
    shown = [c["id"] for c in lay["cards"]]
    if sorted(shown) != sorted(live):
        out.append(f"{what}: live cards {shown}, expected {live}")
    for c in lay["cards"]:
        if not inside(c["box"], 1920, 1080):
            out.append(f"{what}: card {c['id']} outside the screen: {c['box']}")
    for r in lay["next"]:
        if not r["shown"] or not inside(r["box"], 1920, 1080):
            out.append(f"{what}: next game {r['id']} not on the screen: {r['box']}")
    for f in lay["fields"]:
        if f["height"] > 1.5 * f["line"]:
            out.append(f"{what}: «{f['text']}» wraps ({f['height']:.0f} px, line {f['line']})")
    return out


def shown_js(ids: list[str]) -> str:
    """Whether each of these games has its card in the live list."""
    return (
        f"{json.dumps(ids)}.every((id) => "
        "!!document.querySelector('#live .card[data-game=\"' + id + '\"]'))"
    )


async def shot(browser: Browser, path: Path, width: int, height: int) -> None:
    await browser.screenshot(path, width, height, mobile=width < 600)
    print("pit screenshot:", path)


def four_fields(t) -> None:
    """Round 2's four games (8 different teams) on four fields, all at 10:40 and 11:00."""
    for n, g in enumerate(t.games()[4:8]):
        t.put_row("games", {"id": g["id"]}, {**g, "field": str(n + 1)})


def void_back(t) -> str:
    """31: the head judge voids an elimination of the first (signed) game: its engine goes
    back to the post-game inspection, its protocol stays signed."""
    gid = t.games()[0]["id"]
    v = res.game_view(t, gid)
    target = next(e for e in v.events if e.type == "elimination")
    res.void_locked_event(t, gid, target.id, "попадание в бункер", DEMO_PASSPHRASE)
    v = res.game_view(t, gid)
    assert v.protocol.locked and v.state.phase == "inspection"
    return gid


async def test_pit_tv_at_1920x1080_with_1_3_and_4_games_and_a_phone(tmp_path: Path) -> None:
    t = open_demo(tmp_path / "demo")
    four_fields(t)
    voided = void_back(t)
    field = field_laptop_copy(t)  # a field laptop's copy, synced no more from now on
    games = [g["id"] for g in t.games()]
    next_games = games[8:11]  # the schedule's next games, not started
    server = PitServer(PitView(t.folder), "127.0.0.1", 0, heartbeat_s=1.0)
    url = server.start()
    browser = Browser(tmp_path, url)
    problems: list[str] = []
    try:
        await browser.open()
        await browser.until("document.documentElement.lang", "ru")
        await browser.send(
            "Emulation.setDeviceMetricsOverride",
            width=1920,
            height=1080,
            deviceScaleFactor=1,
            mobile=False,
        )
        started = datetime.now(UTC) - timedelta(seconds=100)  # the clocks show 5:xx
        plays = [Play(t, i, start=started) for i in (4, 5, 6, 7)]
        first = plays[0]
        first.start()
        first.eliminate(first.b, 0)
        # 20.04: 315 fps -- a group removal 1+1, the judge names the second player
        first.add(
            "chrono_reading",
            {
                "team": first.a,
                "number": first.number(first.a, 1),
                "fps": 315.0,
                "forbidden_mode": False,
                "source": "typed",
                "second": first.number(first.a, 2),
            },
        )
        await browser.until(
            f"document.querySelectorAll('#live [data-game=\"{first.game_id}\"]').length", 1
        )
        await browser.until(
            f"document.querySelector('#live [data-game=\"{first.game_id}\"] [data-role=alive]')"
            ".textContent",
            "3",
        )
        lay = await layout(browser, next_games)
        problems += tv_problems(lay, [first.game_id], "1 game")
        if voided in [c["id"] for c in lay["cards"]]:
            problems.append("the signed game voided back by the head judge is in the live list")
        chrono = next(
            (c["text"] for c in lay["cards"] if c["id"] == first.game_id), ""
        )  # 20.04: its consequence on the card
        if "групповое удаление 1+1" not in chrono or "также выбыл" not in chrono:
            problems.append(f"the chrono reading does not state the 1+1: {chrono!r}")
        await shot(browser, tmp_path / "pit-tv-1-game-1920x1080.png", 1920, 1080)

        for p in plays[1:3]:
            p.start()
            p.eliminate(p.a, 0)
        plays[2].add("time_stop")
        live3 = [p.game_id for p in plays[:3]]
        await browser.until(shown_js(live3), True)
        lay = await layout(browser, next_games)
        problems += tv_problems(lay, live3, "3 games")
        await shot(browser, tmp_path / "pit-tv-3-games-1920x1080.png", 1920, 1080)

        plays[3].start()
        plays[3].add("flag_capture", {"team": plays[3].a, "number": plays[3].number(plays[3].a, 0)})
        live4 = [p.game_id for p in plays]
        await browser.until(shown_js(live4), True)
        lay = await layout(browser, next_games)
        problems += tv_problems(lay, live4, "4 games")
        await shot(browser, tmp_path / "pit-tv-4-games-1920x1080.png", 1920, 1080)

        # a phone: one column, nothing sideways, the next games before the standings
        await shot(browser, tmp_path / "pit-phone-390x844.png", 390, 844)
        lay = await layout(browser, next_games)
        if lay["scrollWidth"] > 390:
            problems.append(f"390 px: the page scrolls sideways ({lay['scrollWidth']})")
        lefts = {round(c["box"]["left"]) for c in lay["cards"]}
        if len(lefts) != 1 or any(c["box"]["width"] < 300 for c in lay["cards"]):
            problems.append(f"390 px: the cards are not one column: {lay['cards']}")
        for f in lay["fields"]:
            if f["height"] > 1.5 * f["line"]:
                problems.append(f"390 px: «{f['text']}» wraps")
        if not lay["schedule"]["top"] < lay["standings"]["top"]:
            problems.append("390 px: the next games come after the standings")

        # a field laptop whose copy missed all this starts 11:20 on field 1 (Медведи —
        # Ястребы): field 1 has two games in play, Ястребы two games; five cards fit
        other = start_on_field_laptop(t, field, tmp_path / "field-config", 8, started)
        await browser.send(
            "Emulation.setDeviceMetricsOverride",
            width=1920,
            height=1080,
            deviceScaleFactor=1,
            mobile=False,
        )
        live5 = [*live4, other]
        await browser.until(shown_js(live5), True)
        marks = (
            "Object.fromEntries(Array.from(document.querySelectorAll('#live .card'))"
            ".map((c) => [c.dataset.game, (c.querySelector('.conflict') || {}).textContent]))"
        )
        expect = {
            first.game_id: "КОНФЛИКТ: на поле 1 идут две игры (вторая: 11:20 Медведи — Ястребы)",
            other: "КОНФЛИКТ: на поле 1 идут две игры (вторая: 10:40 Медведи — Тигры)",
            plays[1].game_id: (
                "КОНФЛИКТ: команда Ястребы играет сразу в двух играх"
                " (вторая: 11:20 Медведи — Ястребы)"
            ),
        }
        try:
            await browser.until(
                f"(() => {{ const m = {marks}; return {json.dumps(list(expect))}"
                ".map((id) => m[id]); })()",
                list(expect.values()),
                10,
            )
        except AssertionError as exc:
            problems.append(f"the games in conflict are not marked: {exc}")
        await shot(browser, tmp_path / "pit-tv-conflict-1920x1080.png", 1920, 1080)
        problems += tv_problems(await layout(browser, next_games[1:]), live5, "conflict")
    finally:
        await browser.close()
        server.stop()
        t.close()
    assert not problems, "\n".join(problems)
