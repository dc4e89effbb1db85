"""Pre-game marker check (19) and in-game reading analysis (20.02).  Pure: no I/O, no clock.

Readings are anything with ``.fps`` and ``.t`` (a `fieldjudge.devices.parsers.Reading`, a
`Shot`) or ``(fps, t)`` pairs; ``t`` is the host's monotonic time in seconds when the frame
arrived (no supported chronograph sends its own timestamps, so the 95 ms and 100 ms tests
rest on host stamps).  The after-release press time must be on the same clock
(``time.monotonic()`` in the UI).

RULES.md "Timing a string of shots": a reading may carry ``lag`` (seconds: the frame arrived
in ``[t - lag, t]``; infinite = its time is unknown: frames that arrived together in one read,
a typed reading) and ``device_ms`` (the device's own interval to its previous shot).  The
interval between two consecutive shots is **measured** when the device timed it, or when both
stamps are known and together uncertain by at most ``timing_uncertainty_ms``; it is then judged
at the longest it may have been (``t2 - t1 + lag1``), so a stamp taken late never makes a legal
marker look fast.  Otherwise it is **unknown**: it never counts toward a rate-of-fire
violation, and a check with no measured interval asks for another string.

Thresholds come from a settings mapping (tournament settings), keys as in
`fieldjudge.rules.paintball.setup.ChronoSettings`; an object with those attributes works too:

======================  =======  ==========================================================
key                     default  rule
======================  =======  ==========================================================
limit_fps               300      19.05 velocity must not exceed; 20.03 over it → removal
rof_min_interval_ms     95       20.02 two consecutive shots closer than this → fail
after_release_ms        100      19.05 a shot after trigger release later than this → fail
after_release_shots     1        19.05 more shots than this after release → fail
after_release_window_   500      19.05 only shots this long after "released" count; later
ms                               ones are a new string (RULES.md "After-release test")
timing_uncertainty_ms   50       an interval whose two stamps may be off by more → unknown
max_balls               140      19.05 balls a judge may use on one marker (not a test)
fps_precision           whole    20.02/20.03 reading judged on whole fps rounded down
======================  =======  ==========================================================

The 140 balls limit the judges (19.05), they are not a test: at the limit `balls_notice`
says so and the verdict is taken on the tests done (a required test not done → not
admitted). Restarting a check does not reset the count: pass `balls_before`.
The acceptance of 19.03 (foreign object, loose parts, a tool-less adjuster) and the forbidden-
mode step of 19.04 are tests when the caller passes `acceptance` / `modes`.

Comparisons are made on milliseconds rounded to 0.001 ms, so float noise never turns an
exact 95.000 ms gap into a failure: 94 ms fails, 95 ms and 96 ms pass (20.02 "not faster
than one shot per 95 ms"); 100 ms after release passes, 101 ms fails (19.05).  Velocity is
strictly "over" on the judged value: with the default whole fps 300.9 passes (300) and 301.0
fails; with ``fps_precision = "exact"`` 300.1 fails (19.05 "не должна превышать 300 фпс").
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from fieldjudge.rules.messages import Measured, Phrase, RuleMessage, joined, phrase, rule
from fieldjudge.rules.paintball.chrono import judged_fps

ACCEPTANCE_ITEMS = ("foreign_object", "loose_parts", "toolless_adjuster")  # 19.03
MODES_OK = "ok"  # 19.04; None = not checked yet
MODES_FORBIDDEN = "forbidden"

DEFAULTS: dict[str, Any] = {
    "limit_fps": 300.0,  # 19.05, 20.03
    "rof_min_interval_ms": 95.0,  # 20.02
    "after_release_ms": 100.0,  # 19.05
    "after_release_shots": 1,  # 19.05
    "after_release_window_ms": 500.0,  # 19.05 (RULES.md "After-release test: the window")
    "timing_uncertainty_ms": 50.0,  # RULES.md "Timing a string of shots"
    "max_balls": 140,  # 19.05
    "fps_precision": "whole",  # 20.02 / 20.03
}

PASS = "pass"
FAIL = "fail"
NOT_DONE = "not_done"


@dataclass(frozen=True, slots=True)
class Shot:
    """One chronograph shot: speed, host time (s), how late that time may be (s; infinite =
    unknown) and the device's own interval to its previous shot (ms) when it gave one."""

    fps: float
    t: float
    lag: float = 0.0
    device_ms: float | None = None

    @property
    def timed(self) -> bool:
        return math.isfinite(self.lag)


