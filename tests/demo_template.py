"""The demo tournament made once per test process, copied for each test that needs one.

``create_demo`` stretches the head judge's secret with scrypt twice and fsyncs every file it
writes: about 1.5 s, more on a loaded machine, and some 250 tests start from a demo. A copy
of its folder, with the config folder of the laptop that made it (that laptop's key and the
head judge's key it pinned), is the same tournament for the same laptop in milliseconds.
The tests whose subject is making a tournament still call ``create_demo`` themselves."""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import tempfile
from datetime import date
from pathlib import Path

import pytest

from fieldjudge.services import open_tournament
from fieldjudge.services.demo import create_demo


def _make(folder: Path, day: date, lock: bool, config: Path) -> None:
    """``create_demo`` on the laptop of the config folder ``config``."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("FIELDJUDGE_CONFIG", str(config))
        create_demo(folder, day=day, lock=lock).close()


@functools.cache
def _template(day: date, lock: bool) -> Path:
    """The demo of ``day`` made once, in a folder of its own: ``demo`` and ``config``."""
    base = Path(tempfile.mkdtemp(prefix="fieldjudge-demo-"))
    atexit.register(shutil.rmtree, base, True)
    _make(base / "demo", day, lock, base / "config")
    return base


def copy_demo(folder: Path, day: date, lock: bool = True, config: Path | None = None) -> Path:
    """The demo at ``folder`` (closed) for the laptop of the config folder ``config``
    (default: this test's, ``FIELDJUDGE_CONFIG``), which gets the maker's key and pin. A
    laptop that already has a key of its own gets a demo made afresh: a copy would be
    signed by another laptop."""
    folder = Path(folder)
    config = config or Path(os.environ["FIELDJUDGE_CONFIG"])
    if config.is_dir() and any(config.iterdir()):
        _make(folder, day, lock, config)
        return folder
    base = _template(day, lock)
    shutil.copytree(base / "config", config, dirs_exist_ok=True)
    shutil.copytree(base / "demo", folder)
    return folder


def open_demo_copy(folder: Path, day: date, lock: bool = True, config: Path | None = None):
    """:func:`copy_demo`, opened as ``create_demo`` leaves it (no backup at start-up)."""
    copy_demo(folder, day, lock, config)
    return open_tournament(folder, lock=lock, startup_backup=False, config_dir=config)
