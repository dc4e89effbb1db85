"""This laptop's signing key: an Ed25519 key pair made on first use.

The private key lives in the user's config folder (``platformdirs.user_config_dir``), in
``laptop_key.json`` with mode 0600 inside a 0700 folder, and never in a tournament folder:
tournament folders are synced, copied to USB sticks and exported, the config folder is not.
Only the public part goes into a tournament (:meth:`LaptopKeys.registration`).

The config folder is, in order: the ``config_dir`` argument, ``FIELDJUDGE_CONFIG``, the OS
user config folder (e.g. ``~/.config/fieldjudge`` on Linux).

The laptop id is the first 16 hex characters of SHA-256 of the public key
(:func:`fieldjudge.rules.key_ids.key_id`): stable for the key's life, safe as a folder name.

Creating is atomic and race-free: the file is written to a temp file (0600, fsync'd), then
hard-linked to its name, which fails if another process made the key first; that key is then
loaded. A key file that cannot be read is never overwritten (that would silently change the
laptop's identity): :class:`~fieldjudge.store.errors.DamagedFile` names it.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import os
import secrets
import socket
import stat
import time
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import platformdirs
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from fieldjudge.rules.key_ids import b64decode_strict, b64encode, fingerprint, key_id
from fieldjudge.rules.messages import Phrase
from fieldjudge.rules.os_errors import os_error_of
from fieldjudge.store.errors import DamagedFile, StoreError
from fieldjudge.store.storage import fsync_dir, json_document, make_dirs, write_all

KEY_FILE = "laptop_key.json"
KEY_SCHEMA = 1
CONFIG_ENV = "FIELDJUDGE_CONFIG"
NAME_MAX = 40
STALE_TEMP_S = 60.0


class KeyInSharedFolder(StoreError):
    """The config folder asked for lies inside a tournament (or other shared) folder."""

    def __init__(self, config_dir: Path, shared: Path) -> None:
        self.config_dir, self.shared = Path(config_dir), Path(shared)
        super().__init__(f"the key folder {config_dir} is inside the shared folder {shared}")


class BadLaptopName(StoreError):
    """A laptop name that is empty, too long or holds control or bidi characters; its
    ``template`` and ``params`` say it in the UI language (``i18n.rule_text``)."""

    def __init__(self, name: str, fault: str) -> None:
        self.name, self.fault = name, fault
        self.template = "laptop name {name}: {fault}"
        self.params = {"name": repr(name), "fault": fault}
        super().__init__(f"laptop name {name!r}: {fault}")


def default_config_dir() -> Path:
    env = os.environ.get(CONFIG_ENV)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_config_dir("fieldjudge", appauthor=False))


def check_laptop_name(name: str) -> str:
    """The name, NFC-normalised and trimmed; :class:`BadLaptopName` if unusable."""
    clean = unicodedata.normalize("NFC", str(name)).strip()
    if not clean:
        raise BadLaptopName(name, Phrase("it is empty"))
    if len(clean) > NAME_MAX:
        raise BadLaptopName(name, Phrase("longer than {n} characters", n=NAME_MAX))
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in clean):
        raise BadLaptopName(name, Phrase("holds control or direction characters"))
    return clean


def _public_b64(private: Ed25519PrivateKey) -> str:
    return b64encode(private.public_key().public_bytes_raw())


def _seed_of(private: Ed25519PrivateKey) -> bytes:
    return private.private_bytes_raw()


@dataclass(frozen=True)
class LaptopKeys:
    """This laptop's key pair. Make it with :meth:`load_or_create`."""

    path: Path
    name: str
    public_key_b64: str
    created: str
    _seed: bytes = field(repr=False, compare=False)
    #: what loading had to fix (e.g. permissions that were too open); shown, never silent
    notes: tuple[str, ...] = ()

    @functools.cached_property
    def laptop_id(self) -> str:
        """The id of the public key, hashed once (every append names it)."""
        return key_id(self.public_key_b64)

    @functools.cached_property
    def _private(self) -> Ed25519PrivateKey:
        """The private key, checked against the public key the file names: before its
        first signature and before the public key is registered anywhere (``DamagedFile``
        if they do not belong together)."""
        private = Ed25519PrivateKey.from_private_bytes(self._seed)
        if _public_b64(private) != self.public_key_b64:
            raise DamagedFile(self.path, "the public key does not belong to the private key")
        return private

    def checked(self) -> LaptopKeys:
        """These keys once the private key is known to match the public one (raises
        ``DamagedFile`` otherwise)."""
        self._private  # noqa: B018 - made and checked on first use
        return self

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_key_b64)

    def sign(self, data: bytes) -> str:
        """The base64 Ed25519 signature of ``data`` by this laptop."""
        return b64encode(self._private.sign(bytes(data)))

    def local_mac(self, data: bytes) -> str:
        """An HMAC-SHA256 of ``data`` under a key only this laptop holds (derived from its
        private key, which never leaves its config folder): for what it keeps for itself
        in a tournament folder's local ``.cache/`` (a copy of the folder, or a hand edit,
        cannot make it) -- without loading the crypto library."""
        key = hashlib.sha256(b"fieldjudge local cache\0" + self._seed).digest()
        return hmac.new(key, bytes(data), hashlib.sha256).hexdigest()

    @classmethod
    def load_or_create(
        cls,
        config_dir: Path | str | None = None,
        name: str | None = None,
        *,
        shared_folders: Iterable[Path | str] = (),
        now: datetime | None = None,
        check: bool = True,
    ) -> LaptopKeys:
        """Load this laptop's key, making it (named ``name``, else the host name) if absent.
        ``check=False``: the private key is checked against the public key on first use
        (:meth:`checked`; a run that signs nothing reads a damaged key file without failing).

        ``shared_folders`` (the data folder, the tournament folder) must not contain the
        config folder: :class:`KeyInSharedFolder` otherwise, before anything is written.
        ``name`` is used only when the key is made; :meth:`rename` changes it later.
        """
        folder = Path(config_dir) if config_dir is not None else default_config_dir()
        folder = folder.expanduser().absolute()
        for shared in shared_folders:
            shared_abs = Path(shared).expanduser().absolute()
            if folder.resolve().is_relative_to(shared_abs.resolve()):
                raise KeyInSharedFolder(folder, shared_abs)
        path = folder / KEY_FILE
        _clean_stale_temp_files(folder)
        if path.exists():
            keys = cls._load(path)
            return keys.checked() if check else keys

        clean = check_laptop_name(name if name is not None else socket.gethostname() or "laptop")
        make_dirs(folder, mode=0o700)
        private = Ed25519PrivateKey.generate()
        created = (now or datetime.now(UTC)).isoformat()
        if not _create_exclusive(path, _document(private, clean, created)):
            return cls._load(path).checked()  # another process made the key first
        return cls(path, clean, _public_b64(private), created, _seed_of(private))

    @classmethod
    def _load(cls, path: Path) -> LaptopKeys:
        notes: list[str] = []
        try:
            mode = stat.S_IMODE(path.stat().st_mode)
            raw = path.read_bytes()
        except OSError as exc:
            raise DamagedFile(path, "cannot be read: {error}", error=os_error_of(exc)) from exc
        if os.name == "posix" and mode & 0o077:
            os.chmod(path, 0o600)
            notes.append(f"permissions of {path.name} were {mode:04o}, set to 0600")
        doc = json_document(raw, path)
        if not isinstance(doc, dict) or doc.get("schema") != KEY_SCHEMA:
            raise DamagedFile(path, "not a fieldjudge laptop key (schema 1)")
        seed = b64decode_strict(doc.get("private_key", ""))
        if seed is None or len(seed) != 32:
            raise DamagedFile(path, "the private key is not 32 bytes of base64")
        public = doc.get("public_key")
        if not isinstance(public, str) or not public:
            raise DamagedFile(path, "the public key does not belong to the private key")
        try:
            name = check_laptop_name(str(doc.get("name", "")))
        except BadLaptopName as exc:
            raise DamagedFile(path, "bad laptop name: {fault}", fault=exc.fault) from exc
        return cls(path, name, public, str(doc.get("created", "")), seed, tuple(notes))

    def rename(self, name: str) -> LaptopKeys:
        """The same key under a new name, written atomically (still 0600)."""
        clean = check_laptop_name(name)
        tmp = self.path.with_name(f"{KEY_FILE}.{secrets.token_hex(4)}.tmp")
        _write_private(tmp, _document(self._private, clean, self.created))
        os.replace(tmp, self.path)
        fsync_dir(self.path.parent)
        return LaptopKeys(self.path, clean, self.public_key_b64, self.created, self._seed)