@dataclass(frozen=True, slots=True)
class Interval:
    """The interval between shot ``index - 1`` and shot ``index`` (in time order): measured
    (``ms``: the longest it may have been, or the device's own timing) or unknown (``ms``
    None)."""

    index: int
    ms: float | None

    @property
    def measured(self) -> bool:
        return self.ms is not None


@dataclass(frozen=True, slots=True)
class TestResult:
    """One test of a pre-game marker check (19.05) and its outcome."""

    name: str  # velocity | rate_of_fire | after_release | slap | ball_limit
    section: str
    outcome: str  # pass | fail | not_done
    message: str  # a RuleMessage (a str): render(lang) for the UI
    near_limit: bool = False  # within the timing tolerance of its threshold

    @property
    def passed(self) -> bool:
        return self.outcome == PASS


@dataclass(frozen=True, slots=True)
class MarkerCheck:
    """The verdict of 19.05.  `admitted` only when every test passed (19.05: "if any test is
    not passed the marker is not admitted"); the head judge approves the results."""

    admitted: bool
    tests: tuple[TestResult, ...]
    max_fps: float | None
    min_interval_ms: float | None
    shots_after_release: int | None
    after_release_delays_ms: tuple[float, ...]
    balls_used: int
    balls_left: int
    reasons: tuple[str, ...]  # "19.05: …" lines for every test not passed
    # 19.05: the 140 balls limit the judges; a notice (a RuleMessage) once reached
    balls_notice: str | None = None
    refused: bool = False  # 19.03: the marker is not accepted for the check
    unknown_intervals: int = 0  # intervals not measured (never judged, RULES.md)

    def test(self, name: str) -> TestResult:
        return next(t for t in self.tests if t.name == name)


@dataclass(frozen=True, slots=True)
class ReadingAnalysis:
    """20.02 on a series of in-game readings: the fastest and the shortest measured
    interval.  The verdict (20.02-20.05) is `fieldjudge.rules.paintball.chrono.chrono_verdict(
    settings, max_fps, interval_ms=...)`'s."""

    shots: int
    max_fps: float | None
    min_interval_ms: float | None
    unknown_intervals: int = 0  # not measured: never toward 20.02 / 20.05 (RULES.md)


def _setting(settings: Mapping[str, Any] | Any | None, key: str) -> Any:
    if settings is None:
        return DEFAULTS[key]
    if isinstance(settings, Mapping):
        return settings.get(key, DEFAULTS[key])
    return getattr(settings, key, DEFAULTS[key])


def _shot(r: Any) -> Shot:
    if isinstance(r, Shot):
        return r
    if isinstance(r, tuple):
        return Shot(float(r[0]), float(r[1]))
    dev = getattr(r, "device_ms", None)
    lag = float(getattr(r, "lag", 0.0))
    return Shot(float(r.fps), float(r.t), lag, None if dev is None else float(dev))


def _shots(readings: Iterable[Any]) -> list[Shot]:
    return sorted((_shot(r) for r in readings), key=lambda s: s.t)


def _ms(a: float, b: float) -> float:
    return round((b - a) * 1000.0, 3)


