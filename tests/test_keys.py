"""The laptop's Ed25519 key (store/keys.py) and signature checks (services/trust/signing.py):
made once and reused, 0600 in the config folder, never in a tournament folder; a signature
fails after any byte of the data changes."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fieldjudge.rules.key_ids import fingerprint, key_id, signature_fingerprint
from fieldjudge.services.trust.head_judge import HeadJudgeKey, ScryptParams
from fieldjudge.services.trust.signing import signed_message, verify_signature
from fieldjudge.store.auth_log import AuthLog
from fieldjudge.store.errors import DamagedFile
from fieldjudge.store.keys import (
    KEY_FILE,
    BadLaptopName,
    KeyInSharedFolder,
    LaptopKeys,
)

FAST = ScryptParams(n=2**10, r=8, p=1)
ROOT = Path(__file__).resolve().parent.parent


def _seed(keys: LaptopKeys) -> bytes:
    return base64.b64decode(json.loads(keys.path.read_text())["private_key"])


def test_key_is_made_once_and_reused(tmp_path: Path) -> None:
    first = LaptopKeys.load_or_create(tmp_path / "cfg", "Поле 1")
    stored = first.path.read_bytes()
    again = LaptopKeys.load_or_create(tmp_path / "cfg", "another name")
    assert again.laptop_id == first.laptop_id
    assert again.public_key_b64 == first.public_key_b64
    assert again.name == "Поле 1"  # the name is set when the key is made
    assert first.path.read_bytes() == stored
    assert sorted(p.name for p in (tmp_path / "cfg").iterdir()) == [KEY_FILE]
    assert verify_signature(first.public_key_b64, b"x", again.sign(b"x"))


def test_private_key_file_is_0600_in_a_0700_folder(tmp_path: Path) -> None:
    keys = LaptopKeys.load_or_create(tmp_path / "cfg", "Поле 1")
    assert stat.S_IMODE(keys.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(keys.path.parent.stat().st_mode) == 0o700
    assert keys.notes == ()


def test_too_open_permissions_are_tightened_and_reported(tmp_path: Path) -> None:
    keys = LaptopKeys.load_or_create(tmp_path / "cfg", "Поле 1")
    os.chmod(keys.path, 0o644)
    again = LaptopKeys.load_or_create(tmp_path / "cfg")
    assert stat.S_IMODE(keys.path.stat().st_mode) == 0o600
    assert again.notes == ("permissions of laptop_key.json were 0644, set to 0600",)


def test_laptop_id_is_the_start_of_sha256_of_the_public_key(tmp_path: Path) -> None:
    keys = LaptopKeys.load_or_create(tmp_path / "cfg", "Поле 1")
    raw = base64.b64decode(keys.public_key_b64)
    assert len(raw) == 32
    expected = hashlib.sha256(raw).hexdigest()[:16]
    assert keys.laptop_id == expected == key_id(keys.public_key_b64)
    assert keys.fingerprint == "-".join(expected[i : i + 4] for i in (0, 4, 8, 12))
    assert keys.name == "Поле 1"


def test_config_folder_comes_from_the_environment_when_not_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FIELDJUDGE_CONFIG", str(tmp_path / "from-env"))
    keys = LaptopKeys.load_or_create(name="Поле 2")
    assert keys.path == (tmp_path / "from-env" / KEY_FILE).absolute()
    assert keys.path.is_file()


def test_a_config_folder_inside_the_tournament_is_refused(tmp_path: Path) -> None:
    tournament = tmp_path / "data" / "cup"
    tournament.mkdir(parents=True)
    with pytest.raises(KeyInSharedFolder):
        LaptopKeys.load_or_create(tournament / "keys", "Поле 1", shared_folders=[tournament])
    assert list(tournament.iterdir()) == []
    with pytest.raises(KeyInSharedFolder):
        LaptopKeys.load_or_create(tournament, "Поле 1", shared_folders=[tournament])


def test_private_keys_are_never_written_under_the_tournament_folder(
    tmp_path: Path, demo_folder: Path
) -> None:
    """Everything the services will store for signing goes in: laptop registrations, the
    head judge's record, the attempts log. No form of either private key is in any file."""
    keys = LaptopKeys.load_or_create(
        tmp_path / "cfg", "Поле 1", shared_folders=[demo_folder.parent, demo_folder]
    )
    record, unlocked = HeadJudgeKey.create("судья-демо-2026", FAST)
    registration = {
        "laptop_id": keys.laptop_id,
        "name": keys.name,
        "public_key": keys.public_key_b64,
    }
    (demo_folder / "signing.json").write_text(
        json.dumps({"laptops": [registration], "head_judge_key": record}),
        encoding="utf-8",
    )
    log = AuthLog(demo_folder, keys.laptop_id)
    log.append(1_796_000_000.0, "attempt")
    log.append(1_796_000_001.0, "success")
    head_seed = unlocked._private.private_bytes_raw()
    forms = []
    for seed in (_seed(keys), head_seed):
        forms += [seed, base64.b64encode(seed), seed.hex().encode(), seed.hex().upper().encode()]
        forms.append(base64.urlsafe_b64encode(seed).rstrip(b"="))
    files = [p for p in demo_folder.rglob("*") if p.is_file()]
    assert len(files) >= 5
    assert (demo_folder / "laptops" / keys.laptop_id / "auth.jsonl") in files
    found = [(p.name, f) for p in files for f in forms if f in p.read_bytes()]
    assert found == []
    # the public key is there: the scan would see what is written
    assert keys.public_key_b64.encode() in (demo_folder / "signing.json").read_bytes()


