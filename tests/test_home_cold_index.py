"""The home screen on a cold summary index (issue 13): the games table is there at once,
the states of stale games follow a slice a frame, on the main thread, and end as the
summaries say."""

from __future__ import annotations

import builtins
import os
import re
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path, PurePosixPath

from fakes import FakeClock
from hypothesis import given
from hypothesis import strategies as st
from textual import events

from fieldjudge import app as app_module
from fieldjudge.app import make_app
from fieldjudge.screens import home
from fieldjudge.services import open_tournament
from fieldjudge.services.paintball import results, summaries
from fieldjudge.services.paintball.disqualified import disqualified_before
from fieldjudge.services.paintball.game import GameSession
from fieldjudge.services.trust.checks import _kind_and_id
from fieldjudge.store import backup, storage
from fieldjudge.store.verified import VERIFIED_FILE, load_verified
from tests.screen_text import screen_text
from tests.test_game_helpers import wait_for
from tests.test_results_export import _disqualify_before_a_later_game


def _played_games(folder, n: int) -> list[str]:
    """``n`` more games on fields 10.., each with a clock start and one elimination, then
    ended by the judge (their inspection open): the same two teams play them all, and a
    team plays one live game at a time (RULES.md, "One live game per field and per team")."""
    t = open_tournament(folder, startup_backup=False)
    teams = [x["id"] for x in t.teams()]
    start = datetime(2026, 6, 2, 9, 0)
    t.add_games(
        [
            {
                "field": str(10 + i),
                "start": start + timedelta(minutes=20 * i),
                "team_a": teams[0],
                "team_b": teams[1],
            }
            for i in range(n)
        ]
    )
    ids = [g["id"] for g in t.games() if int(g["field"]) >= 10]
    for i, gid in enumerate(ids):
        s = GameSession(t, gid, clock=FakeClock(datetime(2026, 6, 2, 9, tzinfo=UTC)))
        s.start_clock()
        team = s.teams[i % 2]
        s.eliminate(team, s.setup.rosters[team][0].number)
        s.end_by_judge("test")
    t.close()
    return ids


async def test_cold_index_fills_every_state_after_the_first_frame(demo_folder) -> None:
    ids = _played_games(demo_folder, 6)
    (demo_folder / ".cache" / "index.json").unlink(missing_ok=True)
    recorded = len(list((demo_folder / "games").glob("*.json")))
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        while app.tournament is None or not any(t.row_count for t in app.screen.query("#games")):
            await pilot.pause(0.01)
        table = app.screen.query_one("#games")
        states = [str(c) for c in table.get_column_at(4)]
        assert table.row_count == len(app.tournament.games())
        # no stale game summarised before the first frame: every one after it
        assert states.count("…") == recorded
        for _ in range(500):
            if "…" not in [str(c) for c in table.get_column_at(4)]:
                break
            await pilot.pause(0.01)
        t = app.tournament
        for gid in ids:
            alive = t.game_summary(gid)["alive"]
            assert sorted(alive) == [4, 5]
            assert (
                str(table.get_cell(gid, app.screen._state_column))
                == f"inspection · in play {alive[0]} × {alive[1]}"
            )
        assert all(t.cached_game_summary(g["id"]) is not None for g in t.games())


async def _every_state_shown(app, pilot):
    """The games table once its rows are in and no state is "…" any more."""

    def rows_in() -> bool:
        return app.tournament is not None and any(t.row_count for t in app.screen.query("#games"))

    await wait_for(pilot, rows_in, "the games table's rows")
    table = app.screen.query_one("#games")
    await wait_for(
        pilot, lambda: "…" not in [str(c) for c in table.get_column_at(4)], "every game's state"
    )
    return table


async def test_keys_go_through_while_the_states_are_read(demo_folder, monkeypatch) -> None:
    """The games are summarised a slice at a time in a task that gives the event loop
    back: a key pressed while states are still being read is handled between two slices
    (the slices used to run back to back and hold every key until all were shown)."""
    _played_games(demo_folder, 30)
    (demo_folder / ".cache" / "index.json").unlink(missing_ok=True)
    monkeypatch.setattr(home, "FILL_SLICE_S", 0.0)  # one game a slice
    cursor_at_slice: list[int] = []
    summarise_slice = home.HomeScreen._summarise_slice

    def recording(screen, t, pending, *walk):
        if not cursor_at_slice:  # a key pressed as the first slice starts
            screen.app.post_message(events.Key("down", None))
        cursor_at_slice.append(screen.query_one("#games").cursor_row)
        return summarise_slice(screen, t, pending, *walk)

    monkeypatch.setattr(home.HomeScreen, "_summarise_slice", recording)
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        table = await _every_state_shown(app, pilot)
        assert table.cursor_row == 1
    assert len(cursor_at_slice) >= 30
    assert cursor_at_slice[0] == 0
    assert cursor_at_slice[-1] == 1  # the key was handled between two slices