def intervals(
    readings: Iterable[Any], max_uncertainty_ms: float = DEFAULTS["timing_uncertainty_ms"]
) -> list[Interval]:
    """Every interval between consecutive shots (sorted by time), measured or unknown
    (RULES.md "Timing a string of shots"; see the module's docstring)."""
    shots = _shots(readings)
    out: list[Interval] = []
    for i in range(1, len(shots)):
        a, b = shots[i - 1], shots[i]
        if b.device_ms is not None and math.isfinite(b.device_ms) and b.device_ms >= 0:
            out.append(Interval(i, round(b.device_ms, 3)))
        elif a.timed and b.timed and (a.lag + b.lag) * 1000.0 <= max_uncertainty_ms:
            out.append(Interval(i, _ms(a.t - a.lag, b.t)))  # the longest it may have been
        else:
            out.append(Interval(i, None))
    return out


def analyze_readings(
    readings: Iterable[Any], max_uncertainty_ms: float = DEFAULTS["timing_uncertainty_ms"]
) -> ReadingAnalysis:
    """20.02: readings of one marker taken in a game → max velocity and minimum interval."""
    shots = _shots(readings)
    ivs = intervals(shots, max_uncertainty_ms)
    return ReadingAnalysis(
        shots=len(shots),
        max_fps=max((s.fps for s in shots), default=None),
        min_interval_ms=min((iv.ms for iv in ivs if iv.ms is not None), default=None),
        unknown_intervals=sum(1 for iv in ivs if not iv.measured),
    )


