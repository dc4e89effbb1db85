"""Wrong head-judge secrets are logged per laptop in the tournament folder and rate-limited
across restarts (rules/auth_backoff.py, store/auth_log.py, services/trust/auth_guard.py)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fieldjudge.i18n import rule_text
from fieldjudge.rules.auth_backoff import (
    FAILURE,
    MAX_DELAY_S,
    backoff_after,
    delay_after,
    failures_since_success,
)
from fieldjudge.services.trust.auth_guard import MustWait, SecretGuard
from fieldjudge.services.trust.head_judge import (
    HeadJudgeKey,
    KeyNotPinned,
    ScryptParams,
    UnusableSecret,
    WrongSecret,
)
from fieldjudge.store.auth_log import AuthLog, BadLaptopId, read_all

FAST = ScryptParams(n=2**10, r=8, p=1)
SECRET = "ночной-дозор-7"
LAPTOP = "0123456789abcdef"
T0 = 1_796_119_200.0  # 2026-12-01 10:00 UTC, POSIX seconds
ROOT = Path(__file__).resolve().parent.parent


def _results(folder: Path, laptop: str = LAPTOP) -> list[str]:
    return [a.result for a in AuthLog(folder, laptop).attempts()]


# -- the pure policy -----------------------------------------------------------------------


def test_three_failures_are_free_then_the_wait_doubles_up_to_15_minutes() -> None:
    assert [delay_after(n) for n in range(11)] == [
        0.0,
        0.0,
        0.0,
        30.0,
        60.0,
        120.0,
        240.0,
        480.0,
        900.0,
        900.0,
        900.0,
    ]


def test_the_wait_runs_from_the_last_failure() -> None:
    two = [T0, T0 + 1]
    assert backoff_after(two, T0 + 1) == 0.0
    three = [T0, T0 + 1, T0 + 2]
    assert backoff_after(three, T0 + 2) == 30.0
    assert backoff_after(three, T0 + 20) == 12.0
    assert backoff_after(three, T0 + 32) == 0.0
    assert backoff_after([*three, T0 + 40], T0 + 40) == 60.0
    # a clock set back never makes the wait longer than its step
    assert backoff_after(three, T0 - 86_400) == 30.0


def test_a_success_resets_the_count_in_file_order_not_time_order() -> None:
    rows = [(T0, "attempt"), (T0 + 1, "failure"), (T0 + 2, "success"), (T0 - 5, "attempt")]
    assert failures_since_success(rows) == [T0 - 5]
    assert failures_since_success([(T0, "attempt"), (T0 + 1, "success")]) == []
    assert failures_since_success([]) == []


@given(
    st.lists(st.floats(0, 2e9, allow_nan=False), max_size=12),
    st.floats(0, 2e9, allow_nan=False),
    st.floats(0, 1e4, allow_nan=False),
)
def test_the_wait_is_bounded_and_never_grows_while_time_passes(failures, now, later) -> None:
    wait = backoff_after(failures, now)
    assert 0.0 <= wait <= MAX_DELAY_S
    assert backoff_after(failures, now + later) <= wait
    if len(failures) < 3:
        assert wait == 0.0


# -- the store log -------------------------------------------------------------------------


def test_each_attempt_is_one_json_line_in_the_laptops_folder(tmp_path: Path) -> None:
    log = AuthLog(tmp_path, LAPTOP)
    log.append(T0, "attempt")
    log.append(T0 + 1.5, "success", what="marker_check")
    path = tmp_path / "laptops" / LAPTOP / "auth.jsonl"
    assert log.path == path
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert lines == [
        {
            "t": T0,
            "at": "2026-12-01T10:00:00+00:00",
            "laptop": LAPTOP,
            "what": "head_judge",
            "result": "attempt",
        },
        {
            "t": T0 + 1.5,
            "at": "2026-12-01T10:00:01.500000+00:00",
            "laptop": LAPTOP,
            "what": "marker_check",
            "result": "success",
        },
    ]
    with pytest.raises(ValueError):
        log.append(T0, "maybe")


def test_a_laptop_id_is_never_a_path(tmp_path: Path) -> None:
    for bad in ("../../etc", "0123456789ABCDEF", "0123", "", "0123456789abcdeg"):
        with pytest.raises(BadLaptopId):
            AuthLog(tmp_path, bad)
    assert list(tmp_path.iterdir()) == []


def test_a_torn_last_line_is_trimmed_and_a_damaged_line_reported(tmp_path: Path) -> None:
    log = AuthLog(tmp_path, LAPTOP)
    log.append(T0, "attempt")
    with open(log.path, "ab") as f:
        f.write(b"not json\n")
        f.write(b'{"t": 1, "laptop": "x", "what": "head_judge", "result": "attem')  # torn
    assert [a.result for a in log.attempts()] == ["attempt"]
    assert log.damaged_lines == [2]
    log.append(T0 + 1, "failure")
    raw = log.path.read_bytes()
    assert raw.endswith(b"\n") and b"attem\n" not in raw and raw.count(b"\n") == 3
    assert [a.result for a in log.attempts()] == ["attempt", "failure"]
    assert log.damaged_lines == [2]


def test_read_all_gives_every_laptops_attempts(tmp_path: Path) -> None:
    other = "fedcba9876543210"
    AuthLog(tmp_path, LAPTOP).append(T0, "attempt")
    AuthLog(tmp_path, other).append(T0 + 1, "failure")
    AuthLog(tmp_path, other).append(T0 + 2, "success")
    (tmp_path / "laptops" / "not-a-laptop").mkdir()
    got = {k: [a.result for a in v] for k, v in read_all(tmp_path).items()}
    assert got == {LAPTOP: ["attempt"], other: ["failure", "success"]}


# -- the guard -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def made():
    return HeadJudgeKey.create(SECRET, FAST)


def test_after_three_wrong_secrets_the_fourth_try_must_wait(tmp_path: Path, made) -> None:
    record, _ = made
    pinned = record["public_key"]
    guard = SecretGuard(AuthLog(tmp_path, LAPTOP))
    for i in range(3):
        with pytest.raises(WrongSecret):
            guard.unlock_head_judge(record, "неверный-секрет", T0 + i, pinned)
    with pytest.raises(MustWait) as info:
        guard.unlock_head_judge(record, SECRET, T0 + 3, pinned)  # even the right one
    assert info.value.seconds == 29
    assert rule_text(info.value, lang="en") == (
        "Too many wrong secrets on this laptop: try again in 29 s."
    )
    assert rule_text(info.value, lang="ru") == (
        "Слишком много неверных попыток на этом ноутбуке: повторите через 29 с."
    )
    assert _results(tmp_path) == ["attempt"] * 3  # the refused try was not a guess
    unlocked = guard.unlock_head_judge(record, SECRET, T0 + 32, pinned)
    assert unlocked.public_key_b64 == pinned
    assert _results(tmp_path) == ["attempt"] * 4 + ["success"]
    assert guard.failures() == []
    guard.check_allowed(T0 + 32)


def test_refusals_that_are_not_guesses_are_not_counted(tmp_path: Path, made) -> None:
    record, _ = made
    guard = SecretGuard(AuthLog(tmp_path, LAPTOP))
    forged, _ = HeadJudgeKey.create("чужой-пароль-1", FAST)
    with pytest.raises(UnusableSecret):
        guard.unlock_head_judge(record, "1234", T0, record["public_key"])
    with pytest.raises(KeyNotPinned):
        guard.unlock_head_judge(forged, "чужой-пароль-1", T0, record["public_key"])
    assert _results(tmp_path) == []


def test_the_count_survives_a_new_process(tmp_path: Path, made) -> None:
    """Three failures recorded by another process (an app that was closed): a new guard
    object on the same folder makes the laptop wait."""
    code = (
        "import sys\n"
        "from fieldjudge.services.trust.auth_guard import SecretGuard\n"
        "from fieldjudge.store.auth_log import AuthLog\n"
        "g = SecretGuard(AuthLog(sys.argv[1], sys.argv[2]))\n"
        "for i in range(3):\n"
        "    g.check_allowed(float(sys.argv[3]) + i)\n"
        "    g.log.append(float(sys.argv[3]) + i, 'failure')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path), LAPTOP, str(T0)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    guard = SecretGuard(AuthLog(tmp_path, LAPTOP))
    assert guard.failures() == [T0, T0 + 1, T0 + 2]
    assert guard.wait_seconds(T0 + 2) == 30.0
    with pytest.raises(MustWait) as info:
        guard.check_allowed(T0 + 10)
    assert info.value.seconds == 22
    guard.log.append(T0 + 40, FAILURE)  # a 4th after waiting: now 60 s
    assert SecretGuard(AuthLog(tmp_path, LAPTOP)).wait_seconds(T0 + 40) == 60.0
    guard.record_success(T0 + 100)
    assert SecretGuard(AuthLog(tmp_path, LAPTOP)).wait_seconds(T0 + 100) == 0.0


def test_killing_the_app_during_the_check_still_counts_the_try(tmp_path: Path) -> None:
    """The attempt is durable before the slow KDF starts: a kill then cannot buy a free
    try. The child uses the right secret, so only the kill can leave it a failure."""
    record, _ = HeadJudgeKey.create(SECRET, ScryptParams(n=2**17, r=8, p=1))
    (tmp_path / "record.json").write_text(json.dumps(record), encoding="utf-8")
    code = (
        "import json, sys\n"
        "from fieldjudge.services.trust.auth_guard import SecretGuard\n"
        "from fieldjudge.store.auth_log import AuthLog\n"
        "rec = json.loads(open(sys.argv[3], encoding='utf-8').read())\n"
        "g = SecretGuard(AuthLog(sys.argv[1], sys.argv[2]))\n"
        "while True:\n"
        "    g.unlock_head_judge(rec, sys.argv[4], 1796119200.0, rec['public_key'])\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-c", code, str(tmp_path), LAPTOP, str(tmp_path / "record.json"), SECRET],
        env=env,
    )
    path = tmp_path / "laptops" / LAPTOP / "auth.jsonl"
    deadline = time.monotonic() + 60
    while not (path.exists() and path.read_bytes().endswith(b'"attempt"}\n')):
        assert child.poll() is None, "the child ended before writing its attempt"
        assert time.monotonic() < deadline
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    results = _results(tmp_path)
    assert results[-1] == "attempt"
    assert SecretGuard(AuthLog(tmp_path, LAPTOP)).failures() == [T0]
