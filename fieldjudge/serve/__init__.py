"""The pit display: a read-only scoreboard page and JSON feed served on the venue network
(``fieldjudge serve``, :mod:`fieldjudge.serve.server`), which the app starts in a child
process (:mod:`fieldjudge.serve.process`). It reads the tournament through a source object
(``fieldjudge.services.pitview.PitView``) and never writes."""