def check_marker(
    readings: Iterable[Any],
    *,
    slap_fired: bool | None,
    release_t: float | None,
    balls_used: int | None = None,
    settings: Mapping[str, Any] | Any | None = None,
    tolerance_ms: float = 0.0,
    balls_before: int = 0,
    acceptance: Mapping[str, bool | None] | None = None,
    modes: str | None | bool = False,
) -> MarkerCheck:
    """The pre-game marker check of 19.05 (plus the rate of fire of 20.02).

    * `readings` — every reading of this marker during the check, in any order.
    * `slap_fired` — slap test (19.05): False = did not fire (pass), True = fired (fail),
      None = not done.
    * `release_t` — host time the judge marked "trigger released" (19.05); None = not done.
      Readings within ``after_release_window_ms`` after it are shots after release; later
      ones are a new string (RULES.md "After-release test: the window").  A shot whose
      time is too uncertain to tell whether it came before the release or inside the
      window leaves the test not done (press "released" again).
    * `balls_used` — balls spent on this marker; defaults to the number of readings (a ball
      the radar missed is still a ball, so the screen should let the judge add those).
    * `tolerance_ms` — the serial timing tolerance (`timing_tolerance`); only marks results
      as `near_limit`, it never changes a verdict.
    * `balls_before` — balls already used on this marker before the check was restarted
      (19.05: a restart does not reset the count).
    * `acceptance` — 19.03, by item of `ACCEPTANCE_ITEMS`: True = found (the marker is
      refused), False = checked and clean, None = not checked yet. Omitted: no such test.
    * `modes` — 19.04 forbidden-mode step: "ok", "forbidden" or None (not checked yet).
      Omitted (False): no such test.
    """
    shots = _shots(readings)
    limit = _setting(settings, "limit_fps")
    rof = _setting(settings, "rof_min_interval_ms")
    ar_ms = _setting(settings, "after_release_ms")
    ar_shots = int(_setting(settings, "after_release_shots"))
    max_balls = int(_setting(settings, "max_balls"))
    used = (len(shots) if balls_used is None else int(balls_used)) + int(balls_before)
    precision = str(_setting(settings, "fps_precision"))
    tests: list[TestResult] = []
    refused = False

    # 19.03: the chrono judge accepts the marker for the check
    if acceptance is not None:
        found = [k for k in ACCEPTANCE_ITEMS if acceptance.get(k) is True]
        pending = [k for k in ACCEPTANCE_ITEMS if acceptance.get(k) is None]
        if found:
            refused = True
            msg = rule("acceptance_refused", items=joined([acceptance_item(k) for k in found]))
            tests.append(TestResult("acceptance", "19.03", FAIL, msg))
        elif pending:
            msg = rule("acceptance_pending", items=joined([acceptance_item(k) for k in pending]))
            tests.append(TestResult("acceptance", "19.03", NOT_DONE, msg))
        else:
            tests.append(TestResult("acceptance", "19.03", PASS, rule("acceptance_ok")))

    # 19.04: forbidden modes
    if modes is not False:
        if modes == MODES_FORBIDDEN:
            tests.append(TestResult("modes", "19.04", FAIL, rule("modes_forbidden")))
        elif modes == MODES_OK:
            tests.append(TestResult("modes", "19.04", PASS, rule("modes_ok")))
        else:
            tests.append(TestResult("modes", "19.04", NOT_DONE, rule("modes_not_done")))

    # 19.05 slap test: the marker must not fire from a slap
    if slap_fired is None:
        tests.append(TestResult("slap", "19.05", NOT_DONE, rule("slap_not_done")))
    elif slap_fired:
        tests.append(TestResult("slap", "19.05", FAIL, rule("slap_fired")))
    else:
        tests.append(TestResult("slap", "19.05", PASS, rule("slap_passed")))

    # 19.05 velocity over the radar chrono: must not exceed the limit
    max_fps = max((s.fps for s in shots), default=None)
    judged = judged_fps(max_fps, precision)  # shown as read, judged on whole fps by default
    if max_fps is None or judged is None:
        tests.append(TestResult("velocity", "19.05", NOT_DONE, rule("no_velocity")))
    elif judged > limit:
        msg = rule("velocity_over", fps=max_fps, limit=limit)
        tests.append(TestResult("velocity", "19.05", FAIL, msg))
    else:
        tests.append(TestResult("velocity", "19.05", PASS, rule("velocity_ok", fps=max_fps)))

    # 20.02 rate of fire: no two consecutive shots closer than the minimum interval; only
    # measured intervals count (RULES.md "Timing a string of shots")
    ivs = intervals(shots, float(_setting(settings, "timing_uncertainty_ms")))
    unknown = sum(1 for iv in ivs if not iv.measured)
    gap = min((iv.ms for iv in ivs if iv.ms is not None), default=None)
    if gap is None:
        msg = rule("rof_unknown", n=unknown) if unknown else rule("rof_not_timed")
        tests.append(TestResult("rate_of_fire", "20.02", NOT_DONE, msg))
    else:
        near = abs(gap - rof) <= tolerance_ms
        ok = gap >= rof
        msg = _rof_interval(gap, rof, ok, tolerance_ms if near else None, unknown)
        tests.append(TestResult("rate_of_fire", "20.02", PASS if ok else FAIL, msg, near))

    # 19.05 after release: at most one shot, no later than 100 ms after the release, among
    # the shots of the window after it (RULES.md "After-release test: the window")
    delays: tuple[float, ...] = ()
    n_after: int | None = None
    window = float(_setting(settings, "after_release_window_ms")) / 1000.0
    if release_t is None:
        tests.append(TestResult("after_release", "19.05", NOT_DONE, rule("after_release_not_done")))
    elif any(_straddles(s, release_t, release_t + window) for s in shots):
        tests.append(TestResult("after_release", "19.05", NOT_DONE, rule("after_release_unknown")))
    else:
        # judged at the earliest each shot may have come (its stamp less its lag)
        delays = tuple(
            _ms(release_t, s.t - s.lag) for s in shots if release_t <= s.t <= release_t + window
        )
        n_after = len(delays)
        late = [d for d in delays if d > ar_ms]
        problems = []
        if n_after > ar_shots:
            problems.append(phrase("shots_after_release", n=n_after, limit=ar_shots))
        if late:
            problems.append(phrase("late_after_release", d=Measured(max(late)), limit=ar_ms))
        near = any(abs(d - ar_ms) <= tolerance_ms for d in delays)
        if problems:
            msg = rule("after_release_failed", problems=joined(problems))
        elif n_after:
            msg = rule("one_after_release", d=Measured(delays[0]))
        else:
            msg = rule("none_after_release")
        tests.append(TestResult("after_release", "19.05", FAIL if problems else PASS, msg, near))

    # 19.05 balls: the limit binds the judges, it is not a test (RULES.md)
    notice = rule("balls_limit_reached", used=used, limit=max_balls) if used >= max_balls else None

    reasons = tuple(t.message for t in tests if not t.passed)
    return MarkerCheck(
        admitted=not reasons,
        tests=tuple(tests),
        max_fps=max_fps,
        min_interval_ms=gap,
        shots_after_release=n_after,
        after_release_delays_ms=delays,
        balls_used=used,
        balls_left=max(0, max_balls - used),
        reasons=reasons,
        balls_notice=notice,
        refused=refused,
        unknown_intervals=unknown,
    )


