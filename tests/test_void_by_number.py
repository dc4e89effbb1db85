"""Void by number (issue 25, item 6): ``v`` then the event's number from the log, the
reason asked in the screen's prompt (no dialog to open and close, issue 24) naming the event
(number, time, line), the voided event struck through with
«Отменено (№N)», the void's own line «Отменено: №N …»; a number that does not exist, an
event that cannot be voided and one already voided each refused with a message, the prompt
left open. A correction is a new event (the void); the target stays in the log (31)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from results_fixtures import demo
from rich.segment import Segment
from textual.widgets import Static

from fieldjudge.rules.events import VOID, Event, voided_by, voided_ids
from fieldjudge.rules.paintball import model as m
from fieldjudge.screens.dialogs.help import HelpScreen
from fieldjudge.screens.game.widgets import EventLogView
from fieldjudge.services import Refused
from fieldjudge.services.demo import DEMO_PASSPHRASE
from fieldjudge.services.paintball import results as res
from fieldjudge.services.paintball.game import GameSession
from tests.test_game_helpers import game_screen, keys, type_text, wait_for


def asks_reason(screen) -> bool:
    p = screen.prompt.current
    return p is not None and p.text


def reason_texts(screen) -> list[str]:
    """The reason prompt's title and the event it names (its number, time and line)."""
    return str(screen.prompt.current.title).split("\n")


def log_row(screen, number: int) -> tuple[str, list[Segment]]:
    """The drawn row of event №``number`` in the log: its text and its segments."""
    log = screen.query_one(EventLogView)
    for y in range(log.size.height):
        segments = list(log.render_line(y))
        plain = "".join(seg.text for seg in segments).rstrip()
        if plain[:3].strip() == str(number):
            return plain, segments
    raise AssertionError(f"no row #{number} drawn")


def styled(row: list[Segment], attribute: str) -> str:
    """The characters of ``row`` drawn with ``attribute`` (e.g. strike) on."""
    return "".join(seg.text for seg in row if seg.style and getattr(seg.style, attribute))


async def test_31_v_and_two_keys_void_an_event_named_in_the_prompt_and_struck(
    demo_folder: Path, gid, clock
) -> None:
    """31: a correction is a new event. ``v 2``: three keys; the dialog says which event
    (№, game time, line); the list keeps it struck through with «Отменено (№4)»."""
    async with game_screen(demo_folder, gid, lang="ru", size=(80, 24)) as (app, pilot, screen):
        a, b = screen.session.teams
        await keys(pilot, "space")
        clock.advance(42_000)
        await keys(pilot, "a 4 2 enter", "b 2 3 o")
        await keys(pilot, "v 2")  # taken at once: no longer number starts with 2
        await wait_for(pilot, lambda: asks_reason(screen), "the reason prompt")
        title, note = reason_texts(screen)[:2]
        assert title == "Отменить событие №2? Укажите причину"
        assert note.startswith("№2 · 0:42 · ✗ Медведи #42 ")
        assert note.endswith(": поражение (26)")
        await type_text(pilot, "попал в бункер")
        await pilot.press("enter")
        await wait_for(pilot, lambda: not screen.prompt.active, "back to the game")
        await pilot.pause()
        st = screen.session.state
        assert st.player(a, 42).status == m.IN_PLAY and st.player(b, 23).status == m.ELIMINATED
        void = screen.session.events[-1]
        assert (void.seq, void.type, void.data["reason"]) == (4, VOID, "попал в бункер")
        plain, row = log_row(screen, 2)
        assert plain.endswith("  Отменено (№4)")
        assert styled(row, "strike") == "✗ Медведи #42 Сергей Волков: поражение (26)"
        assert "Отменено" not in styled(row, "strike")  # the mark itself stays readable
        plain, row = log_row(screen, 4)
        assert plain.startswith("  4  0:42  Отменено: №2 ✗ Медведи #42")
        assert plain.endswith(" — попал в бункер") and not styled(row, "strike")
        assert "Аннулир" not in str(screen.query_one(EventLogView).render())
        notice = str(screen.query_one("#notice").render())
        assert notice.startswith("↶ Отменено: №2 ✗ Медведи #42")


