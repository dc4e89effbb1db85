"""Merging two laptops' tournament files both ways (results-integrity issue, item 5):
every team, player, game and setting is merged or listed as a conflict for the head judge
(matched by name and id, never duplicated, never dropped); a game at a taken field and time
is refused with the reason; the report lists every change."""

from __future__ import annotations

import shutil
from datetime import date, datetime
from pathlib import Path

import orjson
import pytest
from fakes import verify_folder

from fieldjudge.services import open_tournament
from fieldjudge.services.demo import create_demo
from fieldjudge.services.sync.merge import merge_into
from fieldjudge.services.trust.head_judge import DEMO_PASSPHRASE, ScryptParams
from fieldjudge.store import Refused
from fieldjudge.store.storage import load_json_file

FAST = ScryptParams(n=2**10)
DAY = date(2026, 5, 16)


def two_laptops(tmp_path: Path) -> tuple[Path, Path, Path, Path]:
    """Laptop A (the head judge's) made the tournament; laptop B got a copy of it."""
    cfg_a, cfg_b = tmp_path / "cfg-a", tmp_path / "cfg-b"
    a = tmp_path / "a" / "cup"
    create_demo(a, day=DAY, kdf=FAST).close()
    # A's config made the key; the demo used the default config folder of the test
    b = tmp_path / "b" / "cup"
    shutil.copytree(a, b, ignore=shutil.ignore_patterns(".cache"))
    return a, b, cfg_a, cfg_b


def edit_a(folder: Path, cfg: Path) -> None:
    t = open_tournament(folder, startup_backup=False, config_dir=cfg)
    try:
        # his key signs this laptop's tournament changes, and this laptop writes the file
        t.claim_head_laptop(DEMO_PASSPHRASE)
        lynx = t.add_team("Рыси-2")
        t.add_player(lynx["id"], 5, "Анна Лисина", captain=True)
        teams = t.teams()
        t.add_games(
            [
                {
                    "field": "3",
                    "start": datetime(2026, 5, 16, 15, 0),
                    "team_a": lynx["id"],
                    "team_b": teams[0]["id"],
                }
            ]
        )
        t.update_meta(venue="Полигон «Южный»")
    finally:
        t.close()


def edit_b(folder: Path, cfg: Path) -> None:
    t = open_tournament(folder, startup_backup=False, config_dir=cfg)
    try:
        # B's copy went its own way (a USB stick, no sync): the head judge made B the laptop
        # that writes its tournament.json (only one laptop does, issue 22)
        t.claim_head_laptop(DEMO_PASSPHRASE)
        owls = t.add_team("Совы")
        t.add_player(owls["id"], 9, "Борис Совин", captain=True)
        first = t.teams()[0]
        t.add_player(first["id"], 99, "Новичок Запасной")
        t.add_team("рыси-2")  # the same team by name as A's (another id)
        teams = t.teams()

        p = t.players(first["id"])[0]  # B renames a player of an existing team
        t.update_player(first["id"], p["number"], {"name": "Иван Петров-Водкин"})
        t.add_games(
            [
                {  # A's slot: field 3 at 15:00 (a clash once merged)
                    "field": "3",
                    "start": datetime(2026, 5, 16, 15, 0),
                    "team_a": owls["id"],
                    "team_b": teams[1]["id"],
                },
                {
                    "field": "4",
                    "start": datetime(2026, 5, 16, 16, 0),
                    "team_a": owls["id"],
                    "team_b": teams[2]["id"],
                },
            ]
        )
        settings = dict(t.settings)
        settings["min_gap_minutes"] = 15
        t.update_meta(settings=settings)
    finally:
        t.close()


def tables(folder: Path) -> dict:
    return load_json_file(folder / "tournament.json")


