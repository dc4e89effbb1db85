"""Base classes for every fieldjudge screen.

A screen's keys are rows of the one keymap (``screens/keymap.py``):
``BINDINGS = keymap.bindings("game")``. Their descriptions are English gettext message ids:
the footer (``screens/widgets/footer.py``), the help screen and the command palette
(``screens/palette.py``) show them in the UI language, so the language can be chosen after
import (``--lang``) without touching Textual's binding tables.
"""

from __future__ import annotations

from typing import TypeVar, cast

from textual.events import Key
from textual.screen import ModalScreen, Screen

from fieldjudge.screens.keys import APP_KEYS, run_binding_now
from fieldjudge.screens.widgets.prompt import hand_on

ResultType = TypeVar("ResultType")


class _Judge:
    """What every fieldjudge screen shares: Esc (or Enter) on a screen asked for an answer
    closes it with none; a key typed ahead of the screen that covers this one goes on to
    it."""

    def action_cancel(self) -> None:
        cast(Screen, self).dismiss(None)

    async def on_key(self, event: Key) -> None:
        """Keys in the order typed, on every screen (a screen's own handler runs first):

        - a key that reaches this screen runs its binding here and now
          (:func:`~fieldjudge.screens.keys.run_binding_now`), before the next key reaches
          it; Textual would run it once the key had bubbled up to the app, behind the keys
          already handed to the screen, so ``a`` (a form) and the name typed behind it
          raced, the name's letters read as this screen's keys;
        - a key the app handed to this screen before another one covered it (typed in
          the same burst as the key that opened that one) is no key of this screen: it
          goes on to the screen on top, in the order typed
          (:func:`~fieldjudge.screens.widgets.prompt.hand_on`)."""
        screen = cast(Screen, self)
        if event.key in APP_KEYS:
            return
        if screen.is_active:  # the screen on top
            await run_binding_now(screen, event)
            return
        event.stop()
        event.prevent_default()
        hand_on(screen.app.screen, Key(event.key, event.character))

    action_close = action_cancel


class JudgeScreen(_Judge, Screen):
    HELP_TEXT = ""


class JudgeModal(_Judge, ModalScreen[ResultType]):
    pass
