"""The head judge's authority: a passphrase that unlocks his Ed25519 signing key.

What is stored (in the tournament, e.g. ``tournament.json`` under ``head_judge_key``) is
:meth:`HeadJudgeKey.create`'s record::

    {"schema": 1, "kind": "fieldjudge-head-judge-key",
     "public_key": "<base64, 32 bytes>",
     "kdf": {"name": "scrypt", "n": 65536, "r": 8, "p": 1, "length": 32,
             "salt": "<base64, 16 bytes>"},
     "cipher": {"name": "aes-256-gcm", "nonce": "<base64, 12 bytes>"},
     "encrypted_private_key": "<base64, 32 + 16 bytes>"}

The passphrase is never stored, not even hashed: scrypt turns it (with the salt) into a
256-bit key that decrypts the private key with AES-GCM. A wrong passphrase fails the
AES-GCM tag (:class:`WrongSecret`); the public key and the KDF parameters are the
authenticated associated data, so none of them can be changed without breaking the tag.

**Why replacing the record does not give anyone the head judge's authority.** What
verification trusts is the head judge's *public key*, and that key is pinned where the
record cannot reach it: it is registered when the tournament is created (signed into its
first, genesis version and into each laptop's registration), and each laptop pins it in its
own config folder the first time it opens the tournament (:func:`pinned_head_judge_key`,
``store/pins.py``); its fingerprint is printed on every protocol. Someone who writes a
record of his own (his passphrase, a new key pair) into the tournament can unlock *that*
record and sign with *that* key, but the signatures verify only against his new public key,
which is not the pinned one, so every event he signs fails verification as a head-judge
event; replacing the public key in the files too is caught by every laptop's own pin. The app also refuses such a record
before signing anything: :meth:`HeadJudgeKey.unlock` with ``pinned_public_key`` raises
:class:`KeyNotPinned` when the record's key is not the pinned one. (This is unlike a stored
PIN hash, where replacing the hash replaced the PIN.)

The KDF cost (scrypt N=2**16, r=8, p=1: 64 MiB and about 0.25 s on the reference laptop;
``benchmarks/bench_kdf.py`` measures it) is the only defence against an offline guess of the
passphrase by someone who copied the folder, hence at least 8 characters. The parameters are
stored in the record, so a later version can raise them without breaking old records.
"""

from __future__ import annotations

import os
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from fieldjudge.rules.key_ids import b64decode_strict, b64encode, fingerprint, key_id
from fieldjudge.rules.messages import Phrase, phrase
from fieldjudge.services.trust.secret_strength import secret_weakness
from fieldjudge.store.pins import HeadJudgePins

MIN_SECRET_CHARS = 8
RECORD_SCHEMA = 1
RECORD_KIND = "fieldjudge-head-judge-key"
#: printed by the demo; a real tournament sets its own at creation
DEMO_PASSPHRASE = "судья-демо-2026"


@dataclass(frozen=True)
class ScryptParams:
    """scrypt cost: memory 128 * n * r bytes, time about linear in n * r * p."""

    n: int = 2**16
    r: int = 8
    p: int = 1

    def check(self) -> None:
        """``ValueError`` unless the parameters are sane (and cannot exhaust memory)."""
        n, r, p = self.n, self.r, self.p
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (n, r, p)):
            raise ValueError("scrypt parameters must be integers")
        if n < 2**10 or n > 2**20 or n & (n - 1):
            raise ValueError("scrypt n must be a power of two from 2**10 to 2**20")
        if not 1 <= r <= 32 or not 1 <= p <= 16:
            raise ValueError("scrypt r must be 1..32 and p 1..16")
        if 128 * n * r > 256 * 2**20:
            raise ValueError("scrypt parameters would need more than 256 MiB")


#: measured on the reference laptop (benchmarks/bench_kdf.py): about 0.25 s, 64 MiB
DEFAULT_PARAMS = ScryptParams()


class HeadJudgeError(Exception):
    """A refusal about the head judge's secret; ``args[0]`` is a rule message (Phrase)."""

    def __init__(self, message: Phrase) -> None:
        super().__init__(message)
        self.message = message


class UnusableSecret(HeadJudgeError):
    """A secret no key is derived from: shorter than the minimum, blank, or holding what
    is no text (:func:`normalize_secret`)."""


