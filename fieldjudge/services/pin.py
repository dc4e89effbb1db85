"""The head judge's PIN, stored as a salted scrypt hash, never in clear."""

from __future__ import annotations

import hashlib
import hmac
import os

N, R, P = 2**14, 8, 1


def hash_pin(pin: str, salt: bytes | None = None) -> dict[str, object]:
    salt = salt or os.urandom(16)
    digest = hashlib.scrypt(pin.encode(), salt=salt, n=N, r=R, p=P, dklen=32)
    return {"algo": "scrypt", "n": N, "r": R, "p": P, "salt": salt.hex(), "hash": digest.hex()}


def check_pin(pin: str, stored: dict[str, object] | None) -> bool:
    if not stored:
        return False
    salt = bytes.fromhex(str(stored["salt"]))
    digest = hashlib.scrypt(
        pin.encode(),
        salt=salt,
        n=int(str(stored["n"])),
        r=int(str(stored["r"])),
        p=int(str(stored["p"])),
        dklen=32,
    )
    return hmac.compare_digest(digest.hex(), str(stored["hash"]))