def accounted(ours_before: dict, theirs: dict, ours_after: dict, report) -> list[str]:
    """What of ``theirs`` is neither in ``ours_after`` nor listed by the report."""
    listed = "\n".join(report.tournament_conflicts + report.refused_games)
    lost = []
    names_after = {t["name"].casefold() for t in ours_after["teams"].values()}
    ids_after = {t["id"] for t in ours_after["teams"].values()}
    for tm in theirs["teams"].values():
        if tm["id"] not in ids_after and tm["name"].casefold() not in names_after:
            lost.append(f"team {tm['name']}")
        if tm["id"] not in ids_after and repr(tm["name"]) not in listed:
            lost.append(f"team {tm['name']} (not listed)")
    players_after = {(p["team_id"], p["number"]): p["name"] for p in ours_after["players"].values()}
    name_map = {t["id"]: t["name"].casefold() for t in ours_after["teams"].values()}
    by_name = {v: k for k, v in name_map.items()}
    their_names = {t["id"]: t["name"].casefold() for t in theirs["teams"].values()}
    for p in theirs["players"].values():
        tid = p["team_id"] if p["team_id"] in ids_after else by_name[their_names[p["team_id"]]]
        have = players_after.get((tid, p["number"]))
        if have is None:
            lost.append(f"player {p['name']}")
        elif have != p["name"] and repr(p["name"]) not in listed:
            lost.append(f"player {p['name']} (differs, not listed)")
    games_after = {g["id"] for g in ours_after["games"].values()}
    for g in theirs["games"].values():
        if g["id"] not in games_after and g["id"] not in listed:
            lost.append(f"game {g['id']}")
    m_after = ours_after["meta"]["1"]
    m_theirs = theirs["meta"]["1"]
    for k in ("venue", "name", "date", "division", "head_judge"):
        if m_after.get(k) != m_theirs.get(k) and f"{k}: here" not in listed:
            lost.append(f"setting {k}")
    for k, v in m_theirs["settings"].items():
        if m_after["settings"].get(k) != v and f"setting {k}: here" not in listed:
            lost.append(f"setting {k}")
    return lost


def test_two_laptops_merged_both_ways_lose_nothing(tmp_path: Path) -> None:
    a, b, cfg_a, cfg_b = two_laptops(tmp_path)
    edit_a(a, cfg_a)
    edit_b(b, cfg_b)
    a_before, b_before = tables(a), tables(b)
    a_copy = tmp_path / "a-copy"
    shutil.copytree(a, a_copy)  # what B receives: A as it was before B's merge

    # B into A
    t = open_tournament(a, startup_backup=False, config_dir=cfg_a)
    try:
        t.head_judge(DEMO_PASSPHRASE)
        report = merge_into(t, b)
    finally:
        t.close()
    a_after = tables(a)
    assert accounted(a_before, b_before, a_after, report) == []
    names = [tm["name"] for tm in a_after["teams"].values()]
    assert len(names) == len({n.casefold() for n in names})  # never duplicated
    assert sorted(report.changes) == sorted(
        [
            f"added team 'Совы' (id {next(x['id'] for x in b_before['teams'].values() if x['name'] == 'Совы')})",
            "added player #9 'Борис Совин' to team "
            + next(x["id"] for x in b_before["teams"].values() if x["name"] == "Совы"),
            "added player #99 'Новичок Запасной' to team "
            + next(p["team_id"] for p in b_before["players"].values() if p["number"] == 99),
            "added game "
            + next(g["id"] for g in b_before["games"].values() if g["field"] == "4")
            + " (field 4 at 2026-05-16T16:00)",
        ]
    )
    assert len(report.refused_games) == 1
    assert "field 3 at 2026-05-16T15:00 is taken by game" in report.refused_games[0]
    joined = "\n".join(report.tournament_conflicts)
    assert "team 'рыси-2'" in joined and "(the same name: not added twice)" in joined
    assert "'Иван Петров-Водкин'" in joined
    assert "venue: here 'Полигон «Южный»', there 'Полигон «Северный»'" in joined
    assert "setting min_gap_minutes: here 12, there 15" in joined
    kept = list((a / "conflicts" / "tournament").glob("*.json"))
    assert len(kept) == 1
    assert len(orjson.loads(kept[0].read_bytes())["conflicts"]) == len(
        report.tournament_conflicts
    ) + len(report.refused_games)
    assert verify_folder(a)["tournament.json"] == []  # re-signed by the head judge

    # A (as it was) into B
    t = open_tournament(b, startup_backup=False, config_dir=cfg_b)
    try:
        t.head_judge(DEMO_PASSPHRASE)
        report_b = merge_into(t, a_copy)
    finally:
        t.close()
    b_after = tables(b)
    assert accounted(b_before, a_before, b_after, report_b) == []
    names = [tm["name"] for tm in b_after["teams"].values()]
    assert len(names) == len({n.casefold() for n in names})
    # A's player of Рыси-2 joins B's team of the same name (matched by name, not twice)
    b_lynx = next(x["id"] for x in b_before["teams"].values() if x["name"] == "рыси-2")
    assert f"added player #5 'Анна Лисина' to team {b_lynx}" in report_b.changes
    assert "(the same name: not added twice)" in "\n".join(report_b.tournament_conflicts)
    assert len(report_b.refused_games) == 1
    assert verify_folder(b)["tournament.json"] == []


