"""Checking Ed25519 signatures, and what exactly gets signed.

No I/O. Kept out of ``rules/`` on purpose: the rules engines stay free of a native crypto
library, so their import contract stays "standard library and orjson only"; verification is
an application concern (``verify``, merge, the protocol lock), so it lives here.

Every signed message starts with a purpose tag (domain separation), so a signature made for
one purpose can never be replayed as another: a laptop's signature of an event hash is not a
head judge's approval of the same hash, even if one key were ever used for both.
"""

from __future__ import annotations

from functools import lru_cache

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from fieldjudge.rules.key_ids import (
    SIGNATURE_BYTES,
    b64decode_strict,
    fingerprint,
    key_id,
    public_key_bytes,
    signature_fingerprint,
)

#: purposes a message can be signed for (the first field of :func:`signed_message`)
PURPOSES = (
    "event",  # a laptop signs the hash of each event it appends
    "head",  # a laptop signs a game's head (count + hash) at a protocol step
    "head_judge",  # the head judge signs the hash of an authority event
    "tournament",  # the head judge signs each version of tournament.json
    "key_registration",  # the head judge signs a laptop's registration
)


def signed_message(purpose: str, digest: str) -> bytes:
    """The bytes to sign for ``purpose`` over ``digest`` (a hex hash, or ``count:hash``)."""
    if purpose not in PURPOSES:
        raise ValueError(f"unknown signing purpose {purpose!r}")
    if digest.split() != [digest]:  # empty or holding white space
        raise ValueError("the digest must be a non-empty string without spaces")
    return f"fieldjudge/v1/{purpose}/{digest}".encode("ascii")


@lru_cache(maxsize=256)
def _public_key(public_key_b64: str) -> Ed25519PublicKey:
    """The key object of a base64 public key, made once per key (a folder holds a few
    laptops' keys and the head judge's; an export checks every event's signature with
    them: issue 24); ``ValueError`` if it is not one (never cached)."""
    return Ed25519PublicKey.from_public_bytes(public_key_bytes(public_key_b64))


def verify_signature(public_key_b64: str, data: bytes, signature_b64: str) -> bool:
    """True if ``signature_b64`` is this key's Ed25519 signature of ``data``.

    Never raises: a malformed key or signature is simply not a valid signature. The
    standard Ed25519 (RFC 8032), checked by the library that makes the signatures.
    """
    try:
        key = _public_key(public_key_b64)
    except (ValueError, TypeError):
        return False
    sig = b64decode_strict(signature_b64)
    if sig is None or len(sig) != SIGNATURE_BYTES:
        return False
    try:
        key.verify(sig, bytes(data))
    except (InvalidSignature, ValueError, TypeError):
        return False
    return True


__all__ = [
    "PURPOSES",
    "fingerprint",
    "key_id",
    "signature_fingerprint",
    "signed_message",
    "verify_signature",
]
