"""The non-UI quidditch match session: seed, fold, rounds, void and redo, exports, verify.
(The rules themselves are tested in test_quidditch_rules / _api / _stats.)"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from fieldjudge.cli import main
from fieldjudge.rules.dice import seed_commitment
from fieldjudge.rules.quidditch.declarations import Declaration as D
from fieldjudge.rules.quidditch.sample import sample_setup
from fieldjudge.services import create_tournament, open_tournament
from fieldjudge.services.quidditch import (
    MATCH_CREATED,
    ROUND_RESOLVED,
    QuidditchSession,
    SessionError,
    build_setup,
    default_rows,
    parse_roster_csv,
    verify_export,
)

SEED = "honest-seed"
ROUND1 = [
    D("g_c1", "catch_throw_up", post_order=1),
    D("s_c1", "catch_throw_up", post_order=2),
    D("g_s", "search"),
    D("s_s", "search"),
]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    f = tmp_path / "data" / "quidditch"
    create_tournament(f, name="Q", day=date(2026, 6, 1)).close()
    return f


@pytest.fixture
def t(folder: Path):
    tour = open_tournament(folder, startup_backup=False)
    yield tour
    tour.close()


def test_new_match_stores_seed_and_publishes_its_hash(t) -> None:
    s = QuidditchSession.create(t, sample_setup("m1", client_seed="forum"))
    ev = s.log.events[0]
    assert ev.type == MATCH_CREATED
    assert len(ev.data["server_seed"]) == 64  # secrets.token_hex(32)
    assert s.seed_hash == seed_commitment(ev.data["server_seed"]) == ev.data["seed_hash"]
    assert s.setup.client_seed == "forum"
    with pytest.raises(SessionError, match="already exists"):
        QuidditchSession.create(t, sample_setup("m1"))


def test_round_is_stored_posted_and_the_match_reopens(folder: Path, t) -> None:
    s = QuidditchSession.create(t, sample_setup("m1"), server_seed=SEED)
    res = s.resolve(ROUND1)
    assert res.path == folder / "quidditch" / "m1" / "round-1.txt"
    assert res.path.read_text(encoding="utf-8").startswith("Круг 1. Счёт: Гриффиндор 0 : 0")
    assert "броски №1–" in res.post
    ev = s.log.events[-1]
    assert ev.type == ROUND_RESOLVED and ev.data["first_roll"] == 1
    assert [d["player"] for d in ev.data["declarations"]] == [d.player for d in ROUND1]
    t.close()
    again = open_tournament(folder, startup_backup=False)
    try:
        s2 = QuidditchSession.open(again, "m1")
        st = s2.state
        assert st.round_no == 2 and st.next_roll_n == res.result.state.next_roll_n
        assert st.to_dict() == res.result.state.to_dict()
        assert [(e.data["round_no"], e.data["post"]) for e in s2.effective_rounds()] == [
            (1, res.post)
        ]
    finally:
        again.close()


def test_void_keeps_rolls_used_and_the_redo_says_so(t) -> None:
    s = QuidditchSession.create(t, sample_setup("m1"), server_seed=SEED)
    first = s.resolve(ROUND1)
    used = [r.n for r in first.result.rolls]
    s.void_last_round("перепутан пас")
    assert s.state.round_no == 1 and s.state.next_roll_n == used[-1] + 1
    assert s.post_path(1).read_text(encoding="utf-8").startswith("[АННУЛИРОВАН: перепутан пас]")
    redo = s.resolve(ROUND1)
    assert redo.result.round_no == 1
    assert redo.result.rolls[0].n == used[-1] + 1  # fresh numbers, never the voided ones
    assert f"броски №{used[0]}–{used[-1]} (причина: перепутан пас)" in redo.post
    assert "повторно не используются" in redo.post.splitlines()[-1]
    assert s.post_path(1).read_text(encoding="utf-8") == redo.post + "\n"
    # only the last round, and not past a later round
    s.resolve([D("g_c1", "none")])
    s.void_last_round("ошибка")
    assert s.can_void() == "a later round was already resolved"
    with pytest.raises(SessionError):
        s.void_last_round("ещё раз")
    other = QuidditchSession.create(t, sample_setup("m2"))
    with pytest.raises(SessionError, match="no round"):
        other.void_last_round("ошибка")
    other.resolve(ROUND1)
    with pytest.raises(SessionError, match="reason"):
        other.void_last_round(" ")


def test_export_verifies_and_catches_a_changed_roll(t) -> None:
    s = QuidditchSession.create(t, sample_setup("m1"), server_seed=SEED)
    s.resolve(ROUND1)
    s.void_last_round("ошибка")
    s.resolve(ROUND1)
    s.resolve([D("g_c1", "pass", target="g_c2", zone="centre"), D("g_c2", "none", zone="centre")])
    data = orjson.loads(orjson.dumps(s.export_dict()))
    assert SEED not in orjson.dumps(data).decode()  # the seed is never exported
    assert [r["voided"] for r in data["rounds"]] == [True, False, False]
    assert verify_export(data, SEED) == []
    assert verify_export(data, "other") == ["the seed does not match the published hash"]
    bad = orjson.loads(orjson.dumps(data))
    r = bad["rounds"][1]["rolls"][0]
    r["value"] = r["value"] % 100 + 1
    problems = verify_export(bad, SEED)
    assert any("value differs" in p for p in problems)
    reused = orjson.loads(orjson.dumps(data))
    reused["rounds"][1]["rolls"][0]["n"] = 1
    assert any("used twice" in p for p in verify_export(reused, SEED))
    text = s.export_text()
    assert "[Круг 1 аннулирован (ошибка)" in text and "Круг 2. Счёт" in text
    j, p = s.write_exports()
    j2, _p2 = s.write_exports()
    assert j.name == "export.json" and j2.name == "export-2.json" and p.exists()


def test_cli_verify(tmp_path: Path, t) -> None:
    s = QuidditchSession.create(t, sample_setup("m1", client_seed="c"), server_seed=SEED)
    s.resolve(ROUND1)
    good = tmp_path / "good.json"
    good.write_bytes(orjson.dumps(s.export_dict()))
    runner = CliRunner()
    ok = runner.invoke(main, ["quidditch", "verify", str(good), "--seed", SEED])
    assert ok.exit_code == 0, ok.output
    assert "OK: match m1" in ok.output
    data = orjson.loads(good.read_bytes())
    data["rounds"][0]["rolls"][-1]["value"] = data["rounds"][0]["rolls"][-1]["value"] % 100 + 1
    bad = tmp_path / "bad.json"
    bad.write_bytes(orjson.dumps(data))
    res = runner.invoke(main, ["quidditch", "verify", str(bad), "--seed", SEED])
    assert res.exit_code == 1 and "value differs" in res.output
    missing = runner.invoke(main, ["quidditch", "verify", str(tmp_path / "no.json"), "--seed", "x"])
    assert missing.exit_code == 1 and "Traceback" not in missing.output
    (tmp_path / "junk.json").write_text("{not json")
    junk = runner.invoke(main, ["quidditch", "verify", str(tmp_path / "junk.json"), "--seed", "x"])
    assert junk.exit_code == 1 and "not JSON" in junk.output


def test_roster_csv_and_setup() -> None:
    csv_text = "team;name;position;matches;practices\n" + "\n".join(
        f"{r.team};{r.name};{pos};2;3"
        for r, pos in zip(
            default_rows("Орлы", "Совы"),
            ["охотник"] * 3
            + ["beater"] * 2
            + ["вратарь", "ловец"]
            + ["chaser"] * 3
            + ["защитник"] * 2
            + ["keeper", "seeker"],
            strict=True,
        )
    )
    rows, errors = parse_roster_csv(csv_text)
    assert errors == [] and len(rows) == 14 and rows[0].matches == 2
    setup = build_setup("Финал кубка", rows, initials={"Орлы": "О", "Совы": "С"})
    assert setup.match_id == "Финал-кубка" and setup.teams[0].short == "О"
    assert len(setup.of_team("a", "chaser")) == 3
    _r, errs = parse_roster_csv("A,x,goalie,1,1\nA,y,chaser,one,2\n")
    assert "unknown position" in errs[0] and "whole numbers" in errs[1]
    _r, errs = parse_roster_csv("A,x,chaser\nB,y,chaser\n")
    assert errs and "a team has 3 chasers" in errs[0]
    with pytest.raises(SessionError, match="different initials"):
        build_setup("m", default_rows("Орлы", "Осы"))


def test_session_messages_in_russian(t) -> None:
    """Refusals and errors reach the screens in the UI language; the post stays as it was."""
    from fieldjudge import i18n

    i18n.set_language("ru")
    _r, errs = parse_roster_csv("A,x,goalie,1,1\nA,y,chaser,one,2\nA,z\n")
    assert errs == [
        "строка 1: неизвестная позиция 'goalie'",
        "строка 2: матчи и тренировки должны быть целыми числами",
        "строка 3: нужны столбцы team,name,position,matches,practices"
        " (команда, имя, позиция, матчи, тренировки)",
    ]
    _r, errs = parse_roster_csv("A,x,chaser\nB,y,chaser\n")
    assert errs[0].startswith("команда A: охотники: 1, защитники: 0, вратари: 0, ловцы: 0;")
    with pytest.raises(SessionError, match="^матчу нужно имя$"):
        build_setup(" ", default_rows())
    s = QuidditchSession.create(t, sample_setup("m"), server_seed=SEED)
    with pytest.raises(SessionError, match="^матч с именем m уже есть$"):
        QuidditchSession.create(t, sample_setup("m"))
    with pytest.raises(SessionError, match="^матча nope нет$"):
        QuidditchSession.open(t, "nope")
    assert s.can_void() == "нет круга для аннулирования"
    res = s.resolve(ROUND1)
    assert res.post.startswith("Круг 1. Счёт:")
    with pytest.raises(SessionError, match="^для исправления нужна причина$"):
        s.void_last_round(" ")