def _document(private: Ed25519PrivateKey, name: str, created: str) -> bytes:
    seed = _seed_of(private)
    doc: dict[str, Any] = {
        "schema": KEY_SCHEMA,
        "kind": "fieldjudge-laptop-key",
        "name": name,
        "created": created,
        "public_key": _public_b64(private),
        "private_key": b64encode(seed),
    }
    return orjson.dumps(doc, option=orjson.OPT_INDENT_2)


def _write_private(path: Path, payload: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        write_all(fd, payload)
        os.fsync(fd)
    finally:
        os.close(fd)


def _create_exclusive(path: Path, payload: bytes) -> bool:
    """Write ``path`` only if it does not exist; False if someone else made it first."""
    tmp = path.with_name(f"{KEY_FILE}.{secrets.token_hex(4)}.tmp")
    _write_private(tmp, payload)
    try:
        os.link(tmp, path)
    except FileExistsError:
        return False
    finally:
        tmp.unlink(missing_ok=True)
    fsync_dir(path.parent)
    return True


def _clean_stale_temp_files(folder: Path, now: float | None = None) -> None:
    """Remove temp key files left by a process killed mid-write (older than a minute, so a
    process creating the key right now keeps its own)."""
    if not folder.is_dir():
        return
    limit = (time.time() if now is None else now) - STALE_TEMP_S
    for tmp in folder.glob(f"{KEY_FILE}.*.tmp"):
        try:
            if tmp.stat().st_mtime < limit:
                tmp.unlink()
        except OSError:
            pass