def test_an_unsigned_tournament_json_is_not_merged(tmp_path: Path) -> None:
    a, b, cfg_a, cfg_b = two_laptops(tmp_path)
    t = open_tournament(b, startup_backup=False, config_dir=cfg_b)
    try:  # B is not the head judge's laptop: the services refuse (issue 22) ...
        with pytest.raises(Refused, match="only on the head judge's laptop"):
            t.add_team("Без подписи")
    finally:
        t.close()
    data = load_json_file(b / "tournament.json")  # ... so B's file is changed by hand
    data["meta"]["1"]["venue"] = "Без подписи"
    (b / "tournament.json").write_bytes(orjson.dumps(data))
    before = (a / "tournament.json").read_bytes()
    t = open_tournament(a, startup_backup=False, config_dir=cfg_a)
    try:
        report = merge_into(t, b)
    finally:
        t.close()
    assert (
        "tournament.json of cup: not merged: changed since the head judge signed it "
        "(edited by hand, or an unsigned change)"
    ) in report.errors
    assert report.changes == [] and report.tournament_conflicts == []
    assert (a / "tournament.json").read_bytes() == before


def merged_a(tmp_path: Path):
    """Laptop A after merging B: the differences wait in conflicts/tournament/."""
    a, b, cfg_a, cfg_b = two_laptops(tmp_path)
    edit_a(a, cfg_a)
    edit_b(b, cfg_b)
    t = open_tournament(a, startup_backup=False, config_dir=cfg_a)
    try:
        t.head_judge(DEMO_PASSPHRASE)
        merge_into(t, b)
    finally:
        t.close()
    return a, cfg_a


def test_a_tournament_difference_is_decided_only_with_the_head_judges_secret(
    tmp_path: Path,
) -> None:
    from fieldjudge.services.sync.tournament_conflicts import decide, tournament_conflicts
    from fieldjudge.store import Refused

    a, cfg_a = merged_a(tmp_path)
    t = open_tournament(a, startup_backup=False, config_dir=cfg_a)
    try:
        before = (a / "tournament.json").read_bytes()
        kept = {p.name: p.read_bytes() for p in (a / "conflicts" / "tournament").glob("*")}
        found = tournament_conflicts(t)
        player = next(c for c in found if c.what == "player")
        for secret in ("", "wrong secret"):
            for keep in ("ours", "theirs"):
                with pytest.raises(
                    Refused,
                    match=r"^only the head judge decides a difference between two laptops' "
                    "tournament files, with his secret",
                ):
                    decide(t, player, keep, secret)
        assert (a / "tournament.json").read_bytes() == before
        assert {p.name: p.read_bytes() for p in (a / "conflicts" / "tournament").glob("*")} == kept
        assert not (a / "conflicts" / "decisions").exists()
        assert tournament_conflicts(t) == found
    finally:
        t.close()