def test_signature_verifies_and_fails_after_any_byte_changes(tmp_path: Path) -> None:
    keys = LaptopKeys.load_or_create(tmp_path / "cfg", "Поле 1")
    data = signed_message("event", hashlib.sha256(b"event 7").hexdigest())
    sig = keys.sign(data)
    assert len(base64.b64decode(sig)) == 64
    assert verify_signature(keys.public_key_b64, data, sig) is True
    for i in range(len(data)):
        changed = bytearray(data)
        changed[i] ^= 0x01
        assert verify_signature(keys.public_key_b64, bytes(changed), sig) is False, i
    assert verify_signature(keys.public_key_b64, data + b"0", sig) is False
    assert verify_signature(keys.public_key_b64, data[:-1], sig) is False


def test_another_laptops_key_or_a_damaged_signature_does_not_verify(tmp_path: Path) -> None:
    a = LaptopKeys.load_or_create(tmp_path / "a", "Поле 1")
    b = LaptopKeys.load_or_create(tmp_path / "b", "Поле 2")
    assert a.laptop_id != b.laptop_id
    data = signed_message("head", "12:" + "ab" * 32)
    sig = a.sign(data)
    assert verify_signature(b.public_key_b64, data, sig) is False
    raw = bytearray(base64.b64decode(sig))
    raw[10] ^= 0x80
    assert verify_signature(a.public_key_b64, data, base64.b64encode(raw).decode()) is False
    for bad_sig in ("", "not base64!", base64.b64encode(b"short").decode(), sig[:-4]):
        assert verify_signature(a.public_key_b64, data, bad_sig) is False
    for bad_key in ("", "AAAA", a.public_key_b64[:-4], "ü"):
        assert verify_signature(bad_key, data, sig) is False


def test_a_signature_for_one_purpose_is_not_one_for_another(tmp_path: Path) -> None:
    keys = LaptopKeys.load_or_create(tmp_path / "cfg", "Поле 1")
    digest = "cd" * 32
    sig = keys.sign(signed_message("event", digest))
    assert signed_message("event", digest) == b"fieldjudge/v1/event/" + digest.encode()
    assert verify_signature(keys.public_key_b64, signed_message("head_judge", digest), sig) is False
    with pytest.raises(ValueError):
        signed_message("anything", digest)
    with pytest.raises(ValueError):
        signed_message("event", "a b")


