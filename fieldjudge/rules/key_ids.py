"""Names of public keys: the laptop id and the short fingerprint printed on protocols.

Pure (hashlib and base64 only). A public key is an Ed25519 key, 32 raw bytes, written as
standard base64 everywhere in fieldjudge's files. Its id is the first 16 hex characters of
SHA-256 over the raw bytes; the fingerprint is the same 16 characters in groups of four,
easy to read aloud and to compare on paper (``1a2b-3c4d-5e6f-7a8b``).
"""

from __future__ import annotations

import base64
import binascii
import hashlib

PUBLIC_KEY_BYTES = 32
SIGNATURE_BYTES = 64
ID_HEX = 16


def b64decode_strict(text: str) -> bytes | None:
    """Standard base64 to bytes, or ``None`` for anything that is not clean base64."""
    if not isinstance(text, str):
        return None
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        return None


def b64encode(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def public_key_bytes(public_key_b64: str) -> bytes:
    """The 32 raw bytes of a base64 public key; ``ValueError`` if it is not one."""
    raw = b64decode_strict(public_key_b64)
    if raw is None or len(raw) != PUBLIC_KEY_BYTES:
        raise ValueError("not a base64 Ed25519 public key (32 bytes)")
    return raw


def key_id(public_key_b64: str) -> str:
    """The stable id of a key: the first 16 hex characters of SHA-256 of its raw bytes."""
    return hashlib.sha256(public_key_bytes(public_key_b64)).hexdigest()[:ID_HEX]


def fingerprint(public_key_b64: str) -> str:
    """The key id in groups of four for printing: ``1a2b-3c4d-5e6f-7a8b``."""
    return _grouped(key_id(public_key_b64))


def signature_fingerprint(signature_b64: str) -> str:
    """A short, printable name of one signature (for the protocol the captains sign).

    ``ValueError`` if the text is not a base64 signature of 64 bytes.
    """
    raw = b64decode_strict(signature_b64)
    if raw is None or len(raw) != SIGNATURE_BYTES:
        raise ValueError("not a base64 Ed25519 signature (64 bytes)")
    return _grouped(hashlib.sha256(raw).hexdigest()[:ID_HEX])


def is_key_id(text: str) -> bool:
    """True for a well-formed key id (16 lowercase hex characters): safe as a folder name."""
    return (
        isinstance(text, str) and len(text) == ID_HEX and all(c in "0123456789abcdef" for c in text)
    )


def _grouped(hex16: str) -> str:
    return "-".join(hex16[i : i + 4] for i in range(0, len(hex16), 4))