def test_the_head_judge_keeps_ours_or_takes_theirs_signed_and_recorded(tmp_path: Path) -> None:
    from fieldjudge.services.sync.tournament_conflicts import decide, tournament_conflicts
    from fieldjudge.services.trust.signing import signed_message, verify_signature
    from fieldjudge.store import Refused
    from fieldjudge.store.anchors import canonical_digest

    a, cfg_a = merged_a(tmp_path)
    t = open_tournament(a, startup_backup=False, config_dir=cfg_a)
    try:
        found = tournament_conflicts(t)
        assert sorted(c.what for c in found) == [
            "game_clash",
            "player",
            "setting",
            "setting",
            "team",
        ]
        player = next(c for c in found if c.what == "player")
        pid = (player.ours["team_id"], player.ours["number"])
        path = decide(t, player, "theirs", DEMO_PASSPHRASE)
        names = {(p["team_id"], p["number"]): p["name"] for p in t.players()}
        assert names[pid] == "Иван Петров-Водкин"
        decision = orjson.loads(path.read_bytes())
        assert decision["keep"] == "theirs" and decision["difference"]["what"] == "player"
        body = {k: v for k, v in decision.items() if k not in ("hj_sig", "hj_key")}
        assert verify_signature(
            t.pinned_hj,
            signed_message("head_judge", canonical_digest(body)),
            decision["hj_sig"],
        )
        assert [c.what for c in tournament_conflicts(t)].count("player") == 0
        # a setting taken from the other laptop, the venue kept
        gap = next(c for c in tournament_conflicts(t) if "min_gap_minutes" in c.text)
        decide(t, gap, "theirs", DEMO_PASSPHRASE)
        assert t.settings["min_gap_minutes"] == 15
        venue = next(c for c in tournament_conflicts(t) if c.text.startswith("venue:"))
        decide(t, venue, "ours", DEMO_PASSPHRASE)
        assert t.meta["venue"] == "Полигон «Южный»"
        # the other laptop's game at a taken field and time is refused with the reason
        clash = next(c for c in tournament_conflicts(t) if c.what == "game_clash")
        with pytest.raises(Refused, match=r"^field 3 at 2026-05-16 15:00 is taken by game "):
            decide(t, clash, "theirs", DEMO_PASSPHRASE)
        decide(t, clash, "ours", DEMO_PASSPHRASE)
        team = next(c for c in tournament_conflicts(t) if c.what == "team")
        decide(t, team, "ours", DEMO_PASSPHRASE)
        assert tournament_conflicts(t) == []
        assert list((a / "conflicts" / "tournament").glob("*.json")) == []
        assert len(list((a / "conflicts" / "decisions").glob("tournament--*.json"))) == 5
        with pytest.raises(Refused, match="^this difference is already decided"):
            decide(t, team, "ours", DEMO_PASSPHRASE)
    finally:
        t.close()
    faults = verify_folder(a)
    assert faults["tournament.json"] == []  # every change signed by the head judge
    recorded = sorted(k for k in faults if k.startswith("conflicts/decisions/"))
    assert len(recorded) == 5 and all(faults[k] == [] for k in recorded)
    edited = a / recorded[0]
    doc = orjson.loads(edited.read_bytes())
    edited.write_bytes(orjson.dumps({**doc, "keep": "theirs" if doc["keep"] == "ours" else "ours"}))
    assert verify_folder(a)[recorded[0]] == [
        "the head judge's signature does not match the decision (edited?)"
    ]


def test_only_the_head_judges_laptop_writes_tournament_json(tmp_path: Path) -> None:
    """Two laptops writing tournament.json leave one version live everywhere and the other
    in a conflict copy (issue 22, defect 2): the services refuse it on any laptop but the
    one the file names, until the head judge moves that role with his secret."""
    from fieldjudge.i18n import rule_text, set_language

    a, b, cfg_a, cfg_b = two_laptops(tmp_path)  # the demo made on the test's own laptop
    before = (b / "tournament.json").read_bytes()
    t = open_tournament(b, startup_backup=False, config_dir=cfg_b)
    try:
        head = t.head_laptop()
        assert head and head != t.keys.laptop_id
        teams = t.teams()
        for change in (
            lambda: t.add_team("Совы"),
            lambda: t.add_player(teams[0]["id"], 77, "Запасной"),
            lambda: t.update_meta(venue="Поле у реки"),
            lambda: t.add_games([]),
            lambda: t.add_rows({}),
        ):
            with pytest.raises(Refused) as exc:
                change()
            assert "only on the head judge's laptop" in str(exc.value)
        set_language("ru")
        try:
            assert "меняется только на ноутбуке главного судьи" in rule_text(exc.value)
        finally:
            set_language("en")
        assert (b / "tournament.json").read_bytes() == before
        with pytest.raises(Refused):
            t.claim_head_laptop("не тот секрет")
        t.claim_head_laptop(DEMO_PASSPHRASE)  # his laptop broke: this one takes the role
        assert t.head_laptop() == t.keys.laptop_id
        t.add_team("Совы")
    finally:
        t.close()
    assert verify_folder(b)["tournament.json"] == []  # signed by his key
