"""What one laptop remembers for itself, in its config folder (never in the tournament folder,
never synced): the field it judges, the theme, the bell, and the judge's own key map.

- ``laptop.json``: ``{"field": "1", "theme": "fieldjudge-sun", "bell": true}``, written by
  the app (atomically: a crash leaves the old file or the new one). ``"judge"``: the name
  recorded with every event this laptop writes (31: the protocol names who did each step),
  set by ``--judge``, the home screen's ``j`` or the game screen's prompt at the first
  event, and remembered across restarts.
- ``keymap.toml``: written by the judge, read at start::

      # binding id = "key" (several keys: "a,ф")
      "home.teams" = "T"
      "game.out_a" = "a,ф"

  ``fieldjudge keys`` (F1) shows each binding id. Keys the app reserves (:data:`RESERVED`)
  and unknown ids are refused with a message; the rest apply.

The folder is ``FIELDJUDGE_CONFIG`` or the OS user config folder (platformdirs), the one
the laptop's signing key uses.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import orjson

from fieldjudge.store.keys import check_laptop_name, default_config_dir
from fieldjudge.store.storage import atomic_write_bytes, make_dirs

#: the one check of a laptop's name (its key's and its registration's): the name as kept,
#: or :class:`~fieldjudge.store.keys.BadLaptopName` saying why not in the UI language
laptop_name = check_laptop_name

SETTINGS_FILE = "laptop.json"
KEYMAP_FILE = "keymap.toml"
# Keys a remap may not take: quitting, help, the palette and "back" must work everywhere.
RESERVED = ("ctrl+q", "f1", "ctrl+p", "escape")
_KEY = re.compile(r"^[^\s,]+$")


@dataclass
class LaptopSettings:
    """This laptop's own settings: its field, judge, theme and bell."""

    field: str = ""  # the field this laptop judges ("" = not chosen yet)
    judge: str = ""  # who judges on this laptop (31); "" = asked at the first event
    theme: str = ""  # a Textual theme name ("" = the app's default)
    bell: bool = True  # the terminal bell at one minute left and at "Time!"/game end
    path: Path | None = None

    @classmethod
    def load(cls, path: Path | None = None) -> LaptopSettings:
        """The saved settings, or the defaults when none are saved or the file is unreadable
        (a damaged settings file must never stop a judge)."""
        path = path or default_config_dir() / SETTINGS_FILE
        try:
            data = orjson.loads(path.read_bytes())
        except (OSError, orjson.JSONDecodeError):
            data = {}
        if not isinstance(data, dict):
            data = {}
        return cls(
            field=str(data.get("field", "") or ""),
            judge=str(data.get("judge", "") or "").strip(),
            theme=str(data.get("theme", "") or ""),
            bell=bool(data.get("bell", True)),
            path=path,
        )

    def save(self) -> None:
        """Raises OSError when the config folder cannot be written."""
        path = self.path or default_config_dir() / SETTINGS_FILE
        data = {k: v for k, v in asdict(self).items() if k != "path"}
        make_dirs(path.parent)
        atomic_write_bytes(path, orjson.dumps(data, option=orjson.OPT_INDENT_2))


@dataclass(frozen=True)
class KeymapProblem:
    """A binding of the keymap file that could not be used, and why."""

    binding_id: str
    keys: str
    reason: str  # "reserved", "unknown", "bad", "file"
    detail: str = ""


@dataclass
class Keymap:
    """The keys this laptop's keymap file binds, and the bindings it refused."""

    keys: dict[str, str] = field(default_factory=dict)  # binding id -> "k1,k2"
    problems: list[KeymapProblem] = field(default_factory=list)
    path: Path | None = None


def _normal(key: str) -> str:
    return key.strip().lower() if len(key.strip()) > 1 else key.strip()


def load_keymap(known_ids: Iterable[str], path: Path | None = None) -> Keymap:
    """The judge's key map: entries for known binding ids with keys that are not reserved.
    A missing file is an empty map; an unreadable one is one problem (``file``)."""
    path = path or default_config_dir() / KEYMAP_FILE
    out = Keymap(path=path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return out
    except OSError as exc:
        out.problems.append(KeymapProblem("", "", "file", str(exc)))
        return out

    try:
        data: dict[str, Any] = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        out.problems.append(KeymapProblem("", "", "file", str(exc)))
        return out
    flat: dict[str, Any] = {}

    def walk(prefix: str, node: dict[str, Any]) -> None:  # "home.teams" or [home] teams=
        for k, v in node.items():
            name = f"{prefix}.{k}" if prefix else k
            if isinstance(v, dict):
                walk(name, v)
            else:
                flat[name] = v

    walk("", data)
    if not flat:
        return out
    known = set(known_ids)
    for binding_id, value in flat.items():
        if not isinstance(value, str) or not value.strip():
            out.problems.append(KeymapProblem(binding_id, str(value), "bad"))
            continue
        keys = [k.strip() for k in value.split(",")]
        if binding_id not in known:
            out.problems.append(KeymapProblem(binding_id, value, "unknown"))
        elif any(not _KEY.match(k) for k in keys):
            out.problems.append(KeymapProblem(binding_id, value, "bad"))
        elif reserved := [k for k in keys if _normal(k) in RESERVED]:
            out.problems.append(KeymapProblem(binding_id, value, "reserved", reserved[0]))
        else:
            out.keys[binding_id] = ",".join(keys)
    return out