async def test_20_05_a_cold_start_folds_each_game_once_carrying_disqualifications(
    demo_folder, monkeypatch
) -> None:
    """20.05 along one pass in schedule order: each stale game is summarised once, its
    setup given the players disqualified in the games before it, never by asking every
    earlier game again (that made a cold start quadratic in the games)."""
    ids = _played_games(demo_folder, 8)
    (demo_folder / ".cache" / "index.json").unlink(missing_ok=True)
    summarised: list[str] = []
    looked_up: list[str] = []
    summarize = summaries.summarize

    def counting(t, game_id, log, *pass_of):
        summarised.append(game_id)
        return summarize(t, game_id, log, *pass_of)

    def lookup(t, game_id):
        looked_up.append(game_id)
        return frozenset()

    monkeypatch.setattr(summaries, "summarize", counting)
    monkeypatch.setattr(results, "disqualified_before", lookup)
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        await _every_state_shown(app, pilot)
        for _ in range(200):  # the states off screen too
            if not app.screen._pending:
                break
            await pilot.pause(0.01)
    assert sorted(summarised) == sorted(set(summarised))
    assert set(ids) <= set(summarised)
    assert looked_up == []


async def test_21_the_signatures_found_clean_are_kept_before_the_app_exits(demo_folder) -> None:
    """Issue 21's checks run once: what a cold start found clean is in ``.cache/`` as
    soon as every state is shown, so a start after a crash or a kill (no clean exit)
    does not check every signature again."""
    ids = _played_games(demo_folder, 4)
    (demo_folder / ".cache" / "index.json").unlink(missing_ok=True)
    (demo_folder / VERIFIED_FILE).unlink(missing_ok=True)
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        await _every_state_shown(app, pilot)
        mac, wanted = app.tournament.keys.local_mac, {f"games/{gid}.json" for gid in ids}
        await wait_for(
            pilot, lambda: wanted <= load_verified(demo_folder, mac).keys(), "the checks kept"
        )


async def test_keys_go_through_while_the_startup_backup_copies_the_folder(
    demo_folder, monkeypatch
) -> None:
    """The startup backup of a folder never copied (a copied folder's first start: every
    game file) runs a file at a time on the app's thread: a key pressed while it copies is
    handled before the last file is copied, not after the whole folder."""
    _played_games(demo_folder, 12)
    shutil.rmtree(demo_folder / "backups", ignore_errors=True)
    monkeypatch.setattr(app_module, "STARTUP_BACKUP_DELAY_S", 0.01)
    cursor_at_copy: list[int] = []
    make_backup = backup.make_backup

    def recording(folder, file, *args, **kwargs):
        tables = app.screen.query("#games")
        if tables:
            if not cursor_at_copy:  # a key pressed as the first file is copied
                app.post_message(events.Key("down", None))
            cursor_at_copy.append(tables.first().cursor_row)
        return make_backup(folder, file, *args, **kwargs)

    monkeypatch.setattr(backup, "make_backup", recording)
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(
            pilot, lambda: len(set(cursor_at_copy)) == 2, "the key handled between two copies"
        )
    assert cursor_at_copy[0] == 0


