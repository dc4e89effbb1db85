"""Checking an export against the server seed the judge reveals after the match: the seed
against its published hash, every roll recomputed, every effective round replayed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

from fieldjudge.rules.dice import seed_commitment, verify_rolls
from fieldjudge.rules.messages import Phrase
from fieldjudge.rules.quidditch.declarations import Declaration
from fieldjudge.rules.quidditch.resolve import make_dice, resolve_passes, resolve_round
from fieldjudge.rules.quidditch.roster import MatchSetup
from fieldjudge.rules.quidditch.state import new_match

from .common import EXPORT_FORMAT


def _plain(x: Any) -> Any:
    return orjson.loads(orjson.dumps(x))


def verify_export(data: Mapping[str, Any], server_seed: str) -> list[str]:
    """Every problem found in an export, given the revealed server seed (empty = honest).

    Checks the seed against the published hash, recomputes every roll (voided ones too, no
    roll number twice), that each round's rolls are numbered on from ``first_roll``, and
    replays every effective round from its declarations to compare rolls and outcomes."""
    problems: list[str] = []
    try:
        if data.get("format") != EXPORT_FORMAT:
            return [Phrase("not a fieldjudge quidditch export")]
        setup = MatchSetup.from_dict(data["setup"])
        if seed_commitment(server_seed) != data["seed_hash"]:
            problems.append(Phrase("the seed does not match the published hash"))
            return problems
        if setup.seed_hash != data["seed_hash"]:
            problems.append(Phrase("the setup's seed hash differs from the export's"))
        all_rolls = [r for rnd in data["rounds"] for r in rnd["rolls"]]
        for m in verify_rolls(server_seed, setup.client_seed, setup.match_id, all_rolls):
            problems.append(
                Phrase(
                    "round {round}, roll #{n}: {why} (recorded {recorded}, recomputed {expected})",
                    round=m.round_no,
                    n=m.n,
                    why=m.reason,
                    recorded=m.recorded,
                    expected=m.expected,
                )
            )
        state = new_match(setup)
        for rnd in data["rounds"]:
            ns = [r["n"] for r in rnd["rolls"]]
            start = rnd["first_roll"]
            if ns != list(range(start, start + len(ns))):
                problems.append(
                    Phrase("round {round}: roll numbers not consecutive", round=rnd["round_no"])
                )
            if rnd["voided"]:
                continue
            if rnd["round_no"] != state.round_no:
                problems.append(
                    Phrase(
                        "round {round}: expected round {expected}",
                        round=rnd["round_no"],
                        expected=state.round_no,
                    )
                )
            st = state.copy()
            st.next_roll_n = start
            decls = [Declaration.from_dict(d) for d in rnd["declarations"]]
            # 0, 5: passes resolved within the round replay as such
            resolve = resolve_passes if rnd.get("kind") == "passes" else resolve_round
            result = resolve(st, decls, make_dice(st, server_seed))
            if _plain([r.to_dict() for r in result.rolls]) != _plain(
                [{k: v for k, v in r.items() if k != "voided"} for r in rnd["rolls"]]
            ):
                problems.append(
                    Phrase("round {round}: replayed rolls differ", round=rnd["round_no"])
                )
            elif _plain([o.to_dict() for o in result.outcomes]) != _plain(rnd["outcomes"]):
                problems.append(
                    Phrase("round {round}: replayed outcomes differ", round=rnd["round_no"])
                )
            state = result.state
    except (KeyError, TypeError, ValueError) as exc:
        problems.append(Phrase("malformed export: {error}", error=repr(exc)))
    return problems


def count_rolls(data: Mapping[str, Any]) -> tuple[int, int, int]:
    """(rounds, rolls, voided rolls) of an export."""
    rounds = data.get("rounds", [])
    rolls = [r for rnd in rounds for r in rnd.get("rolls", [])]
    return len(rounds), len(rolls), sum(1 for r in rolls if r.get("voided"))
