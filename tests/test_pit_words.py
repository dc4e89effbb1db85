"""The pit's JSON (issue 25, item 5): each event comes with its line in Russian and English,
built by the services (the page's script only shows it), a chrono reading's line states what
it caused (20.02-20.05, the 1+1 partner of 29.08), a game whose signed protocol the head judge
voided back (31) is over, and two games in play on one field, or of one team, are a conflict
(RULES.md "One live game per field and per team")."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from pit_helpers import Play, field_laptop_copy, open_demo, start_on_field_laptop
from test_russian_codes import every_event_game, latin_words

from fieldjudge.rules import protocol as pr
from fieldjudge.rules.paintball import events as ev
from fieldjudge.services.demo import DEMO_PASSPHRASE
from fieldjudge.services.paintball import results as res
from fieldjudge.services.pitview import PitView

NOW = datetime(2026, 6, 1, 7, 42, tzinfo=UTC)


@pytest.fixture
def demo(tmp_path: Path):
    t = open_demo(tmp_path / "demo")
    yield t
    t.close()


def game_doc(t, game_id: str) -> dict:
    return next(g for g in PitView(t.folder, now=lambda: NOW).live()["games"] if g["id"] == game_id)


def test_25_every_event_of_the_pit_reads_russian_from_the_server(demo) -> None:
    gid = every_event_game(demo)
    events = next(
        g for g in PitView(demo.folder, last_events=500).live()["games"] if g["id"] == gid
    )["last_events"]
    types = {e["type"] for e in events}
    # the old paint was voided; a no-show and a game's end by the judge: other games
    assert ev.EVENT_TYPES - {ev.OLD_PAINT, ev.NO_SHOW, ev.GAME_END} <= types
    assert pr.PROTOCOL_TYPES <= types
    bad = {e["text"]["ru"]: latin_words(e["text"]["ru"]) for e in events}
    assert {k: v for k, v in bad.items() if v} == {}
    assert all(e["text"]["en"] and e["text"]["ru"] != e["text"]["en"] for e in events)
    ru = [e["text"]["ru"] for e in events]
    assert "Хронограф: #7 Евгений Кудрявцев (Тигры) — 20.02: 287 фпс, без штрафа" in ru
    assert "Проверка маркеров: #23 Ярослав Куликов (Тигры) — без маркера" in ru
    assert "Флаг передан: #11 Алексей Смирнов (Медведи) → #7 Иван Петров (Медведи)" in ru
    assert (
        "Решение по водружению: #7 Иван Петров (Медведи) — 23.03: водружение флага засчитано"
        " — 20.02: 287 фпс, без штрафа" in ru
    )


def test_20_04_a_chrono_reading_states_the_group_removal_it_caused(demo) -> None:
    p = Play(demo, start=datetime(2026, 6, 1, 7, 40, tzinfo=UTC))
    p.start()
    offender, partner = p.number(p.a, 1), p.number(p.a, 2)
    reading = {"forbidden_mode": False, "source": "typed"}
    p.add(
        "chrono_reading",
        {"team": p.a, "number": offender, "fps": 315.0, "second": partner} | reading,
    )
    p.add("chrono_reading", {"team": p.b, "number": p.number(p.b, 0), "fps": 305.0} | reading)
    p.add("chrono_reading", {"team": p.b, "number": p.number(p.b, 1), "fps": 285.0} | reading)
    lines = [e["text"] for e in game_doc(demo, p.game_id)["last_events"][:3]]
    assert [t["ru"] for t in lines] == [
        "Хронограф: #11 Константин Баранов (Тигры) — 20.02: 285 фпс, без штрафа",
        "Хронограф: #7 Евгений Кудрявцев (Тигры) — 20.03: 305 фпс — свыше 300 фпс: игрок удаляется",
        "Хронограф: #11 Алексей Смирнов (Медведи) — 20.04: 315 фпс — выше 310 фпс: групповое"
        " удаление 1+1 → также выбыл по 29.08: #23 Дмитрий Козлов (Медведи)",
    ]
    assert lines[2]["en"] == (
        "Chrono: #11 Алексей Смирнов (Медведи) — 20.04: 315 fps is over 310 fps: group removal"
        " 1+1 → also out under 29.08: #23 Дмитрий Козлов (Медведи)"
    )


def test_23_02_a_hang_not_counted_for_the_chrono_says_so_once(demo) -> None:
    p = Play(demo, start=datetime(2026, 6, 1, 7, 40, tzinfo=UTC))
    p.start()
    carrier = p.number(p.a, 1)
    p.add("flag_capture", {"team": p.a, "number": carrier})
    p.add("flag_hang", {"team": p.a, "number": carrier})
    p.add("hang_verdict", {"paint": "clean", "fps": 305.0, "forbidden_mode": False})
    line = game_doc(demo, p.game_id)["last_events"][0]["text"]["ru"]
    assert line == (
        "Решение по водружению: #11 Алексей Смирнов (Медведи) — 20.03: водружение флага не"
        " засчитано: 305 фпс — свыше 300 фпс: игрок удаляется"
    )


def test_31_a_signed_game_the_head_judge_voided_back_is_not_live(demo) -> None:
    """The void folds the game back to its post-game inspection (18.02); its protocol stays
    signed: it is over, not "Post-game inspection 0:00" among the games in play."""
    gid = demo.games()[0]["id"]
    target = next(e for e in res.game_view(demo, gid).events if e.type == "elimination")
    res.void_locked_event(demo, gid, target.id, "попадание в бункер", DEMO_PASSPHRASE)
    v = res.game_view(demo, gid)
    assert v.protocol.locked and v.state.phase == "inspection"
    live = PitView(demo.folder, now=lambda: NOW).live()
    assert gid not in live["live"]
    g = next(g for g in live["games"] if g["id"] == gid)
    assert g["state"] == "final" and g["result"]["counted"] is True


def test_one_live_game_per_field_two_games_in_play_on_field_1_are_marked(demo, tmp_path) -> None:
    """Two laptops, each with a copy not yet synced, start two games of field 1; when the
    copies meet, the pit marks both."""
    field = field_laptop_copy(demo)
    first = Play(demo, 4)  # 10:40 on field 1
    first.start()
    live = PitView(demo.folder, now=lambda: NOW).live()
    assert [g["conflict"] for g in live["games"] if g["id"] in live["live"]] == [None]
    # 11:20 on field 1, Медведи (in game 5 too) — Ястребы
    other = start_on_field_laptop(demo, field, tmp_path / "field-config", 8, NOW)
    live = PitView(demo.folder, now=lambda: NOW).live()
    assert live["live"] == [first.game_id, other]
    marks = {g["id"]: g["conflict"] for g in live["games"] if g["id"] in live["live"]}
    assert marks[first.game_id] == {
        "with": other,
        "text": {
            "ru": "КОНФЛИКТ: на поле 1 идут две игры (вторая: 11:20 Медведи — Ястребы)",
            "en": "CONFLICT: two games in play on field 1 (the other: 11:20 Медведи — Ястребы)",
        },
    }
    assert marks[other]["with"] == first.game_id
    assert marks[other]["text"]["ru"].startswith("КОНФЛИКТ: на поле 1 идут две игры")
    # a game over (its inspection, 18.02) beside a game in play is no conflict
    first.add("game_end", {"reason": "judge"})
    live = PitView(demo.folder, now=lambda: NOW).live()
    assert all(g["conflict"] is None for g in live["games"])


def test_one_live_game_per_team_a_team_in_two_games_is_marked(demo, tmp_path) -> None:
    field = field_laptop_copy(demo)
    second = Play(demo, 5)  # 10:40 on field 2: Драконы — Ястребы
    second.start()
    # 11:20 on field 1: Медведи — Ястребы, started by a laptop whose copy missed game 5
    other = start_on_field_laptop(demo, field, tmp_path / "field-config", 8, NOW)
    live = PitView(demo.folder, now=lambda: NOW).live()
    marks = {g["id"]: g["conflict"] for g in live["games"] if g["id"] in live["live"]}
    assert marks[second.game_id]["text"]["ru"] == (
        "КОНФЛИКТ: команда Ястребы играет сразу в двух играх (вторая: 11:20 Медведи — Ястребы)"
    )
    assert marks[other]["with"] == second.game_id
