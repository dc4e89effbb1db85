"""Rule messages (fieldjudge.rules.messages): every constructor renders in English and, from
the catalog rules.po, in Russian, cites its section first, leaves no placeholder; the game
screen shows a refusal in the UI language with the team's name."""

from __future__ import annotations

import copy
import inspect
import itertools
import pickle
import re
import string

import pytest

from fieldjudge import i18n
from fieldjudge.app import make_app
from fieldjudge.i18n import rule_text
from fieldjudge.rules import marker_texts as mt
from fieldjudge.rules import protocol_texts as pt  # registers its constructors
from fieldjudge.rules.messages import CATALOG, Phrase, Player, RuleMessage, Team, phrases
from fieldjudge.rules.paintball import model as m
from fieldjudge.rules.paintball import notes as nt
from fieldjudge.rules.paintball import refusals, refusals_actions  # noqa: F401
from fieldjudge.rules.quidditch import texts as quidditch_texts  # noqa: F401
from fieldjudge.store import Refused
from tests.test_game_helpers import fake_clock, game_id, keys, open_game

NAMES = {"t1": "Волки", "t2": "Медведи"}

# sample values by parameter name; a list gives every variant
SAMPLES = {
    "section": "29.08",
    "team": "t1",
    "number": 7,
    "player": Player("t1", 7),
    "why": "26",
    "etype": "bogus",
    "left": ["0:20", 2],
    "reason": "bogus",
    "kind": ["paint", "neutral"],
    "owner": "t2",
    "holder": Player("t1", 3),
    "result": ["clean", "hit_found", "did_not_report"],
    "status": ["eliminated", "not_admitted"],
    "interval": 80.0,
    "minimum": 95.0,
    "fps": 305.5,
    "limit": 300.0,
    "flagged": [True, False],
    "group": [True, False],
    "error": "boom",
    "verdict": nt.chrono_ok(290.0),
    "note": "rain",
    "points": 3,
    "n": [1, 3, 5, 21],
    "expected": 3,
    "what": pt.for_flag_hang(),
    "given": 2,
    "a": "t1",
    "sa": 4,
    "sb": 2,
    "b": "t2",
    "clamp": 5,
    "out": "t1",
    "present": "t2",
    "diff": 5,
    "gap": 94.0,
    "ok": [True, False],
    "tolerance": [None, 5.0],
    "unknown": [0, 3],  # intervals not measured (RULES.md "Timing a string of shots")
    "shots": 2,
    "delay": 120.0,
    "problems": (mt.shots_after_release(2, 1), mt.late_after_release(120.0, 100.0)),
    "used": 141,
    "count": 6,
    "size": 5,
    "judge": "Петров",
    "laptop": 'ноутбук "Главный" (ab12-cd34-ef56-7890)',
    "guesses": "10⁶",
    "ended": "10:00",
    "allowed": "10:12",
    "seconds": 42,
    "dq": nt.chrono_disqualified(nt.forbidden_mode(), 95.0),
    "spots": "левый рукав / left sleeve",
    "key": ["foreign_object", "loose_parts", "toolless_adjuster"],
    "items": (mt.acceptance_item("foreign_object"), mt.acceptance_item("loose_parts")),
}


def _variants(fn):
    params = list(inspect.signature(fn).parameters)
    missing = [p for p in params if p not in SAMPLES]
    assert not missing, f"{fn.__name__}: add samples for {missing}"
    pools = [v if isinstance(v, list) else [v] for v in (SAMPLES[p] for p in params)]
    for combo in itertools.product(*pools):
        yield dict(zip(params, combo, strict=True))


def _fields(template: str) -> set[str]:
    return {f for _t, f, _s, _c in string.Formatter().parse(template) if f}


def _words(template: str) -> str:
    return re.sub(r"\{[^}]*\}", "", template)


def test_the_catalog_covers_every_engine():
    modules = {key.split(".")[0] for key in CATALOG}
    assert {"refusals", "refusals_actions", "notes", "marker_texts", "protocol_texts"} <= modules
    assert "texts" in modules  # quidditch
    assert len(CATALOG) >= 90


@pytest.mark.parametrize("key", sorted(CATALOG))
def test_every_message_renders_in_both_languages(key):
    fn = CATALOG[key]
    for kwargs in _variants(fn):
        msg = fn(**kwargs)
        assert isinstance(msg, Phrase) and isinstance(msg, str)
        en, ru = rule_text(msg, lang="en"), rule_text(msg, NAMES, lang="ru")
        assert str(msg) == en == msg.render()  # the str value is the English text
        for text in (en, ru):
            assert "{" not in text and "}" not in text, text
        catalog = i18n.load("ru")
        for part in phrases(msg):  # the message and every phrase inside it
            if not re.search("[A-Za-z]", _words(part.en)):
                continue  # "{player}: {verdict}": no words to translate
            # its Russian comes from the catalog, not the English fallback
            assert catalog.has(part.en, part.context) or catalog.has(part.en), (key, part.en)
            ru_template = part.template(i18n.translator("ru"))
            assert _fields(part.en) == _fields(ru_template), key
            assert re.search("[А-Яа-яЁё]", _words(ru_template)), f"{key}: no Russian text"
        if isinstance(msg, RuleMessage) and msg.section:
            # paintball "20.04"; quidditch "5.1", "11.7", "0"
            assert re.fullmatch(r"\d{2}(\.\d{2})?|\d{1,2}(\.\d)?", msg.section)
            assert en.startswith(msg.section + ": ") and ru.startswith(msg.section + ": ")
        teams_in = any(isinstance(v, Team | Player) for v in msg.params.values())
        if teams_in:
            assert "t1" not in ru and "t2" not in ru, ru  # names replace the ids