async def test_20_05_the_cold_pass_carries_a_disqualification_to_a_later_game(
    tmp_path,
) -> None:
    """20.05: the later game's state made by the home screen's one pass (carrying the
    disqualifications along) is the one its own setup gives (every earlier game asked)."""
    t, _first, later, team, number = _disqualify_before_a_later_game(tmp_path / "cup")
    folder = t.folder
    t.close()
    (folder / ".cache" / "index.json").unlink(missing_ok=True)
    app = make_app(folder.parent, folder, lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        await _every_state_shown(app, pilot)
        home_screen = app.screen_stack[0]  # the running game may be offered over it
        await wait_for(pilot, lambda: not home_screen._pending, "every state read")
        made = app.tournament.cached_game_summary(later["id"])
    t = open_tournament(folder, lock=False, startup_backup=False)
    try:
        assert (team, number) in disqualified_before(t, later["id"])
        with t.reading_game_log(later["id"]) as log:
            asked = summaries.summarize(t, later["id"], log)
    finally:
        t.close()
    assert made == asked


async def test_cold_states_widen_their_column_as_a_warm_start_does(demo_folder) -> None:
    ids = _played_games(demo_folder, 3)
    (demo_folder / ".cache" / "index.json").unlink(missing_ok=True)
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        table = await _every_state_shown(app, pilot)
        await pilot.pause()
        state = str(table.get_cell(ids[0], app.screen._state_column))
        assert state in ("inspection · in play 4 × 5", "inspection · in play 5 × 4")
        widest = max(len(str(s)) for s in table.get_column_at(4))
        assert table.columns[app.screen._state_column].content_width == widest
        assert state in screen_text(app)


async def test_24_a_reload_that_changes_nothing_draws_nothing_again(
    demo_folder, monkeypatch
) -> None:
    """The check right after the first frame reloads the games list (issue 21): with the
    same title, rows and focus it repaints neither the table nor the title (a focus call
    or a title set again each drew the whole table anew, ~50 ms of a cold start)."""
    _played_games(demo_folder, 4)
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        table = await _every_state_shown(app, pilot)
        await pilot.pause()
        title = app.screen.query_one("#tournament-title")
        drawn: list[str] = []
        for widget in (table, title):
            refresh = widget.refresh

            def counting(*args, _refresh=refresh, _id=widget.id, **kwargs):
                drawn.append(_id)
                return _refresh(*args, **kwargs)

            monkeypatch.setattr(widget, "refresh", counting)
        app.screen.reload_games()
        await pilot.pause()
        assert drawn == []
        assert app.screen.focused is table


def test_24_a_cold_summary_reads_its_game_file_once(demo_folder, monkeypatch) -> None:
    """Issue 24: a game summarised cold is read once -- with its signatures checked (no
    memory of the file found clean: the summary is folded from the events so checked)
    and with the memory (the signatures known: the store reads it, chain and head)."""
    ids = _played_games(demo_folder, 2)
    reads: list[str] = []
    read_bytes = Path.read_bytes

    def counting(path):
        reads.append(path.name)
        return read_bytes(path)

    def counting_open(file, *args, **kwargs):  # the store's block-by-block read
        reads.append(Path(file).name)
        return builtins.open(file, *args, **kwargs)

    for memory in ("none", "kept"):
        (demo_folder / ".cache" / "index.json").unlink(missing_ok=True)
        if memory == "none":
            (demo_folder / VERIFIED_FILE).unlink(missing_ok=True)
        t = open_tournament(demo_folder, startup_backup=False)
        try:
            with monkeypatch.context() as m:
                m.setattr(Path, "read_bytes", counting)
                m.setattr(storage, "open", counting_open, raising=False)
                reads.clear()
                summary = t.game_summary(ids[0])
            assert reads.count(f"{ids[0]}.json") == 1, (memory, reads)
            assert summary["phase"] == "inspection" and sorted(summary["alive"]) == [4, 5]
        finally:
            t.close()
    assert f"games/{ids[0]}.json" in load_verified(demo_folder, t.keys.local_mac)


async def test_a_reload_shows_a_state_that_changed_since_it_was_shown(demo_folder, gid) -> None:
    """A row kept as shown by the last reload is drawn again when its state changed
    (here a game not started whose clock starts)."""
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        table = await _every_state_shown(app, pilot)
        assert str(table.get_cell(gid, app.screen._state_column)) == "scheduled"
        session = GameSession(
            app.tournament, gid, clock=FakeClock(datetime(2026, 6, 1, 12, tzinfo=UTC))
        )
        session.start_clock()
        app.screen.reload_games()
        await wait_for(
            pilot,
            lambda: str(table.get_cell(gid, app.screen._state_column)) not in ("scheduled", "…"),
            "the new state",
        )
        assert str(table.get_cell(gid, app.screen._state_column)).startswith("in play")


def test_24_one_listing_finds_a_game_file_changed_added_or_removed(demo_folder) -> None:
    """Issue 24: the home list's summaries come from one listing of ``games/``, not a
    ``stat`` per question per game; a file touched, removed or added since the last
    call is found exactly as a game asked alone finds it (21: a game whose file
    changed is read and checked again, never shown from its old summary; one the
    manifest names with its file gone is damaged, never "scheduled")."""
    ids = _played_games(demo_folder, 3)
    t = open_tournament(demo_folder, startup_backup=False)
    try:
        every = [g["id"] for g in t.games()]

        def agrees() -> dict:
            listed = t.cached_game_summaries(every)
            assert listed == {gid: t.cached_game_summary(gid) for gid in every}
            return listed

        assert not t.trust.has_context  # the first frame: the memory of clean files
        agrees()
        for gid in ids:
            t.game_summary(gid)  # the context read, each file known clean
        assert t.trust.has_context
        assert all(agrees()[gid]["phase"] == "inspection" for gid in ids)

        touched, removed = Path(demo_folder / "games" / f"{ids[0]}.json"), ids[1]
        st = touched.stat()
        os.utime(touched, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
        moved = demo_folder / f"{removed}.json.away"
        (demo_folder / "games" / f"{removed}.json").rename(moved)
        now = agrees()
        assert now[ids[0]] is None  # changed: summarised again from a read of the file
        assert now[removed]["phase"] == "damaged"  # the manifest records its events
        assert now[ids[2]]["phase"] == "inspection"  # untouched: as before

        moved.rename(demo_folder / "games" / f"{removed}.json")  # back: found again
        assert agrees()[removed]["phase"] == "inspection"
        assert t.game_summary(ids[0])["phase"] == "inspection"
        assert agrees()[ids[0]]["phase"] == "inspection"
        t.index.save()
        t.save_checks()
    finally:
        t.close()
    t = open_tournament(demo_folder, startup_backup=False)  # the next start's first frame
    try:
        assert not t.trust.has_context
        assert all(agrees()[gid]["phase"] == "inspection" for gid in ids)
        st = touched.stat()
        os.utime(touched, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
        assert agrees()[ids[0]] is None  # not as the memory found it clean: read again
    finally:
        t.close()


async def test_24_a_game_file_changed_between_two_reloads_is_summarised_again(
    demo_folder, monkeypatch
) -> None:
    """Issue 24: a reload after a game's file changed on disk (its time here) reads and
    checks that file again before its state is shown (21), and only that one."""
    ids = _played_games(demo_folder, 3)
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        table = await _every_state_shown(app, pilot)
        await pilot.pause()
        t = app.tournament
        read: list[str] = []
        summary = t.game_summary

        def counting(game_id, *args, **kwargs):
            read.append(game_id)
            return summary(game_id, *args, **kwargs)

        monkeypatch.setattr(t, "game_summary", counting)
        path = demo_folder / "games" / f"{ids[1]}.json"
        st = path.stat()
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
        app.screen.reload_games()
        assert str(table.get_cell(ids[1], app.screen._state_column)) == "…"
        await _every_state_shown(app, pilot)
        assert read == [ids[1]]
        assert str(table.get_cell(ids[1], app.screen._state_column)).startswith("inspection")


@given(
    st.lists(
        st.text(alphabet="ab.-_1", min_size=0, max_size=6).filter(lambda p: p not in (".", "..")),
        min_size=1,
        max_size=4,
    ).filter(lambda parts: all(parts[:-1]) and parts[-1])
)
def test_24_a_log_files_kind_and_id_read_as_its_path_does(parts: list[str]) -> None:
    """Issue 24: the manifest head a game's file is checked against (21) is looked up by
    its folder and id taken from the relative path without making a path object: the
    same folder and id as ``PurePosixPath`` gives, for every path."""
    rel = "/".join(parts)
    path = PurePosixPath(rel)
    assert _kind_and_id(rel) == (path.parent.name, path.stem.split("--")[0])


async def test_24_the_states_on_screen_show_before_the_games_below_them_are_read(
    demo_folder, monkeypatch
) -> None:
    """Issue 24: a slice of the cold pass ends with the last game whose row is on screen,
    so those states are shown then, not after the games below the screen that the rest
    of the slice would read; and every row on screen is counted (the table's header is
    no game row), so none of them still shows "…" once they are shown."""
    _played_games(demo_folder, 40)  # more games than rows on a 40-line screen
    (demo_folder / ".cache" / "index.json").unlink(missing_ok=True)
    monkeypatch.setattr(home, "FILL_SLICE_S", 60.0)  # a slice would read every game
    seen: list[tuple[int, str]] = []  # (games still to read, the screen) at each slice
    summarise_slice = home.HomeScreen._summarise_slice

    def recording(screen, t, pending, *walk):
        seen.append((len(pending), screen_text(screen.app)))
        return summarise_slice(screen, t, pending, *walk)

    monkeypatch.setattr(home.HomeScreen, "_summarise_slice", recording)
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        await _every_state_shown(app, pilot)
    assert len(seen) >= 2, "every game read in one slice: the rows on screen waited for all"
    first_pending, _ = seen[0]
    left, shown = seen[1]  # the screen as the second slice starts: the first one's states
    assert 0 < left < first_pending
    rows = [ln for ln in shown.splitlines() if re.search(r"\d\d:\d\d\s+\d+\s", ln)]
    assert len(rows) >= 30
    assert not [ln for ln in rows if "…" in ln]


async def test_24_the_pass_a_reload_replaces_reads_no_rosters(demo_folder, monkeypatch) -> None:
    """Issue 24: the cold pass the check right after the first frame replaces (its reload
    starts a new one) never reads the schedule, rosters and settings: the pass reads them
    at its first slice, once for the start."""
    _played_games(demo_folder, 3)
    (demo_folder / ".cache" / "index.json").unlink(missing_ok=True)
    made: list[int] = []
    setups = home.Setups

    def counting(t, *args, **kwargs):
        made.append(1)
        return setups(t, *args, **kwargs)

    monkeypatch.setattr(home, "Setups", counting)
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        await _every_state_shown(app, pilot)
    assert len(made) == 1