async def test_31_two_digit_number_taken_at_once_one_digit_waits_for_enter(
    demo_folder: Path, gid, clock
) -> None:
    """With twelve events ``v 1 2`` opens the dialog of №12 at once; ``v 1`` waits (10, 11
    and 12 start with 1) and Enter takes №1. Esc in the reason prompt voids nothing."""
    async with game_screen(demo_folder, gid, lang="en", size=(80, 24)) as (app, pilot, screen):
        await keys(pilot, "space")
        for _ in range(5):
            clock.advance(10_000)
            await keys(pilot, "t", "space")
        clock.advance(5_000)
        await keys(pilot, "a 4 2 enter")
        assert [e.seq for e in screen.session.events] == list(range(1, 13))
        await keys(pilot, "v 1 2")
        await wait_for(pilot, lambda: asks_reason(screen), "the reason prompt")
        title, note = reason_texts(screen)[:2]
        assert title == "Void event #12? Give the reason"
        assert note.startswith("#12 · 0:55 · ✗ Медведи #42 ")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not screen.prompt.active, "back to the game")
        assert len(screen.session.events) == 12
        assert "Nothing voided" in str(screen.query_one("#notice").render())
        await keys(pilot, "v 1")
        await pilot.pause()
        assert app.screen is screen and screen.prompt.active  # 1, 10, 11 or 12: waits
        await keys(pilot, "enter")
        await wait_for(pilot, lambda: asks_reason(screen), "the reason prompt")
        assert reason_texts(screen)[1] == "#1 · 0:00 · Clock started"


async def test_31_bad_numbers_are_refused_in_the_prompt_with_the_reason(
    demo_folder: Path, gid, clock
) -> None:
    """A number that does not exist, an event already voided, and the end by the clock
    (time that ran out cannot be voided: the clock would end the game again) are each
    refused with a message; the prompt stays open for another number; nothing is logged."""
    async with game_screen(demo_folder, gid, lang="ru", size=(80, 24)) as (app, pilot, screen):
        await keys(pilot, "v")
        notice = screen.query_one("#notice")
        assert "Отменять нечего: событий ещё нет" in str(notice.render())
        assert not screen.prompt.active
        await keys(pilot, "space")
        clock.advance(1_000)
        await keys(pilot, "a 4 2 enter", "u", "enter")  # #42 out, then undone: №3 voids №2
        assert screen.session.events[-1].type == VOID
        n = len(screen.session.events)
        await keys(pilot, "v 9")  # no event starts with 9: refused at once
        assert screen.prompt.current.error == "⚠ Нет события №9: в списке события с №1 по №3"
        await keys(pilot, "2")  # the prompt stayed open: another number
        assert screen.prompt.current.error == "⚠ Событие №2 уже отменено (записью №3)"
        await keys(pilot, "escape")
        assert not screen.prompt.active
        clock.advance(screen.session.state.clock.length_ms)  # the clock runs out
        await wait_for(pilot, lambda: screen.session.state.phase != m.RUNNING, "time over")
        end = screen.session.events[-1]
        assert end.data.get("reason") == "clock"
        await wait_for(pilot, lambda: app.screen is not screen, "the inspection dialog")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen, "back to the game")
        await keys(pilot, "v", *str(end.seq))
        why = f"⚠ Событие №{end.seq} нельзя отменить: время игры истекло"
        assert screen.prompt.current.error == why
        assert len(screen.session.events) == n + 1  # only the end by the clock
        assert isinstance(app.screen, type(screen))


async def test_f1_on_the_game_screen_says_how_to_void_by_number(
    demo_folder: Path, gid, clock
) -> None:
    async with game_screen(demo_folder, gid, lang="ru", size=(100, 40)) as (app, pilot, screen):
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), "F1")
        texts = "\n".join(str(w.render()) for w in app.screen.query(Static))
        assert "v и номер события из списка — отменить это событие с причиной" in texts
        assert "v  Отменить событие по номеру" in texts


def test_31_an_event_of_a_signed_protocol_is_not_the_judges_to_void(tmp_path: Path) -> None:
    """31: once both captains signed, only the head judge voids (results screen, his
    secret): the number is refused before a reason is asked, naming the event."""
    t = demo(tmp_path / "t", lock=True)
    try:
        gid = t.games()[0]["id"]
        session = GameSession(t, gid)
        with pytest.raises(Refused, match=r"^Event #5 cannot be voided here: 31: "):
            session.voidable(5)
        with pytest.raises(Refused, match=r"^No event #999: the list goes from #1 to #\d+$"):
            session.voidable(999)
    finally:
        t.close()