def test_a_message_is_its_english_text_and_renders_team_names():
    msg = refusals.neutral_player(Player("t1", 7))
    assert msg.startswith("25.03: t1 #7 is neutral")
    assert msg == "25.03: t1 #7 is neutral and cannot be eliminated or act until the check ends"
    assert msg.section == "25.03" and msg.params["player"] == "t1 #7"
    ru = rule_text(msg, NAMES, lang="ru")
    assert ru.startswith("25.03: Волки #7 объявлен нейтральным")
    assert rule_text(msg, NAMES, lang="en").startswith("25.03: Волки #7 is neutral")
    for twin in (pickle.loads(pickle.dumps(msg)), copy.deepcopy(msg)):
        assert twin == msg and rule_text(twin, NAMES, lang="ru") == ru
        assert twin.section == twin.context == "25.03" and twin.params == msg.params


def test_rule_text_uses_the_ui_language_and_takes_refusals():
    msg = refusals.name_second("t2")
    i18n.set_language("ru")
    try:
        assert rule_text(msg, NAMES) == (
            "29.08: групповое удаление 1+1: назовите второго игрока команды «Медведи»"
        )
        assert rule_text(Refused(msg), NAMES) == rule_text(msg, NAMES)
        assert rule_text("plain text") == "plain text"
        assert rule_text(Refused("plain")) == "plain"
        assert rule_text(msg, NAMES, lang="en").startswith("29.08: group removal 1+1")
    finally:
        i18n.set_language("en")
    assert rule_text(msg) == str(msg)


def test_engine_results_carry_both_languages(tournament):
    from fieldjudge.rules.marker_check import check_marker
    from fieldjudge.rules.paintball.chrono import chrono_verdict
    from fieldjudge.rules.paintball.setup import Settings

    cv = chrono_verdict(Settings(), 315.0)
    assert cv.text == "20.04: 315 fps is over 310 fps: group removal 1+1"
    assert rule_text(cv.text, lang="ru") == "20.04: 315 фпс — выше 310 фпс: групповое удаление 1+1"
    check = check_marker([(301.0, 0.0)], slap_fired=False, release_t=None)
    assert rule_text(check.reasons[0], lang="ru") == "19.05: скорость 301 фпс выше 300 фпс"


async def test_russian_ui_refuses_eliminating_a_neutral_player_in_russian(demo_folder, monkeypatch):
    clock = fake_clock(monkeypatch)
    gid = game_id(demo_folder)
    app = make_app(demo_folder.parent, demo_folder, lang="ru", judge="Судья")
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_game(app, pilot, gid)
        _a, b = screen.session.teams
        name = screen.session.team_name(b)
        assert name != b
        await keys(pilot, "space")
        clock.advance(5_000)
        await keys(pilot, "n b 1 1")  # 25: #11 of team B declared neutral
        assert screen.session.state.player(b, 11).status == m.NEUTRAL
        await keys(pilot, "b 1 1")  # eliminate him: refused (25.03)
        error = screen.prompt.current.error
        assert error.startswith("⚠ 25.03: ")
        assert f"{name} #11 объявлен нейтральным" in error
        assert f"{b} #" not in error and "neutral" not in error
        shown = str(screen.query_one("#prompt-error").render())
        assert "25.03" in shown and "нейтральным" in shown
        assert screen.session.state.player(b, 11).status == m.NEUTRAL


def test_html_protocol_renders_engine_notes_in_its_language(tournament):
    from fakes import FakeClock

    from fieldjudge.export.html import protocol_html
    from fieldjudge.services.paintball import results
    from fieldjudge.services.paintball.game import GameSession
    from tests.test_game_helpers import T0

    gid = tournament.games()[4]["id"]
    s = GameSession(tournament, gid, clock=FakeClock(T0))
    a, b = s.teams
    s.append("clock_start", {})
    s.append("chrono_reading", {"team": a, "number": 42, "fps": 305})
    mate = next(p.number for p in s.state.team_players(b) if p.number != 11 and p.unhit)
    forbidden = {"team": b, "number": 11, "fps": 280, "forbidden_mode": True, "second": mate}
    s.append("chrono_reading", forbidden)  # 20.05: team penalty from the catalogue (1+1)
    v = results.game_view(tournament, gid)
    ru, en = protocol_html(tournament, v), protocol_html(tournament, v, lang="en")
    assert "20.03: 305 фпс — свыше 300 фпс: игрок удаляется" in ru
    assert "20.03: 305 fps is over 300 fps: player removed" in en
    assert f"команда «{s.team_name(b)}»: 20.05: запрещённый режим стрельбы" in ru
    assert f"team {s.team_name(b)}: 20.05: forbidden mode" in en
