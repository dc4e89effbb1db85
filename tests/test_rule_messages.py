"""Rule messages (fieldjudge.rules.messages): every message of the tables (rules/texts.py)
renders in English and, from the catalog fieldjudge.po, in Russian, cites its section first, leaves
no placeholder; the game screen shows a refusal in the UI language with the team's name."""

from __future__ import annotations

import ast
import copy
import itertools
import pickle
import re
import string
from pathlib import Path

import pytest

import fieldjudge
from fieldjudge import i18n
from fieldjudge.app import make_app
from fieldjudge.i18n import rule_text
from fieldjudge.rules.marker_check import acceptance_item
from fieldjudge.rules.messages import (
    Measured,
    Phrase,
    Player,
    RuleMessage,
    Team,
    joined,
    phrase,
    phrases,
    rule,
    without_section,
)
from fieldjudge.rules.paintball import model as m
from fieldjudge.rules.texts import PHRASES, RULES
from fieldjudge.store import Refused
from tests.i18n_helpers import has
from tests.test_game_helpers import fake_clock, game_id, keys, open_game

NAMES = {"t1": "Волки", "t2": "Медведи"}

# sample values by parameter name; a list gives every variant
SAMPLES = {
    "section": "29.08",  # the section of a message that names it at run time
    "team": Team("t1"),
    "player": Player("t1", 7),
    "why": ["26", phrase("forbidden_mode")],
    "etype": "bogus",
    "left": ["0:20", 2],
    "reason": "bogus",
    "owner": Team("t2"),
    "holder": Player("t1", 3),
    "result": [phrase("status_clean"), phrase("status_hit_found")],
    "status": [phrase("status_eliminated"), phrase("status_not_admitted")],
    "interval": 80.0,
    "minimum": 95.0,
    "fps": 305.5,
    "limit": 300.0,
    "tail": [phrase("flagged"), Phrase("")],
    "error": "boom",
    "verdict": [
        rule("chrono_ok", fps=290.0),
        without_section(rule("chrono_group", fps=315.0, limit=310.0)),
    ],
    "note": "rain",
    "points": 3,
    "n": [1, 3, 5, 21],
    "m": 95.0,
    "t": 5.0,
    "d": Measured(120.04),
    "expected": phrase("points_few", n=3),
    "what": [phrase("for_flag_hang"), phrase("group_1_1"), phrase("check_neutral")],
    "given": 2,
    "a": Team("t1"),
    "sa": 4,
    "sb": 2,
    "b": Team("t2"),
    "clamp": 5,
    "out": Team("t1"),
    "present": Team("t2"),
    "diff": 5,
    "gap": Measured(94.0),
    "under": [Phrase(""), phrase("rof_under", m=95.0)],
    "near": [Phrase(""), phrase("rof_tolerance", t=5.0)],
    "also": [Phrase(""), phrase("rof_not_measured", n=3)],
    "problems": joined(
        [
            phrase("shots_after_release", n=2, limit=1),
            phrase("late_after_release", d="120", limit=100.0),
        ]
    ),
    "used": 141,
    "count": 6,
    "size": 5,
    "judge": "Петров",
    "laptop": 'ноутбук "Главный" (ab12-cd34-ef56-7890)',
    "guesses": "10⁶",
    "ended": "10:00",
    "allowed": "10:12",
    "seconds": 42,
    "dq": without_section(rule("chrono_disqualified", why=phrase("forbidden_mode"), minimum=95.0)),
    "spots": "левый рукав / left sleeve",
    "items": joined([acceptance_item("foreign_object"), acceptance_item("loose_parts")]),
}

#: every message of the tables: (id, builds it from its parameters)
MESSAGES = [(f"rule:{k}", k) for k in RULES] + [(f"phrase:{k}", k) for k in PHRASES]


def _fields(template: str) -> set[str]:
    return {f for _t, f, _s, _c in string.Formatter().parse(template) if f}


def _variants(key: str):
    kind, ident = key.split(":")
    section, template = (RULES if kind == "rule" else PHRASES)[ident]
    params = sorted(_fields(template))
    missing = [p for p in params if p not in SAMPLES]
    assert not missing, f"{key}: add samples for {missing}"
    pools = [v if isinstance(v, list) else [v] for v in (SAMPLES[p] for p in params)]
    for combo in itertools.product(*pools):
        kwargs = dict(zip(params, combo, strict=True))
        if kind == "phrase":
            yield phrase(ident, **kwargs)
        elif section is None:  # a section chosen at run time
            yield rule(ident, SAMPLES["section"], **kwargs)
        else:
            yield rule(ident, **kwargs)


def _words(template: str) -> str:
    return re.sub(r"\{[^}]*\}", "", template)


def test_the_tables_cover_every_engine():
    assert {"not_started", "chrono_ok", "slap_passed", "locked", "match_ended"} <= set(RULES)
    assert {"wrong_secret", "status_clean", "points_few", "for_draw"} <= set(PHRASES)
    assert len(RULES) + len(PHRASES) >= 180


@pytest.mark.parametrize("key", [k for k, _ in MESSAGES])
def test_every_message_renders_in_both_languages(key):
    for msg in _variants(key):
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
            assert has(catalog, part.en, part.context) or has(catalog, part.en), (key, part.en)
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


def _ids_in_code() -> tuple[set[str], set[str]]:
    """The ids the package builds: literal ``rule("id")`` / ``phrase("id")``, and the
    prefixes of ids made at run time (``phrase(f"status_{code}")``)."""
    ids, prefixes = set(), set()
    for f in Path(fieldjudge.__file__).parent.rglob("*.py"):
        for n in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if not (isinstance(n, ast.Call) and getattr(n.func, "id", "") in ("rule", "phrase")):
                continue
            first = n.args[0] if n.args else None
            for arg in [first.body, first.orelse] if isinstance(first, ast.IfExp) else [first]:
                if isinstance(arg, ast.Constant):
                    ids.add(arg.value)
                elif isinstance(arg, ast.JoinedStr) and isinstance(arg.values[0], ast.Constant):
                    prefixes.add(arg.values[0].value)
    return ids, prefixes


def test_every_id_the_code_names_is_in_the_tables_and_every_entry_is_used():
    ids, prefixes = _ids_in_code()
    assert ids - set(RULES) - set(PHRASES) == set()  # a typo fails here, not in a game
    unused = {k for k in [*RULES, *PHRASES] if k not in ids and not k.startswith(tuple(prefixes))}
    # no code says these any more; fieldjudge.po still files their Russian
    assert unused == {"carrier_over_limit"}
    with pytest.raises(ValueError, match="section"):
        rule("not_on_roster", player=Player("t1", 7))  # a run-time section must be given


def test_a_message_is_its_english_text_and_renders_team_names():
    msg = rule("neutral_player", player=Player("t1", 7))
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
    msg = rule("name_second", team=Team("t2"))
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