def acceptance_item(key: str) -> Phrase:
    """An item of the acceptance for the check (19.03) in words; an unknown key as is."""
    return phrase(f"acceptance_{key}") if key in ACCEPTANCE_ITEMS else Phrase(str(key))


def _rof_interval(
    gap: float, minimum: float, ok: bool, tolerance: float | None, unknown: int
) -> RuleMessage:
    """20.02: the shortest measured interval; ``tolerance`` given when it is within the
    timing tolerance; ``unknown`` intervals not measured (never judged)."""
    none = Phrase("")
    return rule(
        "rof_interval",
        gap=Measured(gap),
        under=none if ok else phrase("rof_under", m=minimum),
        near=none if tolerance is None else phrase("rof_tolerance", t=tolerance),
        also=phrase("rof_not_measured", n=unknown) if unknown else none,
    )


def _straddles(shot: Shot, start: float, end: float) -> bool:
    """Whether `shot` may have come inside ``[start, end]`` but its time cannot tell whether
    it did: its arrival window ``[t - lag, t]`` overlaps the window without lying in it."""
    lo, hi = shot.t - shot.lag, shot.t
    overlaps = hi >= start and lo <= end
    inside = lo >= start and hi <= end
    return overlaps and not inside


# --------------------------------------------------------------------------- timing tolerance


@dataclass(frozen=True, slots=True)
class TimingTolerance:
    """What the serial link does to host timestamps.

    * `frame_ms` — time to transmit one frame (10 bits per byte for 8N1) at the baud.
    * `latency_ms` — USB-serial adapter latency timer (FTDI default 16 ms; 1 ms in low-latency
      mode): a finished frame may wait this long in the adapter.
    * `period_ms` — the device's message period for streaming radars (0 = sends on detect).

    A stamp lags the shot by `frame_ms` plus 0…(`latency_ms` + `period_ms`).  The constant
    frame time cancels in the gap between two readings, so a gap is uncertain by
    ±`interval_ms` = `latency_ms` + `period_ms`; the delay after a trigger release (a key
    press stamped on the host at once) may read up to `delay_ms` too long.
    """

    frame_ms: float
    latency_ms: float
    period_ms: float

    @property
    def interval_ms(self) -> float:
        return round(self.latency_ms + self.period_ms, 1)

    @property
    def delay_ms(self) -> float:
        return round(self.frame_ms + self.latency_ms + self.period_ms, 1)


def timing_tolerance(
    baud: int,
    frame_len: int,
    latency_timer_ms: float = 16.0,
    message_period_ms: float = 0.0,
) -> TimingTolerance:
    """The timing tolerance of a serial chronograph link (see `TimingTolerance`)."""
    if baud <= 0 or frame_len < 0:
        raise ValueError("baud must be > 0 and frame_len >= 0")
    frame_ms = round(frame_len * 10 * 1000.0 / baud, 1)  # 8N1: 10 bits a byte
    return TimingTolerance(frame_ms, float(latency_timer_ms), float(message_period_ms))
