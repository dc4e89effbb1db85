"""Tournament settings: every number RULES.md marks **default** is a setting, stored in
``tournament.json`` under ``meta.settings``. The rules engines read them through their own
``Settings.from_dict``; this module only builds the stored dict from the setup form."""

from __future__ import annotations

from typing import Any

from fieldjudge.i18n import _
from fieldjudge.rules.paintball.setup import FPS_EXACT, FPS_WHOLE, Settings

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
    # 23.03 / 30.01: a team with nobody left ends the game only if the regulations say so
    out["end_when_team_out"] = parse_yes_no(v.get("end_when_team_out", "no"))
    out["fps_precision"] = parse_precision(v.get("fps_precision", FPS_WHOLE))
    if "after_release_window_ms" in v:  # 19.05 (RULES.md "After-release test: the window")
        out["chrono"] = {
            **out["chrono"],
            "after_release_window_ms": parse_window_ms(v["after_release_window_ms"]),
        }
    try:  # 18.02: penalty points per hit found at the post-game inspection
        out["inspection_penalty_points"] = int(v.get("inspection_penalty_points", "1") or "1")
    except ValueError:
        raise ValueError(_("Inspection penalty points must be a whole number")) from None
    return out


def parse_window_ms(text: str) -> int:
    """19.05: how long after "trigger released" shots count (ms, 100-5000; default 500): the
    after-release test's window (RULES.md); later shots are a new string."""
    try:
        ms = int(str(text).strip() or "500")
    except ValueError:
        raise ValueError(_("After-release window must be whole milliseconds, 100-5000")) from None
    if not 100 <= ms <= 5000:
        raise ValueError(_("After-release window must be whole milliseconds, 100-5000"))
    return ms


_YES = {"y", "yes", "д", "да", "1", "on", "true"}
_NO = {"n", "no", "н", "нет", "0", "off", "false", ""}


def parse_yes_no(text: str) -> bool:
    t = text.strip().lower()
    if t in _YES:
        return True
    if t in _NO:
        return False
    raise ValueError(_("Answer yes or no (y/n)"))


_PRECISION = dict.fromkeys(("whole", "w", "целые", "ц"), FPS_WHOLE) | dict.fromkeys(
    ("exact", "e", "точно", "т"), FPS_EXACT
)


def parse_precision(text: str) -> str:
    """20.02 / 20.03: how a reading is judged: ``whole`` (rounded down) or ``exact``."""
    value = _PRECISION.get(text.strip().lower())
    if value is None:
        raise ValueError(_("Fps precision: whole or exact"))
    return value
