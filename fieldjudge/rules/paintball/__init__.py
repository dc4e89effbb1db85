"""Tournament paintball (5x5 flag game, file 003, sections 18-32): pure rules engine.

Modules: ``events`` (event types and their data), ``setup`` (GameSetup, Settings),
``reasons`` (elimination reasons and sections), ``chrono`` (in-game chrono verdicts),
``clock`` (game clock across restarts), ``model`` (state dataclasses), ``checks``
(refusals), ``state`` (fold, validate), ``scoring`` (points, no-shows, standings).
"""

from fieldjudge.rules.paintball.checks import advisories, refusal, replay_refusal
from fieldjudge.rules.paintball.chrono import chrono_verdict, judged_fps
from fieldjudge.rules.paintball.clock import clock_run_out
from fieldjudge.rules.paintball.scoring import (
    GameResult,
    game_result,
    no_show_result,
    standings,
)
from fieldjudge.rules.paintball.setup import (
    GameSetup,
    RosterPlayer,
    Settings,
    needs_second_player,
)
from fieldjudge.rules.paintball.state import disqualified_in, fold, new_state, validate

__all__ = [
    "GameResult",
    "GameSetup",
    "RosterPlayer",
    "Settings",
    "advisories",
    "chrono_verdict",
    "clock_run_out",
    "disqualified_in",
    "fold",
    "game_result",
    "judged_fps",
    "needs_second_player",
    "new_state",
    "no_show_result",
    "refusal",
    "replay_refusal",
    "standings",
    "validate",
]
