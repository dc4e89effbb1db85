"""The one keymap (screens/keymap.py, issue 23): every screen's keys are its rows, every row
is a screen's, and every description is a message id the extraction sees."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path

import fieldjudge.screens as screens_pkg
from fieldjudge import i18n
from fieldjudge.screens import keymap
from fieldjudge.screens.base import JudgeModal, JudgeScreen
from tests.i18n_helpers import has

sys.path.insert(0, str(Path(__file__).parents[1] / "tools"))
from po_ids import ids_in  # noqa: E402


def screen_bindings() -> dict[str, list]:
    """The own ``BINDINGS`` of every fieldjudge screen class, by class name."""
    for mod in pkgutil.walk_packages(screens_pkg.__path__, screens_pkg.__name__ + "."):
        importlib.import_module(mod.name)
    out, todo = {}, [JudgeScreen, JudgeModal]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if "BINDINGS" in cls.__dict__:
            out[cls.__name__] = cls.__dict__["BINDINGS"]
    return out


def test_every_screen_takes_its_keys_from_one_keymap_row_list() -> None:
    tables = {name: keymap.bindings(name) for name in keymap.KEYMAP}
    used = set()
    for cls, bindings in screen_bindings().items():
        names = [name for name, rows in tables.items() if rows == bindings]
        assert names, f"{cls}: BINDINGS not from the keymap"
        used.update(names)
    assert used == set(keymap.KEYMAP), "a keymap entry no screen uses"


def test_binding_ids_are_screen_dot_action_and_unique_per_key() -> None:
    ids = keymap.all_binding_ids()
    assert ids["game.eliminate_a"].key == "a"
    assert ids["home.teams"].key == "t"
    assert ids["acceptance_problem.toggle_0"].key == "1"
    for name in keymap.KEYMAP:
        assert all(b.id and b.id.startswith(f"{name}.") for b in keymap.bindings(name))


def test_every_description_is_extracted_and_every_label_translated() -> None:
    """The footer labels reach the catalog through ``key(..., "description")`` (xgettext's
    ``key:3``, read here as ``tools/po_ids.py`` reads it); tooltips are looked up too."""
    rows = [b for bindings in keymap.KEYMAP.values() for b in bindings]
    described = {b.description for b in rows}
    assert described - set(ids_in(keymap.__file__)) == set()
    ru = i18n.load("ru")
    labels = described | {b.tooltip for b in rows if b.tooltip}
    assert {label for label in labels if not has(ru, label)} == set()