def test_fingerprints_are_short_and_printable(tmp_path: Path) -> None:
    keys = LaptopKeys.load_or_create(tmp_path / "cfg", "Поле 1")
    sig = keys.sign(b"head")
    expected = hashlib.sha256(base64.b64decode(sig)).hexdigest()[:16]
    assert signature_fingerprint(sig) == "-".join(expected[i : i + 4] for i in (0, 4, 8, 12))
    assert fingerprint(keys.public_key_b64) == keys.fingerprint
    with pytest.raises(ValueError):
        signature_fingerprint("AAAA")
    with pytest.raises(ValueError):
        fingerprint("AAAA")


def test_a_damaged_key_file_is_named_and_never_overwritten(tmp_path: Path) -> None:
    keys = LaptopKeys.load_or_create(tmp_path / "cfg", "Поле 1")
    doc = json.loads(keys.path.read_text())
    cases = {
        b"{not json": "not valid JSON",
        b"[]": "not a fieldjudge laptop key (schema 1)",
        json.dumps({**doc, "private_key": "AAAA"}).encode(): "the private key is not 32",
        json.dumps(
            {**doc, "public_key": LaptopKeys.load_or_create(tmp_path / "o", "x").public_key_b64}
        ).encode(): "the public key does not belong to the private key",
        json.dumps({**doc, "name": "a\u202eb"}).encode(): "bad laptop name",
    }
    for content, fault in cases.items():
        keys.path.write_bytes(content)
        with pytest.raises(DamagedFile) as info:
            LaptopKeys.load_or_create(tmp_path / "cfg", "Поле 1")
        assert info.value.path == keys.path
        assert info.value.fault.startswith(fault), info.value.fault
        assert keys.path.read_bytes() == content


def test_rename_keeps_the_key_and_bad_names_are_refused(tmp_path: Path) -> None:
    keys = LaptopKeys.load_or_create(tmp_path / "cfg", "Поле 1")
    renamed = keys.rename("  Поле 3  ")
    assert (renamed.name, renamed.laptop_id) == ("Поле 3", keys.laptop_id)
    assert stat.S_IMODE(keys.path.stat().st_mode) == 0o600
    assert LaptopKeys.load_or_create(tmp_path / "cfg").name == "Поле 3"
    for bad in ("", "   ", "x" * 41, "a\x00b", "a\nb", "a\u202eb"):
        with pytest.raises(BadLaptopName):
            LaptopKeys.load_or_create(tmp_path / f"n{len(bad)}{ord(bad[-1:] or ' ')}", bad)
        with pytest.raises(BadLaptopName):
            keys.rename(bad)
    assert sorted(p.name for p in (tmp_path / "cfg").iterdir()) == [KEY_FILE]


def test_processes_starting_together_share_one_key(tmp_path: Path) -> None:
    code = (
        "import sys; from fieldjudge.store.keys import LaptopKeys; "
        "print(LaptopKeys.load_or_create(sys.argv[1], 'Поле 1').laptop_id)"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(tmp_path / "cfg")],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            text=True,
        )
        for _ in range(4)
    ]
    outs = [p.communicate(timeout=60) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], [e for _o, e in outs]
    ids = {o.strip() for o, _e in outs}
    assert ids == {LaptopKeys.load_or_create(tmp_path / "cfg").laptop_id}
    assert sorted(p.name for p in (tmp_path / "cfg").iterdir()) == [KEY_FILE]


def test_a_temp_key_file_left_by_a_kill_is_removed_once_stale(tmp_path: Path) -> None:
    keys = LaptopKeys.load_or_create(tmp_path / "cfg", "Поле 1")
    stale = keys.path.with_name(f"{KEY_FILE}.dead0001.tmp")
    fresh = keys.path.with_name(f"{KEY_FILE}.live0002.tmp")
    for p in (stale, fresh):
        p.write_bytes(b"{}")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    LaptopKeys.load_or_create(tmp_path / "cfg")
    assert sorted(p.name for p in (tmp_path / "cfg").iterdir()) == [KEY_FILE, fresh.name]
