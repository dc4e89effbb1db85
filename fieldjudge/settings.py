"""Tournament settings: every number RULES.md marks **default** is a setting, stored in
``tournament.json`` under ``meta.settings``. The rules engines read them through their own
``Settings.from_dict``; this module only builds the stored dict from the setup form."""

from __future__ import annotations

from typing import Any

from fieldjudge.i18n import _
from fieldjudge.rules.paintball.setup import Settings

# The rules engine owns the defaults of RULES.md (30.01 points, 20.0x chrono limits, the
# penalty catalogue, 32.03 gap, 19.01 check-in); the store adds its own.
DEFAULTS: dict[str, Any] = {**Settings().to_dict(), "backups_kept": 10}


def parse_clock(text: str) -> int:
    """'7:00' -> 420000 ms."""
    try:
        m, s = text.strip().split(":")
        ms = (int(m) * 60 + int(s)) * 1000
    except ValueError:
        raise ValueError(_("Game length must be m:ss, e.g. 7:00")) from None
    if not 0 < ms <= 60 * 60 * 1000 or not 0 <= int(s) < 60:
        raise ValueError(_("Game length must be m:ss, e.g. 7:00"))
    return ms


def settings_from_form(v: dict[str, str]) -> dict[str, Any]:
    out = dict(DEFAULTS)
    try:
        out["team_size"] = int(v["team_size"])
        out["points"] = {k: int(v[k]) for k in ("flag_hang", "flag_held", "draw", "loss")}
    except (KeyError, ValueError):
        raise ValueError(_("Team size and points must be whole numbers")) from None
    if not 1 <= out["team_size"] <= 15:
        raise ValueError(_("Players per team must be 1-15"))
    out["game_length_ms"] = parse_clock(v["game_length"])
    return out
