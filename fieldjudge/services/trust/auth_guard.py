"""Rate-limited checks of the head judge's secret on one laptop, across restarts.

Joins the pure policy (``rules/auth_backoff.py``) and the laptop's attempts log
(``store/auth_log.py``). The log is re-read at every check, so a new app (or a new guard
object) on the same folder continues the count. Usage by a service::

    guard = SecretGuard(AuthLog(tournament_dir, laptop.laptop_id))
    unlocked = guard.unlock_head_judge(record, passphrase, now, pinned_public_key=pinned)

or, for a check that is not a key unlock, the three steps (record the failure *before*
telling the user, and prefer :meth:`attempt` before checking so a kill cannot skip it)::

    guard.check_allowed(now)        # raises MustWait
    guard.attempt(now)              # counts as a failure until a success follows
    ok = check(...)
    guard.record_success(now) if ok else ...
"""

from __future__ import annotations

import math
from typing import Any

from fieldjudge.rules.auth_backoff import (
    ATTEMPT,
    SUCCESS,
    backoff_after,
    failures_since_success,
)
from fieldjudge.rules.messages import phrase
from fieldjudge.services.trust.head_judge import (
    HeadJudgeError,
    HeadJudgeKey,
    UnlockedHeadJudge,
    normalize_secret,
)
from fieldjudge.store.auth_log import AuthLog


class MustWait(HeadJudgeError):
    """Too many wrong secrets on this laptop: ``seconds`` to wait (rounded up)."""

    def __init__(self, seconds: int) -> None:
        super().__init__(phrase("wait_before_retry", seconds=seconds))
        self.seconds = seconds


class SecretGuard:
    def __init__(self, log: AuthLog, what: str = "head_judge") -> None:
        self.log = log
        self.what = what

    def failures(self) -> list[float]:
        """Times of the failures since the last success (from the log on disk)."""
        return failures_since_success((a.t, a.result) for a in self.log.attempts())

    def wait_seconds(self, now: float) -> float:
        return backoff_after(self.failures(), now)

    def check_allowed(self, now: float) -> None:
        """Raise :class:`MustWait` if this laptop must wait before the next try."""
        wait = self.wait_seconds(now)
        if wait > 0:
            raise MustWait(math.ceil(wait))

    def attempt(self, now: float) -> None:
        self.log.append(now, ATTEMPT, self.what)

    def record_success(self, now: float) -> None:
        self.log.append(now, SUCCESS, self.what)

    def unlock_head_judge(
        self, record: Any, passphrase: str, now: float, pinned_public_key: str | None
    ) -> UnlockedHeadJudge:
        """Check the wait, log the attempt durably, unlock, log the success.

        A too-short passphrase or a record that is not the pinned one is refused without
        counting (no guess was made); a wrong passphrase stays counted as a failure.
        """
        self.check_allowed(now)
        # refusals that involve no guess are raised before anything is logged
        HeadJudgeKey.check_pinned(record, pinned_public_key)  # DamagedRecord, KeyNotPinned
        normalize_secret(passphrase)  # UnusableSecret
        self.attempt(now)
        unlocked = HeadJudgeKey.unlock(record, passphrase, pinned_public_key)
        self.record_success(now)
        return unlocked
