"""fieldjudge: offline judging for tournament paintball and forum quidditch."""

__version__ = "0.1.0"
