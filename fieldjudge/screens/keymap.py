"""The judge's keys, every screen's in one table: a screen says
``BINDINGS = keymap.bindings("game")``.

A row is :func:`key` (``key("a", "eliminate('a')", "Out A")``, Textual's ``Binding``
options after it: ``show=False`` keeps it out of the footer, ``key_display``, ``tooltip``
for the palette and F1, ``priority``). The rows of a screen are its footer, in order. The
description is an English gettext message id (``key:3`` for xgettext, see
``tools/po_ids.py``): the footer, the help screen and the command palette show it in the UI
language. Each binding gets the id ``<screen>.<action>`` (``game.eliminate_a``) that the
judge's keymap file (``services/laptop.py``) names to move a key. The Russian layout needs
no row: the app reads a Russian letter as the Latin key in its place (``screens/keys.py``).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from textual.binding import Binding

from fieldjudge.rules.marker_check import ACCEPTANCE_ITEMS


def key(keys: str, action: str, description: str, **options: Any) -> Binding:
    """One row: ``keys`` (comma-separated) run ``action``; ``description`` is its label."""
    return Binding(keys, action, description, **options)


BACK = key("escape", "app.pop_screen", "Back")
CANCEL = key("escape", "cancel", "Cancel")
CLOSE = key("escape", "close", "Close")

KEYMAP: dict[str, list[Binding]] = {
    "home": [  # a game day's keys in the footer; F1 and Ctrl+P list all of them
        key("g", "open_game", "Game", tooltip="Open the highlighted game"),
        key("N", "next_game", "Next", tooltip="Next game of this laptop's field"),
        key("k", "marker_check", "Markers", tooltip="Marker check"),
        key("p", "protocol", "Protocol"),
        key("S", "standings", "Table", tooltip="Standings"),
        key("t", "teams", "Teams", show=False),
        key("s", "schedule", "Schedule", show=False),
        key("n", "new_tournament", "New tournament", show=False),
        key("x", "export", "Export", show=False),
        key("m", "merge", "Merge", show=False),
        key("q", "quidditch", "Quidditch", show=False),
        key("j", "judge", "Judge name", show=False),
        key("r", "reload", "Refresh", show=False),
        key("F", "choose_field", "Field", show=False, tooltip="This laptop's field"),
        key("w", "pit_display", "Pit display", show=False, tooltip="Pit display on/off"),
        key(
            "R",
            "register_laptop",
            "Register laptop",
            show=False,
            key_display="R",
            tooltip="The head judge registers this laptop (his secret)",
        ),
        key(
            "T",
            "sign_tournament",
            "Sign the tournament",
            show=False,
            key_display="T",
            tooltip="The head judge signs the teams and schedule as they are now (his secret)",
        ),
    ],
    # -- setup ------------------------------------------------------------------------------
    "teams": [
        BACK,
        key("a", "add_team", "Add team"),
        key("p", "add_player", "Add player"),
        key("i", "import_csv", "Import CSV"),
        key("r", "rename_team", "Rename", tooltip="Rename the team"),
        key("D", "remove_team", "Remove team", show=False),
        key("e", "edit_player", "Edit player"),
        key("X", "remove_player", "Remove player", show=False),
    ],
    "schedule": [BACK, key("a", "add_game", "Add game"), key("i", "import_csv", "Import CSV")],
    # -- the game ---------------------------------------------------------------------------
    "game": [
        key("space", "start_resume", "Start/resume"),
        key("t", "time_stop", "Time!"),
        key("a", "eliminate('a')", "Out A"),
        key("b", "eliminate('b')", "Out B"),
        key("e", "eliminate", "Eliminate", show=False),
        key("2", "simultaneous", "Both hit", show=False),
        key("u", "undo", "Undo"),
        key("H", "flag_hang", "Flag hang", key_display="H"),
        key("f", "capture", "Capture", show=False),
        key("h", "handover", "Hand-over", show=False),
        key("p", "paint_check", "Paint check", show=False),
        key("n", "neutral", "Neutral", show=False),
        key("c", "chrono", "Chrono", show=False),
        key("i", "inspection", "Inspection"),  # in the footer once the game is over (18.02)
        key("v", "void", "Void by number", show=False),
        key("E", "end_by_judge", "End game (judge)", show=False, key_display="E"),
        key("o", "old_paint", "Old paint", show=False),
        key("L", "lineup", "Line-up", show=False, key_display="L"),
        key("escape", "back", "Back"),
    ],
    "inspection_dialog": [
        key("c", "mark('clean')", "Clean"),
        key("h", "mark('hit_found')", "Hit found"),
        key("d", "mark('did_not_report')", "Did not report"),
        CLOSE,
    ],
    "lineup": [key("enter", "confirm", "Confirm", priority=True), CANCEL],
    # -- chrono and marker check ------------------------------------------------------------
    "marker_check": [
        key("escape", "back", "Back"),
        key("i", "checkin", "Check in team"),
        key("l", "lineup", "Line-up", show=False),
        key("s", "slap(False)", "Slap: no shot"),
        key("x", "slap(True)", "Slap: fired"),
        key("r", "released", "Trigger released"),
        key("b", "missed_ball", "Ball not read +1"),
        key("t", "type_reading", "Type a reading"),
        key("c", "restart", "Restart check", show=False),
        key("a", "accept", "19.03 accepted"),
        key("A", "accept_problem", "19.03 problem", show=False, key_display="A"),
        key("m", "modes('ok')", "19.04 modes ok"),
        key("M", "modes('forbidden')", "19.04 forbidden", show=False, key_display="M"),
        key("v", "verdict", "Verdict"),
        key("w", "no_marker", "No marker (19.07)"),
        key("h", "approve", "Head judge approval"),
        key("p", "chrono_setup", "Chrono port"),
    ],
    "in_game_chrono": [
        key("escape", "back", "Back"),
        key("enter", "record", "Record reading"),
        key("m", "toggle_mode", "Forbidden mode"),
        key("t", "type_reading", "Type a reading"),
        key("c", "clear", "Clear readings"),
        key("l", "pick", "Pick player"),
        key("p", "chrono_setup", "Chrono port"),
        *[key(str(n), f"pick_shot({n})", "Pick a shot", show=False) for n in range(1, 10)],
    ],
    "chrono_setup": [
        CANCEL,
        key("ctrl+s", "save", "Save"),
        key("enter", "field_enter", "Save from a text field", show=False, priority=True),
        key("ctrl+r", "rescan", "Rescan ports"),
    ],
    "reading_shown": [key("enter", "close", "Close"), CLOSE],
    "acceptance_problem": [
        *[
            key(str(n + 1), f"toggle({n})", "Toggle", show=False)
            for n in range(len(ACCEPTANCE_ITEMS))
        ],
        key("enter", "done", "Record"),
        CANCEL,
    ],
    "failed_marker": [
        key("f", "choose('fix')", "Fix and retest (19.06)"),
        key("w", "choose('no_marker')", "Play without a marker (19.07)"),
        key("escape", "choose('')", "Cancel"),
    ],
    "second_player": [CANCEL],
    # -- results ----------------------------------------------------------------------------
    "protocol": [
        BACK,
        key("u", "submit", "Submit"),
        key("1", "sign(0)", "Captain A signs"),
        key("2", "sign(1)", "Captain B signs"),
        key("r", "refuse", "Captain refuses"),
        key("c", "correct", "Correct total"),
        key("n", "no_show", "No-show"),
        key("R", "replay", "Replay no-show", show=False, key_display="R"),
        key("v", "void_locked", "Void event", show=False),
    ],
    "standings": [BACK, key("x", "export", "Export"), key("r", "reload", "Refresh", show=False)],
    "merge": [
        BACK,
        key("i", "import_source", "Import"),
        key("o", "keep('ours')", "Keep ours"),
        key("t", "keep('theirs')", "Take theirs"),
    ],
    # -- quidditch --------------------------------------------------------------------------
    "matches": [
        BACK,
        key("enter", "open", "Open"),
        key("n", "new_match", "New match"),
        key("d", "demo_match", "Demo match"),
    ],
    "match_setup": [
        CANCEL,
        key("enter", "edit_player", "Edit player"),
        key("m", "match_details", "Match"),
        key("i", "import_csv", "Import CSV"),
        key("f", "feints", "Feints"),
        key("o", "settings", "Settings"),
        key("ctrl+s", "start", "Start match"),
    ],
    "feints": [
        CANCEL,
        key("enter", "edit", "Edit"),
        key("a", "add", "Add"),
        key("delete", "remove", "Remove"),
        key("g", "toggle_group", "Group feint"),
        key("ctrl+s", "keep", "Keep"),
    ],
    "round": [
        BACK,
        key("enter", "declare", "Declare"),
        key("space", "posted", "Posted", show=False),
        key("delete", "skipped", "Skipped", show=False),
        key("o", "order", "Post order"),
        key("r", "resolve", "Resolve"),
        key("p", "resolve_passes", "Resolve passes now"),
        key("v", "void", "Void round"),
        key("x", "export", "Export"),
        key("h", "seed_hash", "Seed hash"),
        key("ctrl+r", "reveal", "Reveal seed", show=False),
    ],
    "declare_modal": [
        CANCEL,
        key("ctrl+s", "save", "Save"),
        key("enter", "field_enter", "Save from a text field", show=False, priority=True),
    ],
    "result": [BACK, key("c", "copy", "Copy post")],
    # -- dialogs ----------------------------------------------------------------------------
    "form": [
        CANCEL,
        key("ctrl+s", "submit", "Save"),
        key("enter", "next", "Next field or save", show=False, priority=True),
    ],
    "confirm": [key("y,enter", "yes", "Yes"), key("n,escape", "no", "No")],
    "message": [key("escape,enter", "close", "Close")],
    "help": [key("escape,f1,q", "close", "Close")],
    "damaged_file": [key("r", "restore", "Restore backup"), CLOSE],
    "pit_panel": [
        key("escape,enter", "close", "Close"),
        key("w", "stop", "Stop the pit display"),
        key("l", "lan", "Serve it on the venue network"),
    ],
}


def binding_id(screen: str, action: str) -> str:
    """``game`` + ``eliminate('a')`` -> ``game.eliminate_a``: the id a keymap file names."""
    return f"{screen}." + re.sub(r"[^a-z0-9]+", "_", action.lower()).strip("_")


def bindings(screen: str) -> list[Binding]:
    """The bindings of ``screen`` (a key of :data:`KEYMAP`), in footer order, with ids."""
    return [replace(b, id=binding_id(screen, b.action)) for b in KEYMAP[screen]]


def all_binding_ids() -> dict[str, Binding]:
    """Every binding id of every screen (for the keymap file and its checks)."""
    out: dict[str, Binding] = {}
    for screen in KEYMAP:
        for b in bindings(screen):
            out.setdefault(b.id or "", b)
    return out