def test_32_01_a_no_show_is_the_head_judges_to_void(tmp_path: Path) -> None:
    """32.01: the head judge rules a no-show, and only he voids it: the game screen's
    number is refused naming the event and the section."""
    t = demo(tmp_path / "t", lock=True)
    try:
        gid = t.games()[-1]["id"]  # not played
        res.record_no_show(t, gid, [t.game(gid)["team_a"]], secret=DEMO_PASSPHRASE)
        session = GameSession(t, gid)
        with pytest.raises(Refused, match=r"^Event #1 cannot be voided here: 32\.01: only the"):
            session.voidable(1)
        with pytest.raises(Refused, match=r"^No event #0: the list goes from #1 to #1$"):
            session.voidable(0)
    finally:
        t.close()


def _event(seq: int, etype: str = "note", **data: object) -> Event:
    return Event(
        id=f"e{seq}", seq=seq, type=etype, game_clock_ms=0, wall_time="", judge="", data=data
    )


def test_voided_by_names_the_effective_void_of_each_struck_event() -> None:
    """A void of a void restores its target: the target is no longer struck, the first
    void is, by the second."""
    evs = [_event(1), _event(2, VOID, target="e1"), _event(3, VOID, target="e2")]
    assert voided_by(evs) == {"e2": evs[2]}
    assert voided_by(evs[:2]) == {"e1": evs[1]}
    assert set(voided_by(evs)) == voided_ids(evs)
    assert voided_by(evs[:1]) == {}


@st.composite
def logs_with_voids(draw) -> list[Event]:
    """A log whose voids each name an earlier event (a note or another void)."""
    evs: list[Event] = []
    for seq in range(1, draw(st.integers(1, 25)) + 1):
        if evs and draw(st.booleans()):
            target = draw(st.sampled_from(evs))
            evs.append(_event(seq, VOID, target=target.id))
        else:
            evs.append(_event(seq))
    return evs


@given(logs_with_voids())
def test_voided_by_agrees_with_the_fold_and_names_an_effective_void(evs: list[Event]) -> None:
    """The log's «Отменено (№N)» marks exactly the events the fold leaves out, each by a
    void that counts (not itself voided) and names it."""
    by = voided_by(evs)
    assert set(by) == voided_ids(evs)
    for target, void in by.items():
        assert void.type == VOID and void.data["target"] == target
        assert void.id not in by


async def test_31_a_long_reason_is_taken_whole_in_the_prompt(demo_folder: Path, gid, clock) -> None:
    """31: a correction's reason, typed in the screen's prompt at 80 columns, wraps there
    and is recorded whole (as the dialog took it); Backspace corrects it."""
    reason = "the shot came from the neighbouring field, seen by the second judge at the flag"
    async with game_screen(demo_folder, gid, lang="en", size=(80, 24)) as (app, pilot, screen):
        await keys(pilot, "space")
        clock.advance(1_000)
        await keys(pilot, "a 4 2 enter", "v 2")
        await wait_for(pilot, lambda: asks_reason(screen), "the reason prompt")
        await type_text(pilot, reason + "!")
        await pilot.press("backspace", "enter")
        await wait_for(pilot, lambda: not screen.prompt.active, "back to the game")
        assert screen.session.events[-1].data["reason"] == reason
        assert not screen.session.state.player(screen.session.teams[0], 42).status == m.ELIMINATED


async def test_31_the_reason_prompt_hints_first_and_refuses_only_an_empty_enter(
    demo_folder: Path, gid, clock
) -> None:
    """31: a correction needs a reason. Before anything is typed the prompt says what to
    type, worded and drawn as a hint; Enter with no reason is refused (the refusal in its
    place, voiding nothing); typing brings the hint back."""
    async with game_screen(demo_folder, gid, lang="ru", size=(80, 24)) as (app, pilot, screen):
        await keys(pilot, "space", "a 4 2 enter", "v 2")
        await wait_for(pilot, lambda: asks_reason(screen), "the reason prompt")
        await pilot.pause()
        line = screen.query_one("#prompt-error", Static)
        assert str(line.render()) == "Напишите, почему: причина сохранится вместе с исправлением"
        assert line.has_class("hint")
        await keys(pilot, "enter")
        await wait_for(pilot, lambda: not line.has_class("hint"), "the refusal")
        assert str(line.render()) == "⚠ Для исправления нужна причина"
        assert screen.prompt.active and len(screen.session.events) == 2
        await type_text(pilot, "x")
        await wait_for(pilot, lambda: line.has_class("hint"), "the hint again")
        assert str(line.render()).startswith("Напишите, почему")
