"""31: the head judge voids an event of a signed (locked) protocol — with his secret (signed
with his key) and a reason; refused without it citing the section; the protocol stays
locked, the result and the standings follow the game without the event, the printed
protocol shows the void as his correction; ``verify`` flags a post-lock void without his
signature and a merge refuses it."""

from __future__ import annotations

import shutil
from pathlib import Path

import orjson
import pytest
from fakes import verify_folder
from results_fixtures import demo, finished_game

from fieldjudge.i18n import rule_text
from fieldjudge.rules import protocol as pr
from fieldjudge.rules.events import VOID, compute_hash
from fieldjudge.services import HeadJudge
from fieldjudge.services.demo import DEMO_PASSPHRASE
from fieldjudge.services.paintball import results as res
from fieldjudge.services.paintball.protocol_doc import struck_lines
from fieldjudge.services.sync.merge import merge_into
from fieldjudge.services.trust.signing import signed_message
from fieldjudge.store import Refused, bundle
from fieldjudge.store.keys import LaptopKeys

NEEDS_SECRET = r"^31: only the head judge voids an event of a signed protocol, with his secret"


@pytest.fixture
def svc(tmp_path: Path):
    t = demo(tmp_path / "t", lock=True)
    yield t
    t.close()


def locked_game(t) -> tuple[str, str]:
    """The first demo game (signed by both captains) and its elimination of team B's #42
    (event #5 of the demo's log)."""
    gid = t.games()[0]["id"]
    v = res.game_view(t, gid)
    assert v.protocol.locked
    target = next(e for e in v.events if e.seq == 5)
    assert target.type == "elimination"
    assert target.data["players"] == [{"team": v.teams[1], "number": 42}]
    return gid, target.id


def test_31_void_of_a_locked_event_without_the_secret_is_refused(svc) -> None:
    gid, target = locked_game(svc)
    before = svc.game_path(gid).read_bytes()
    for secret in ("", "9999", "wrong secret"):
        with pytest.raises(Refused, match=NEEDS_SECRET):
            res.void_locked_event(svc, gid, target, "the hit was on the bunker", secret)
    data = {"target": target, "reason": "forged", "after_lock": True, "head_judge": "x"}
    for grant in (None, HeadJudge("forged")):
        with pytest.raises(Refused, match=NEEDS_SECRET):
            svc.append_game_event(gid, VOID, data, head_judge=grant)
    with pytest.raises(Refused) as refused:
        res.void_locked_event(svc, gid, target, "bunker", "")
    assert rule_text(refused.value, lang="ru").startswith(
        "31: отменить событие подписанного протокола может только Главный судья, введя свой секрет"
    )
    # an ordinary void (no head judge) stays refused by the lock
    with pytest.raises(Refused, match=r"^31: the protocol is signed by both captains"):
        svc.append_game_event(gid, VOID, {"target": target, "reason": "forged"})
    assert svc.game_path(gid).read_bytes() == before