class WeakSecret(UnusableSecret):
    """A new secret that is common, repeated, a sequence or otherwise quickly guessed
    (:func:`fieldjudge.services.trust.secret_strength.secret_weakness`)."""


class WrongSecret(HeadJudgeError):
    pass


class KeyNotPinned(HeadJudgeError):
    """The record's public key is not the head judge key the tournament registered."""


class DamagedRecord(HeadJudgeError):
    pass


def normalize_secret(passphrase: str) -> str:
    """NFC form, so the same passphrase typed on another keyboard layout gives the same
    bytes (a composed and a decomposed "й" are one passphrase). Refuses short ones, and
    one holding what is no text (bytes a terminal or a command line could not decode, held
    as lone surrogates): it has no UTF-8 bytes to derive a key from."""
    text = unicodedata.normalize("NFC", str(passphrase))
    if len(text) < MIN_SECRET_CHARS or not text.strip():
        raise UnusableSecret(phrase("secret_too_short", minimum=MIN_SECRET_CHARS))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise UnusableSecret(phrase("secret_not_text")) from None
    return text


def check_new_secret(passphrase: str, context: tuple[str, ...] = ()) -> str:
    """A secret about to be *set*: :func:`normalize_secret`, then :class:`WeakSecret` if it
    is common or trivial (an existing secret is never judged when it unlocks)."""
    secret = normalize_secret(passphrase)
    if (why := secret_weakness(secret, context)) is not None:
        raise WeakSecret(why)
    return secret


def _derive(secret: str, salt: bytes, params: ScryptParams) -> bytes:
    kdf = Scrypt(salt=salt, length=32, n=params.n, r=params.r, p=params.p)
    return kdf.derive(secret.encode("utf-8"))


def _aad(public_raw: bytes, params: ScryptParams, salt: bytes) -> bytes:
    head = f"{RECORD_KIND}/v{RECORD_SCHEMA}/scrypt/{params.n}/{params.r}/{params.p}/"
    return head.encode("ascii") + salt + public_raw


@dataclass(frozen=True)
class UnlockedHeadJudge:
    """The head judge's key, unlocked: sign with it, then drop it (do not keep it around
    longer than the head judge's screen is open)."""

    public_key_b64: str
    _private: Ed25519PrivateKey = field(repr=False, compare=False)

    @property
    def key_id(self) -> str:
        return key_id(self.public_key_b64)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_key_b64)

    def sign(self, data: bytes) -> str:
        """The base64 Ed25519 signature of ``data`` by the head judge."""
        return b64encode(self._private.sign(bytes(data)))


