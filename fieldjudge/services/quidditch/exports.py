"""A match's exports: the JSON everything ``fieldjudge quidditch verify`` needs except the
server seed (every round, voided ones marked, with declarations, rolls, outcomes and post),
and the plain text of all posts. Written next to the match, never overwriting."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

import orjson

from fieldjudge.rules.events import Event
from fieldjudge.rules.quidditch import MatchSetup, MatchState
from fieldjudge.store import EventLog
from fieldjudge.store.storage import atomic_write_bytes

from .common import PASSES_RESOLVED, rolls_span, write_text

EXPORT_FORMAT = "fieldjudge-quidditch-export"


class MatchRecord(Protocol):
    """What an export reads of a match: the session (``match.QuidditchSession``) fits."""

    setup: MatchSetup
    match_id: str
    seed_hash: str
    log: EventLog
    folder: Path

    @property
    def state(self) -> MatchState: ...

    def round_events(self) -> list[Event]: ...

    def voided(self) -> set[str]: ...

    def void_reason(self, event_id: str) -> str: ...


def export_dict(session: MatchRecord) -> dict[str, Any]:
    """Everything ``verify`` needs except the server seed: every round (voided ones
    marked), its declarations, every roll, the outcomes and the post."""
    gone = session.voided()
    rounds = []
    for e in session.round_events():
        v = e.id in gone
        res = e.data["result"]
        rounds.append(
            {
                "event_id": e.id,
                # "passes": resolved within the round (0, 5), "round": the whole round
                "kind": "passes" if e.type == PASSES_RESOLVED else "round",
                "round_no": e.data["round_no"],
                "first_roll": e.data["first_roll"],
                "voided": v,
                "void_reason": session.void_reason(e.id) if v else "",
                "wall_time": e.wall_time,
                "judge": e.judge,
                "declarations": e.data["declarations"],
                "rolls": [{**r, "voided": v} for r in res["rolls"]],
                "outcomes": res["outcomes"],
                "score": res["state"]["score"],
                "post": e.data["post"],
            }
        )
    st = session.state
    settings = session.setup.settings
    return {
        "format": EXPORT_FORMAT,
        # 5, 9: the match settings that change a result, stated plainly
        "settings": {
            "interception": settings.interception,
            "vanish_mode": settings.vanish_mode,
        },
        "version": 1,
        "match_id": session.match_id,
        "seed_hash": session.seed_hash,
        "client_seed": session.setup.client_seed,
        "setup": session.setup.to_dict(),
        "rounds": rounds,
        "final": {"score": st.score, "ended": st.ended, "end_reason": st.end_reason},
        "chain_head": session.log.last_hash,
    }


INTERCEPTION_RU = {
    "flat": "успешный бросок перехвата забирает мяч",
    "contest": "спор: получатель тоже бросает, большее значение забирает мяч",
}
VANISH_RU = {"per_round": "каждый круг погони", "per_chase": "один раз за погоню"}


def settings_line(settings: Any) -> str:
    """The match settings of 5 (interception) and 9 (vanishing), in Russian, as the
    exports and posts show them."""
    i, v = settings.interception, settings.vanish_mode
    return (
        f"Настройки: перехват (п. 5) — {INTERCEPTION_RU.get(i, i)}; "
        f"исчезновение снитча (п. 9) — {VANISH_RU.get(v, v)}"
    )


def export_text(session: MatchRecord) -> str:
    a, b = session.setup.teams
    head = [
        f"Матч {session.match_id}: {a.name} — {b.name}",
        f"Хэш сида (sha256): {session.seed_hash}",
        f"Клиентский сид: {session.setup.client_seed or '—'}",
        settings_line(session.setup.settings),
        "",
    ]
    gone = session.voided()
    body = []
    for e in session.round_events():
        if e.id in gone:
            rolls = e.data["result"]["rolls"]
            body.append(
                f"[Круг {e.data['round_no']} аннулирован ({session.void_reason(e.id)}); "
                f"броски {rolls_span(rolls)} израсходованы]"
            )
        else:
            body.append(e.data["post"])
        body.append("")
    return "\n".join(head + body).rstrip() + "\n"


def write_export(session: MatchRecord, path: Path) -> Path:
    """The JSON export (:func:`export_dict`) written to ``path`` atomically."""
    atomic_write_bytes(path, orjson.dumps(export_dict(session), option=orjson.OPT_INDENT_2))
    return path


def write_exports(session: MatchRecord) -> tuple[Path, Path]:
    """``export[-k].json`` and ``posts[-k].txt`` in the match folder, never overwriting."""
    k = 1
    while True:
        suffix = "" if k == 1 else f"-{k}"
        j, t = session.folder / f"export{suffix}.json", session.folder / f"posts{suffix}.txt"
        if not j.exists() and not t.exists():
            break
        k += 1
    session.folder.mkdir(parents=True, exist_ok=True)
    write_export(session, j)
    write_text(t, export_text(session))
    return j, t
