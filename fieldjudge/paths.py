"""Where data lives: ``--data-dir``, else ``FIELDJUDGE_DATA``, else the OS user data dir."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs


def default_data_dir() -> Path:
    env = os.environ.get("FIELDJUDGE_DATA")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir("fieldjudge", appauthor=False))