def test_31_head_judge_voids_a_locked_event_result_and_standings_follow(svc) -> None:
    gid, target = locked_game(svc)
    v0 = res.game_view(svc, gid)
    a, b = v0.teams
    assert (dict(v0.result.diff), dict(v0.result.survivors)) == ({a: 2, b: -2}, {a: 4, b: 2})
    rows0 = {r.team: r for rows in res.standings_by_division(svc).values() for r in rows}
    ended = svc.game_summary(gid)["ended_at"]
    event = res.void_locked_event(
        svc, gid, target, "the hit was on the bunker", DEMO_PASSPHRASE, judge="Senior"
    )
    assert event.hj_sig and event.data["after_lock"] is True
    assert event.data["head_judge"] == svc.meta["head_judge"]
    v = res.game_view(svc, gid)
    assert v.protocol.locked and v.phase == pr.LOCKED  # a correction, not a new protocol
    assert [(x.target_id, x.reason) for x in v.protocol.voids] == [
        (target, "the hit was on the bunker")
    ]
    assert dict(v.result.points) == {a: 3, b: 0}  # still a flag hang (30.01)
    assert (dict(v.result.diff), dict(v.result.survivors)) == ({a: 1, b: -1}, {a: 4, b: 3})
    notes = [rule_text(n) for n in v.result.notes]
    assert (
        f"31: event voided by the head judge {svc.meta['head_judge']} after the signatures: "
        "the hit was on the bunker"
    ) in notes
    struck = struck_lines(v, lambda s: s)
    assert [(s.old, s.new) for s in struck] == [
        ("event #5, " + _clock(v, target), "voided by the head judge")
    ]
    assert struck[0].why.startswith(f"{svc.meta['head_judge']}, ")
    assert struck[0].why.endswith(": the hit was on the bunker")
    # the printed protocol (Russian by default) shows it with the reason
    from fieldjudge.export.html import protocol_html

    page = protocol_html(svc, v, "ru")
    assert "событие #5" in page and "→ отменено" in page
    assert f"отменено Главным судьёй <i>({svc.meta['head_judge']}, " in page
    assert "the hit was on the bunker" in page
    assert "voided by the head judge" in protocol_html(svc, v, "en")
    # the summary (home screen, standings) follows
    assert svc.game_summary(gid)["result"]["diff"] == {a: 1, b: -1}
    assert svc.game_summary(gid)["ended_at"] == ended  # 32.03: the game ended when it did
    rows = {r.team: r for rows in res.standings_by_division(svc).values() for r in rows}
    assert rows[a].diff == rows0[a].diff - 1 and rows[b].diff == rows0[b].diff + 1
    assert all(f == [] for f in verify_folder(svc.folder).values()), verify_folder(svc.folder)
    # the same event cannot be voided twice; the void itself cannot be voided after the lock
    for tid in (target, event.id):
        with pytest.raises(Refused, match=r"^31: after the signatures the head judge voids"):
            res.void_locked_event(svc, gid, tid, "again", DEMO_PASSPHRASE)


def _clock(v, target_id: str) -> str:
    from fieldjudge.rules.timefmt import format_game_clock

    e = next(e for e in v.events if e.id == target_id)
    return format_game_clock(e.game_clock_ms)


def test_31_what_the_head_judge_may_not_void_after_the_lock(svc, tmp_path) -> None:
    gid, target = locked_game(svc)
    v = res.game_view(svc, gid)
    by_type = {e.type: e.id for e in v.events}
    before = svc.game_path(gid).read_bytes()
    for etype in (pr.CAPTAIN_SIGNED, pr.PROTOCOL_SUBMITTED):  # a protocol step
        with pytest.raises(Refused, match=r"^31: after the signatures the head judge voids"):
            res.void_locked_event(svc, gid, by_type[etype], "why", DEMO_PASSPHRASE)
    for etype in ("clock_start", "flag_hang"):  # the game would not be over any more
        with pytest.raises(Refused, match=r"^31: without this event the game would not be"):
            res.void_locked_event(svc, gid, by_type[etype], "why", DEMO_PASSPHRASE)
    with pytest.raises(Refused, match=r"^31: voiding an event of a signed protocol needs"):
        res.void_locked_event(svc, gid, target, "  ", DEMO_PASSPHRASE)
    assert svc.game_path(gid).read_bytes() == before
    listed = [e.seq for e in res.locked_void_targets(svc, v)]
    assert 5 in listed and not {3, 9, 17, 18, 19} & set(listed)
    # a game not signed yet: void it in the game
    open_gid = finished_game(svc)
    e = res.game_view(svc, open_gid).events[-1]
    with pytest.raises(Refused, match=r"^31: the protocol is not signed by both captains"):
        res.void_locked_event(svc, open_gid, e.id, "why", DEMO_PASSPHRASE)
    assert res.locked_void_targets(svc, res.game_view(svc, open_gid)) == []


def test_31_a_void_after_a_total_correction_supersedes_it(svc) -> None:
    gid, target = locked_game(svc)
    a, b = res.game_view(svc, gid).teams
    res.correct_total(
        svc, gid, DEMO_PASSPHRASE, {a: 2, b: 0}, "miscounted", confirmed_against_rules=True
    )
    assert dict(res.game_view(svc, gid).result.points) == {a: 2, b: 0}
    res.void_locked_event(svc, gid, target, "bunker hit", DEMO_PASSPHRASE)
    v = res.game_view(svc, gid)
    assert dict(v.result.points) == {a: 3, b: 0} and dict(v.result.diff) == {a: 1, b: -1}
    res.correct_total(
        svc, gid, DEMO_PASSPHRASE, {a: 2, b: 0}, "miscounted again", confirmed_against_rules=True
    )
    assert dict(res.game_view(svc, gid).result.points) == {a: 2, b: 0}


