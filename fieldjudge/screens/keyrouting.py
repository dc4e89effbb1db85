"""No key lost, none misrouted: the app's key router (issue 12, item 9).

Textual hands a key to the focused widget's message queue and goes on with the next key at
once; the key then bubbles up (widget → screen → app, where the screen's bindings run). A
key that opens a dialog therefore runs its action *after* the keys typed right behind it
were already handed to the old screen, which drops them (``t 2 8 2 Enter`` typed fast on
the marker check left the reading empty), and keys handed to a dialog that is closing end
in a dead screen. Two generic rules fix both:

1. **One key at a time.** After a key is handed over, a marker message follows it along the
   same path, a few laps (:class:`KeyDone`); the next key waits until the marker is back
   (the key has been handled at every level, its action run, its dialog pushed or popped). Keys also wait
   while the screen on top is still mounting (no focus yet). Waiting keys keep their order.
2. **A key that closes a dialog never acts on the screen behind.** A printable key equal to
   the one that just closed a dialog is ignored for :data:`GUARD_S` seconds on the screen that
   was under it (the judge's extra ``c`` after the last inspection mark no longer opens the
   in-game chrono). Enter, Escape, Tab and control keys are never ignored.

The router lives on the app: ``App.on_event`` routes every key not forwarded yet.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from textual import events
from textual.message import Message
from textual.message_pump import MessagePump
from textual.screen import Screen

# The Russian keyboard layout (ЙЦУКЕН) over the Latin one: the key at the same place.
_RU = "йцукенгшщзхъфывапролджэячсмитьбю"
_EN = "qwertyuiop[]asdfghjkl;'zxcvbnm,."
RU_TO_LATIN = {
    **dict(zip(_RU, _EN, strict=True)),
    **dict(zip(_RU.upper(), _EN.upper(), strict=True)),
}


def latin_twin(event: events.Key) -> events.Key | None:
    """The same key on the Latin layout (``е`` → ``t``, ``Е`` → ``T``), or None."""
    latin = RU_TO_LATIN.get(event.character or "")
    if latin is None or not latin.isalpha():
        return None
    return events.Key(latin, latin)


GUARD_S = 0.6  # a judge's double press, not a deliberate second command
POLL_S = 0.02  # how often waiting keys look at a mounting screen
STUCK_S = 1.0  # a marker lost with its widget (removed meanwhile) stops no key for longer
MOUNTING_S = 0.5  # a mounted screen that focuses nothing takes keys after this


LAPS = 3  # a key's handler posts messages (Input.Submitted) whose handlers post more


class KeyDone(Message, bubble=True):
    """Follows a key along its path. Each time it reaches the app it is sent round again,
    behind whatever the key's handlers posted meanwhile (a Submitted message, then the
    dismissal it causes); after :data:`LAPS` laps the key counts as handled."""

    def __init__(self, serial: int, target: MessagePump, lap: int = 1) -> None:
        super().__init__()
        self.serial = serial
        self.target = target
        self.lap = lap


@dataclass
class _Closed:
    key: str
    at: float
    below: Screen


class KeyRouter:
    """Waiting keys and the closing-key guard of one app.

    ``top`` gives the screen on top now (None while the app closes); ``dispatch`` delivers a key as Textual would
    (``App.on_event``) and returns the node it was handed to (None if the app handled it);
    ``schedule`` runs a callback after a delay on the app's loop (``App.set_timer``);
    ``clock`` is monotonic seconds (the app's injectable clock); ``alive`` says whether a
    node a key went to is still on a screen of the stack (its marker can come back)."""

    def __init__(
        self,
        top: Callable[[], Screen | None],
        dispatch: Callable[[events.Key], Awaitable[MessagePump | None]],
        schedule: Callable[[float, Callable[[], Awaitable[None]]], object],
        clock: Callable[[], float],
        on_swallowed: Callable[[events.Key], None] = lambda _key: None,
        alive: Callable[[MessagePump], bool] = lambda node: bool(node.is_attached),
    ) -> None:
        self._top = top
        self._alive = alive
        self._dispatch = dispatch
        self._schedule = schedule
        self._clock = clock
        self._on_swallowed = on_swallowed
        self._waiting: deque[events.Key] = deque()
        self._armed = False
        self._serial = 0
        self._in_flight: tuple[int, float, MessagePump] | None = None
        self._mounted_since: tuple[Screen, float] | None = None
        self._last_key: tuple[str, float] | None = None
        self._closed: _Closed | None = None

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def ready(self, screen: Screen) -> bool:
        """A screen takes keys once mounted with its focus chosen (or nothing to focus)."""
        if not screen.is_mounted:
            return False
        if screen.focused is not None or not screen.focus_chain:
            return True
        now = self._clock()
        if self._mounted_since is None or self._mounted_since[0] is not screen:
            self._mounted_since = (screen, now)
        return now - self._mounted_since[1] >= MOUNTING_S

    def _busy(self) -> bool:
        if self._in_flight is None:
            return False
        _serial, since, target = self._in_flight
        # the key's widget was removed with its screen (Esc left it): its marker is gone too
        if not self._alive(target) or self._clock() - since > STUCK_S:
            self._in_flight = None
            return False
        return True

    async def route(self, event: events.Key) -> None:
        """Deliver ``event`` now, or after the keys before it (see the module docstring)."""
        self._waiting.append(event)
        await self._release()

    def done(self, marker: KeyDone) -> None:
        """The marker of the key in flight reached the app."""
        if self._in_flight is not None and self._in_flight[0] == marker.serial:
            target = marker.target
            if marker.lap < LAPS and self._alive(target):
                target.post_message(KeyDone(marker.serial, target, marker.lap + 1))
                return
            self._in_flight = None
            if self._waiting:
                self._schedule(0, self._release)

    def screen_closed(self, below: Screen) -> None:
        """A dialog was dismissed; ``below`` is the screen on top now."""
        if self._last_key is None:
            return
        key, at = self._last_key
        now = self._clock()
        if now - at <= GUARD_S:  # closed by that key, not later by a worker
            self._closed = _Closed(key, now, below)

    async def _release(self) -> None:
        while self._waiting:
            top = self._top()
            if top is None:  # the app is closing: no screen takes keys any more
                self._waiting.clear()
                return
            if self._busy():
                self._arm(POLL_S)  # done() releases sooner
                return
            if not self.ready(top):
                self._arm(POLL_S)
                return
            event = self._waiting.popleft()
            if self._swallow(event, top):
                self._on_swallowed(event)
                continue
            self._last_key = (event.key, self._clock())
            target = await self._dispatch(event)
            if target is not None:
                self._serial += 1
                self._in_flight = (self._serial, self._clock(), target)
                target.post_message(KeyDone(self._serial, target))

    def _swallow(self, event: events.Key, screen: Screen) -> bool:
        c = self._closed
        if c is None:
            return False
        if self._clock() - c.at > GUARD_S or screen is not c.below:
            self._closed = None
            return False
        printable = event.character is not None and event.is_printable
        if event.key == c.key and printable and event.key not in ("enter", "escape", "tab"):
            return True
        self._closed = None
        return False

    def _arm(self, delay: float) -> None:
        if not self._armed:
            self._armed = True
            self._schedule(delay, self._fire)

    async def _fire(self) -> None:
        self._armed = False
        await self._release()
