"""What ``fieldjudge sync setup`` does to the tournament folder and this laptop: the
``.stignore`` that keeps local files out of the sync, this laptop's signing key (made on
first use, never in the shared folder) and its ``laptops/<id>/laptop.json`` registration.
The store writes the files; the commands reach them only through here."""

from __future__ import annotations

from pathlib import Path

from fieldjudge.store.keys import LaptopKeys
from fieldjudge.store.sync_files import ensure_stignore, register_laptop

__all__ = ["ensure_stignore", "laptop_key", "register_laptop"]


def laptop_key(folder: Path, name: str = "") -> LaptopKeys:
    """This laptop's signing key (made on first use, never inside ``folder``), named
    ``name`` when one is given: one name in the key and in the folder. Raises
    ``StoreError`` or ``OSError``."""
    keys = LaptopKeys.load_or_create(name=name or None, shared_folders=[Path(folder)])
    if name and keys.name != name:
        keys = keys.rename(name)
    return keys
