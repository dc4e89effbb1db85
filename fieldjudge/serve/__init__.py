"""The pit display: a read-only scoreboard page and JSON feed served on the venue network
(``fieldjudge serve``). It reads the tournament through a source object
(``fieldjudge.services.pitview.PitView``) and never writes."""

from fieldjudge.serve.server import PitServer, PitServerError

__all__ = ["PitServer", "PitServerError"]
