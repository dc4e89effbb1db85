"""Paintball event types and the fields of their ``data``.

Every judge action in a game becomes one :class:`fieldjudge.rules.events.Event` whose
``type`` is one of the constants below. A player is always named by ``team`` (team id, str)
and ``number`` (shirt number, int). ``game_clock_ms`` of an event is the elapsed game time
when it happened (the screen computes it with :func:`..clock.elapsed_at`).

Corrections are ``void`` events (``data: target, reason``), handled by ``effective()``.
Unknown types are ignored by the fold (other screens may log their own events in the file).
"""

from __future__ import annotations

# --- before the game -------------------------------------------------------------------

CHECKIN = "checkin"
"""A team reported to the chrono station (19.01). data: ``team`` str, ``late`` bool
(late → the head judge may rule a no-show, 32.01)."""

MARKER_VERDICT = "marker_verdict"
"""Pre-game marker check result (19.05-19.07). data: ``team`` str, ``number`` int,
``result`` "admitted" | "not_admitted" | "no_marker"; optional ``note`` str.
Only before the clock starts. A later verdict for the same player replaces the earlier one
(19.06: time to fix the marker)."""

NO_SHOW = "no_show"
"""The game is not played (32.01). data: ``absent`` list of team ids (one or both),
optional ``reason`` "late" | "refused", optional ``cause`` "team" (default) |
"organisers" (32.03: only an organisers' no-show may be replayed, see
``checks.replay_refusal``). Ends the game log: phase "final"."""

LINEUP = "lineup"
"""30.01 ("игра 5х5"): who of a team's roster plays this game. data: ``team`` str,
``numbers`` list of shirt numbers (at most ``Settings.team_size``, none disqualified under
20.05; fewer is allowed). Only before the clock starts; a later line-up of the same team
replaces the earlier one. The roster's other players sit out: they cannot be eliminated,
checked or inspected. A team with no line-up plays its whole roster when that fits the
team size; otherwise the clock cannot start without one."""

OLD_PAINT = "old_paint"
"""29.10: a player reports an old paint spot before the game. data: ``team``, ``number``,
``spot`` str (where, what). Shown to the judge at a paint check of that player."""

# --- the clock ------------------------------------------------------------------------

CLOCK_START = "clock_start"
"""The game starts, the clock counts down from ``Settings.game_length_ms``. data: {}."""

TIME_STOP = "time_stop"
"""The judge's "Time!": the clock stops, players freeze. data: optional ``reason`` str."""

CLOCK_RESUME = "clock_resume"
"""The game resumes after "Time!" or after a hang that did not count (23.02). data: {}."""

GAME_END = "game_end"
"""The game ends by the clock (7:00 run out) or by a judge. data: ``reason`` "clock" |
"judge"; optional ``note`` str. A counted flag hang (23.03) and a team with nobody left end
the game by themselves in the fold, with no ``game_end`` event."""

# --- eliminations ---------------------------------------------------------------------

ELIMINATION = "elimination"
"""One or more players out. data: ``reason`` (a key of ``reasons.DIRECT_REASONS``),
``players`` list of {``team``, ``number``}; optional ``second`` int: the second player of
a group removal 1+1 (same team as the offender; required when
``needs_second_player(settings, reason)`` and a teammate is still in play);
optional ``note`` str.
Two players only for reason "hit" and only two opponents hit at once (26).
Reason "playing_on" (27.02-27.05, 28.02, 29.11; optional ``section`` among
``reasons.PLAYING_ON_SECTIONS``) may name an already eliminated player: his team gets the
catalogue's penalty (default group removal 1+1, ``second`` the unhit player the judge picks).
Reason "markers_down" (20.07, second item) is accepted before the clock starts only."""

# --- checks ---------------------------------------------------------------------------

PAINT_CHECK_START = "paint_check_start"
"""A paint check begins (24.02). data: ``team``, ``number``. The player stays in play and
may be hit meanwhile (26.06)."""

