"""Tournament paintball (5x5 flag game, file 003, sections 18-32): pure rules engine.

Modules: ``events`` (event types and their data), ``setup`` (GameSetup, Settings),
``reasons`` (elimination reasons and sections), ``chrono`` (in-game chrono verdicts),
``clock`` (game clock across restarts), ``model`` (state dataclasses), ``checks``
(refusals), ``state`` (fold, validate), ``scoring`` (points, no-shows, standings).
"""