class HeadJudgeKey:
    """Make and unlock the stored record (see the module docstring)."""

    @staticmethod
    def create(
        passphrase: str, params: ScryptParams = DEFAULT_PARAMS, context: tuple[str, ...] = ()
    ) -> tuple[dict[str, Any], UnlockedHeadJudge]:
        """A new key pair locked by ``passphrase``: the record to store, and the key.
        :class:`WeakSecret` for a common or trivial passphrase (``context``: words an
        attacker knows, e.g. the tournament's name)."""
        check_new_secret(passphrase, context)
        return HeadJudgeKey.wrap(Ed25519PrivateKey.generate(), passphrase, params)

    @staticmethod
    def wrap(
        private: Ed25519PrivateKey, passphrase: str, params: ScryptParams = DEFAULT_PARAMS
    ) -> tuple[dict[str, Any], UnlockedHeadJudge]:
        secret = normalize_secret(passphrase)
        params.check()
        salt, nonce = os.urandom(16), os.urandom(12)
        public_raw = private.public_key().public_bytes_raw()
        seed = private.private_bytes_raw()
        key = _derive(secret, salt, params)
        sealed = AESGCM(key).encrypt(nonce, seed, _aad(public_raw, params, salt))
        record = {
            "schema": RECORD_SCHEMA,
            "kind": RECORD_KIND,
            "public_key": b64encode(public_raw),
            "kdf": {
                "name": "scrypt",
                "n": params.n,
                "r": params.r,
                "p": params.p,
                "length": 32,
                "salt": b64encode(salt),
            },
            "cipher": {"name": "aes-256-gcm", "nonce": b64encode(nonce)},
            "encrypted_private_key": b64encode(sealed),
        }
        return record, UnlockedHeadJudge(b64encode(public_raw), private)

    @staticmethod
    def check_pinned(record: Any, pinned_public_key: str | None) -> None:
        """:class:`KeyNotPinned` if the record's key is not ``pinned_public_key`` (given)."""
        if pinned_public_key is not None and _parse(record)[0] != pinned_public_key:
            raise KeyNotPinned(phrase("key_not_pinned"))

    @staticmethod
    def unlock(
        record: Any, passphrase: str, pinned_public_key: str | None = None
    ) -> UnlockedHeadJudge:
        """The head judge's key, if ``passphrase`` is right.

        Raises :class:`KeyNotPinned` (before any KDF work) if ``pinned_public_key`` is given
        and the record holds another key; :class:`UnusableSecret`; :class:`DamagedRecord`;
        :class:`WrongSecret`. Services always pass the pinned key.
        """
        public_b64, params, salt, nonce, sealed = _parse(record)
        HeadJudgeKey.check_pinned(record, pinned_public_key)
        secret = normalize_secret(passphrase)
        public_raw = b64decode_strict(public_b64) or b""
        key = _derive(secret, salt, params)
        try:
            seed = AESGCM(key).decrypt(nonce, sealed, _aad(public_raw, params, salt))
        except InvalidTag:
            raise WrongSecret(phrase("wrong_secret")) from None
        if len(seed) != 32:
            raise DamagedRecord(phrase("damaged_head_judge_record", error="bad key length"))
        private = Ed25519PrivateKey.from_private_bytes(seed)
        if private.public_key().public_bytes_raw() != public_raw:
            raise DamagedRecord(phrase("damaged_head_judge_record", error="key pair mismatch"))
        return UnlockedHeadJudge(public_b64, private)


def pinned_head_judge_key(
    pins: HeadJudgePins, tournament_id: str, public_key_b64: str, name: str = ""
) -> str:
    """The head judge key to trust for a tournament whose files name ``public_key_b64``.

    The first time this laptop opens the tournament it pins that key (in its own config
    folder); afterwards a different key raises :class:`KeyNotPinned` (the tournament's key
    or secret record was replaced). Returns the pinned key.
    """
    pinned = pins.pin(tournament_id, public_key_b64, name)
    if pinned != public_key_b64:
        raise KeyNotPinned(phrase("key_not_pinned"))
    return pinned


def _parse(record: Any) -> tuple[str, ScryptParams, bytes, bytes, bytes]:
    def bad(why: str) -> DamagedRecord:
        return DamagedRecord(phrase("damaged_head_judge_record", error=why))

    if not isinstance(record, dict):
        raise bad("not a record")
    if record.get("schema") != RECORD_SCHEMA or record.get("kind") != RECORD_KIND:
        raise bad("unknown kind or schema")
    kdf, cipher = record.get("kdf"), record.get("cipher")
    if not isinstance(kdf, dict) or kdf.get("name") != "scrypt" or kdf.get("length") != 32:
        raise bad("unknown key derivation")
    if not isinstance(cipher, dict) or cipher.get("name") != "aes-256-gcm":
        raise bad("unknown cipher")
    params = ScryptParams(kdf.get("n"), kdf.get("r"), kdf.get("p"))  # type: ignore[arg-type]
    try:
        params.check()
    except ValueError as exc:
        raise bad(str(exc)) from None
    public_b64 = record.get("public_key")
    public_raw = b64decode_strict(public_b64) if isinstance(public_b64, str) else None
    salt = b64decode_strict(kdf.get("salt", ""))
    nonce = b64decode_strict(cipher.get("nonce", ""))
    sealed = b64decode_strict(record.get("encrypted_private_key", ""))
    if public_raw is None or len(public_raw) != 32:
        raise bad("the public key is not 32 bytes of base64")
    if salt is None or len(salt) < 16 or nonce is None or len(nonce) != 12:
        raise bad("bad salt or nonce")
    if sealed is None or len(sealed) != 32 + 16:
        raise bad("the encrypted key is not 48 bytes")
    return str(public_b64), params, salt, nonce, sealed