def _forged_copy(svc, tmp_path: Path, gid: str, data: dict) -> Path:
    """A copy of the folder whose game log ends with a void appended by a script: hashes
    chained, signed with this laptop's key, without the head judge's signature."""
    other = tmp_path / "other"
    shutil.copytree(svc.folder, other, ignore=shutil.ignore_patterns(".cache"))
    path = other / "games" / f"{gid}.json"
    doc = bundle.read_log_file(path)
    last = doc["events"][-1]
    ev = {
        "id": "f" * 32,
        "seq": last["seq"] + 1,
        "type": VOID,
        "game_clock_ms": None,
        "wall_time": last["wall_time"],
        "judge": "forger",
        "data": data,
        "prev_hash": last["hash"],
    }
    ev["hash"] = compute_hash(ev)
    keys = LaptopKeys.load_or_create()
    ev["sig"] = keys.sign(signed_message("event", ev["hash"]))
    ev["signer"] = keys.laptop_id
    path.write_bytes(orjson.dumps(bundle.doc_to_log({**doc, "events": [*doc["events"], ev]})))
    return other


@pytest.mark.parametrize("marked", [True, False])
def test_31_a_post_lock_void_without_his_signature_is_flagged_and_not_merged(
    svc, tmp_path, marked
) -> None:
    gid, target = locked_game(svc)
    data = {"target": target, "reason": "forged", "target_type": "elimination"}
    if marked:
        data |= {"after_lock": True, "head_judge": "nobody"}
    other = _forged_copy(svc, tmp_path, gid, data)
    n = len(svc.game_log(gid).events) + 1
    faults = verify_folder(other)[f"games/{gid}.json"]
    label = f'laptop "{svc.keys.name}" ({svc.keys.fingerprint})'
    expected = (
        f"event #{n} (void, {label}): a head-judge action without the head judge's signature"
        if marked
        else f"event #{n} (void): {pr.LOCKED_MESSAGE}"
    )
    assert expected in faults, faults
    before = svc.game_path(gid).read_bytes()
    report = merge_into(svc, other)
    assert svc.game_path(gid).read_bytes() == before
    errs = [e for e in report.errors if e.startswith(f"games/{gid}:")]
    assert len(errs) == 1 and errs[0].startswith(f"games/{gid}: not merged: event #{n} (void")


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_31_protocol_screen_v_voids_a_locked_event_with_the_secret(tmp_path, lang) -> None:
    from test_results_screens import open_protocol, type_form, wait_for

    from fieldjudge.app import make_app
    from fieldjudge.i18n import _, set_language
    from fieldjudge.screens.dialogs.forms import FormScreen

    folder = tmp_path / "data" / "cup"
    t = demo(folder, lock=True)
    gid, target = locked_game(t)
    t.close()
    app = make_app(tmp_path / "data", folder, lang=lang)
    try:
        async with app.run_test(size=(110, 40)) as pilot:
            await open_protocol(pilot, app, 0)
            screen = app.screen
            body = screen.query_one("#protocol-body")
            assert _("Events the head judge may void (v)") in str(body.render())
            # 31: the list numbers events as every void line does (ru «№5», en «#5»)
            mark = {"en": "#5  ", "ru": "№5  "}[lang]
            assert f"  {mark}" in str(body.render())
            log = app.tournament.game_log(gid)
            n = len(log.events)
            await pilot.press("v")
            await wait_for(pilot, lambda: isinstance(app.screen, FormScreen))
            await type_form(pilot, "7", "bunker hit", "not-his-secret")
            msg = screen.query_one("#protocol-message")
            await wait_for(pilot, lambda: str(msg.render()).startswith("31: "), 1000)
            assert len(log.events) == n
            await wait_for(pilot, lambda: isinstance(app.screen, FormScreen), 1000)
            assert app.screen.values() == {"event": "7", "reason": "bunker hit", "pin": ""}
            await pilot.press("ctrl+u", "5", "enter", "enter")  # event #5 instead of #7
            await type_form(pilot, DEMO_PASSPHRASE)
            await wait_for(pilot, lambda: len(log.events) == n + 1, 1000)
            assert log.events[-1].data["target"] == target
            assert log.events[-1].data["reason"] == "bunker hit"
            await wait_for(pilot, lambda: app.screen is screen, 1000)
            text = str(body.render())
            assert f"{_('voided by the head judge')} ({app.tournament.meta['head_judge']}, " in text
            assert "bunker hit" in text
            assert res.game_view(app.tournament, gid).protocol.locked
    finally:
        set_language("en")
