"""``fieldjudge verify``: every check of :mod:`fieldjudge.services.trust.checks` (who signed
what, chains, heads, registrations, decisions) run now over the whole folder, nothing
remembered, plus every stored event checked again by the rules engine. Read-only: nothing
is ever written or repaired."""

from __future__ import annotations

from pathlib import Path

from fieldjudge.rules.event_names import event_type_name
from fieldjudge.rules.events import Event
from fieldjudge.rules.messages import Phrase
from fieldjudge.rules.paintball.state import disqualified_in, fold
from fieldjudge.services.paintball.disqualified import CarriedOver
from fieldjudge.services.paintball.results import setup_for
from fieldjudge.services.trust.checks import (
    FileReport,
    Verifier,
)
from fieldjudge.store import DamagedFile
from fieldjudge.store.pins import HeadJudgePins
from fieldjudge.store.storage import load_json_file
from fieldjudge.store.tournament import snapshot_tournament
from fieldjudge.store.validate import validate_data


def rules_faults(
    folder: Path, skip: set[str] | frozenset[str] = frozenset()
) -> dict[str, list[str]]:
    """{``games/<id>.json``: faults}: every stored event of every game checked again by
    the rules engine (``fold(..., recheck=True)``), in schedule order so that 20.05
    disqualifications carry over. The fold of the app trusts a stored event (it was
    checked when appended); this is where an event the rules refuse -- merged in, written
    by another program, or made illegal by a later change of the rosters or settings --
    is found. ``skip``: files already reported damaged."""
    folder = Path(folder)
    try:
        t = snapshot_tournament(folder)  # read-only, in memory: verify writes nothing
        games = t.games()
    except (DamagedFile, KeyError, TypeError, ValueError, AttributeError):
        return {}  # the tournament file's own report names its fault
    out: dict[str, list[str]] = {}
    carried = CarriedOver()
    for g in games:
        rel = f"games/{g['id']}.json"
        path = folder / rel
        disqualified = carried.before(g)
        if rel in skip or not path.exists():
            continue
        try:
            data, _changed = validate_data(load_json_file(path), path)
            docs = sorted(data["events"].values(), key=lambda d: d.get("seq", 0))
            events = [Event.from_doc(d) for d in docs]
            st = fold(setup_for(t, g["id"], None, disqualified), events, recheck=True)
        except (DamagedFile, KeyError, TypeError, ValueError, AttributeError):
            continue  # the file's own report names its fault
        faults: list[str] = [
            Phrase(
                "event #{seq} ({type}): the rules refuse it: {why}",
                seq=n.seq,
                type=event_type_name(n.type),
                why=n.text,
            )
            for n in st.rejected
        ]
        if faults:
            out[rel] = faults
        carried.add({"disqualified": sorted([t_, n] for t_, n in disqualified_in([st]))})
    return out


def verify_report(folder: Path, pins: HeadJudgePins | None = None) -> dict[str, FileReport]:
    """{relative path: report} for every file, laptop registration and manifest, all
    checked now (nothing remembered), and every event checked again by the rules engine."""
    out = {
        rel: FileReport(list(r.faults), list(r.notes))
        for rel, r in Verifier(folder, pins).report().items()
    }
    damaged = {rel for rel, rep in out.items() if rep.faults}
    for rel, faults in rules_faults(folder, damaged).items():
        out[rel].faults += faults
    return out


def team_names(folder: Path) -> dict[str, str]:
    """{team id: name} of the folder's tournament, read-only, for the report's messages
    (a rule names a team by its id); empty when the tournament file cannot be read (its
    own report says why)."""
    try:
        return snapshot_tournament(Path(folder)).team_names()
    except (DamagedFile, KeyError, TypeError, ValueError, AttributeError, OSError):
        return {}


def verify_on_this_laptop(folder: Path) -> dict[str, FileReport]:
    """:func:`verify_report` against the head judge keys this laptop pinned."""
    return verify_report(folder, HeadJudgePins())