PAINT_CHECK_END = "paint_check_end"
"""A paint check ends. data: ``team``, ``number``, ``outcome`` "eliminated" | "in_play"."""

NEUTRAL_START = "neutral_start"
"""The player is declared neutral (25.01-25.02); never the flag carrier (25.05).
data: ``team``, ``number``. An open paint check on the player turns into the neutral check."""

NEUTRAL_END = "neutral_end"
"""The neutral check ends (25.02). data: ``team``, ``number``, ``outcome`` "eliminated" |
"in_play"."""

# --- chrono ---------------------------------------------------------------------------

CHRONO_READING = "chrono_reading"
"""In-game chrono of a player's marker (20.01). data: ``team``, ``number``, ``fps`` float,
``forbidden_mode`` bool; optional ``interval_ms`` (shortest shot interval measured, 20.02;
only a measured one: RULES.md "Timing a string of shots"), ``intervals_unknown`` int (intervals
not measured, never judged), ``source`` "typed" | "device", ``second`` int (needed when the verdict is a group removal
1+1, 20.04, or the 20.05 team penalty), ``shots`` list of 1-3 fps: the readings the judge
chose (20.02), the verdict is taken on their highest (``fps`` is then that value). ``fps``
is kept as read; the limits apply to ``chrono.judged_fps`` (``Settings.fps_precision``).
The fold applies :func:`..chrono.chrono_verdict`."""

# --- flags ----------------------------------------------------------------------------

FLAG_CAPTURE = "flag_capture"
"""A player takes the opponents' flag (original or spare) from its base. data: ``team``,
``number`` (the capturing player; the flag is the other team's)."""

FLAG_HANDOVER = "flag_handover"
"""The carrier hands the flag to an unhit teammate (22.03). data: ``team``,
``from_number``, ``to_number``."""

FLAG_HANG = "flag_hang"
"""The carrier touches his own start banner with the flag (23.01): "Time!", the clock stops
at this event's ``game_clock_ms`` (the touch time). data: ``team``, ``number``."""

HANG_VERDICT = "hang_verdict"
"""Result of the checks of 23.01 on the carrier. data: ``paint`` "clean" | "hit",
``fps`` float or null (null only for a player without a marker), ``forbidden_mode`` bool,
optional ``interval_ms``, ``source`` "typed" | "device", ``second`` int (group removal 1+1
when the chrono verdict asks for it). Clean and within the limit → the hang counts and the
game ended at the touch (23.03); otherwise the carrier is out, the spare flag goes up at the
flag's base and the game stays stopped until ``clock_resume`` (23.02)."""

# --- after the game -------------------------------------------------------------------

INSPECTION = "inspection"
"""Post-game inspection of an unhit player (18.02). data: ``team``, ``number``, ``result``
"clean" | "hit_found" | "did_not_report"; optional ``note``; for "hit_found" optional
``penalty_points`` int >= 0, entered by the senior judge (default
``Settings.inspection_penalty_points``), subtracted from the team's game points."""

EVENT_TYPES = frozenset(
    {
        CHECKIN,
        MARKER_VERDICT,
        NO_SHOW,
        CLOCK_START,
        TIME_STOP,
        CLOCK_RESUME,
        GAME_END,
        ELIMINATION,
        PAINT_CHECK_START,
        PAINT_CHECK_END,
        NEUTRAL_START,
        NEUTRAL_END,
        CHRONO_READING,
        FLAG_CAPTURE,
        FLAG_HANDOVER,
        FLAG_HANG,
        HANG_VERDICT,
        INSPECTION,
        OLD_PAINT,
        LINEUP,
    }
)

MARKER_RESULTS = ("admitted", "not_admitted", "no_marker")
CHECK_OUTCOMES = ("eliminated", "in_play")
INSPECTION_RESULTS = ("clean", "hit_found", "did_not_report")
GAME_END_REASONS = ("clock", "judge")
NO_SHOW_CAUSES = ("team", "organisers")  # 32.03
