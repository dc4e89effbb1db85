"""How long a laptop must wait before the next try of the head judge's secret.

Pure policy (no clock: ``now`` and the attempt times come in as POSIX seconds). The store
keeps the attempts in an append-only log per laptop (``store/auth_log.py``), so reopening
the app does not reset the count.

- An *attempt* is written before the secret is checked, and a *success* line after a right
  one; so an attempt not followed by a success counts as a failure, even when the app was
  killed in between (killing the app cannot buy free tries).
- The first 3 failures since the last success cost nothing; after the 3rd the laptop waits
  30 s, after the 4th 60 s, then 120 s, 240 s ... capped at 15 minutes.
- The wait runs from the last failure and is never longer than its step, so a laptop clock
  set back (``now`` earlier than the last failure) cannot lock the head judge out for hours.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

FREE_FAILURES = 3
FIRST_DELAY_S = 30.0
MAX_DELAY_S = 15 * 60.0

ATTEMPT = "attempt"  # written before checking; a failure unless a success follows
FAILURE = "failure"  # a failure recorded after the check
SUCCESS = "success"
RESULTS = (ATTEMPT, FAILURE, SUCCESS)


def delay_after(count: int) -> float:
    """The wait after ``count`` failures in a row: 0, 0, 0, 30, 60, 120, ... <= 900 s."""
    if count < FREE_FAILURES:
        return 0.0
    return min(FIRST_DELAY_S * 2.0 ** (count - FREE_FAILURES), MAX_DELAY_S)


def backoff_after(failures: Sequence[float], now: float) -> float:
    """Seconds to wait at ``now`` after ``failures`` (their times, since the last success)."""
    delay = delay_after(len(failures))
    if not delay:
        return 0.0
    last = max(failures)
    return max(0.0, min(delay, last + delay - now))


def failures_since_success(attempts: Iterable[tuple[float, str]]) -> list[float]:
    """Times of the failures after the last success, given ``(time, result)`` in file order.

    File order, not time order, decides what "after" means: the clock may jump.
    """
    failures: list[float] = []
    for t, result in attempts:
        if result == SUCCESS:
            failures = []
        else:
            failures.append(t)
    return failures
