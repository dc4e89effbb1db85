"""Keys of every screen: the one Russian-layout table, and a screen's binding run at once.

- **The Russian layout** (ЙЦУКЕН) over the Latin one: a letter typed with the Russian layout
  on acts as the key in its place (``е`` is ``t``, ``Е`` is ``T``), except in text fields
  (a focused ``Input`` or an inline prompt taking text keeps the letter). This table is the
  only one: the app's fallback (``FieldJudgeApp.on_key``), the screens that take their own
  keys (:func:`run_binding_now`) and the inline prompt's choices all read it.
- **A binding run when the key reaches the screen** (:func:`run_binding_now`): every screen
  (``screens/base.py``) handles each key in arrival order, so an action that opens a prompt
  or a form has run before the next key arrives and ``a 4 2 Enter`` typed in one burst
  reaches the prompt (Textual runs non-priority bindings only when the key has bubbled up to
  the app, behind keys already handed to the screen).
"""

from __future__ import annotations

from textual.app import App
from textual.binding import ActiveBinding
from textual.events import Key
from textual.screen import Screen

_RU = "йцукенгшщзхъфывапролджэячсмитьбю"
_EN = "qwertyuiop[]asdfghjkl;'zxcvbnm,."
RU_TO_LATIN: dict[str, str] = {
    **dict(zip(_RU, _EN, strict=True)),
    **dict(zip(_RU.upper(), _EN.upper(), strict=True)),
}
LATIN_TO_RU: dict[str, str] = {latin: ru for ru, latin in RU_TO_LATIN.items()}

# the app's own keys: never taken by a screen's handler (Textual runs them)
APP_KEYS = frozenset({"ctrl+q", "f1", "ctrl+p"})


def latin_letter(character: str | None) -> str | None:
    """The Latin letter in the place of a Russian one (``е`` → ``t``), or None."""
    latin = RU_TO_LATIN.get(character or "")
    return latin if latin is not None and latin.isalpha() else None


#: Russian letters drawn like the Latin letter on the same key: no second name needed
_SAME_GLYPH = frozenset({("c", "с")})


def key_label(key: str, lang: str) -> str:
    """A choice's key as a Russian judge finds it on his keyboard: a Latin letter with the
    Russian letter on the same key («o/щ»), which works as well (issue 25, item 9); the
    key alone in English, or for a digit or a sign."""
    ru = LATIN_TO_RU.get(key, "")
    if lang != "ru" or not (key.isalpha() and ru.isalpha()) or (key, ru) in _SAME_GLYPH:
        return key
    return f"{key}/{ru}"


def key_matches(event: Key, key: str) -> bool:
    """``event`` is ``key``, typed on the Latin layout or on the Russian one."""
    ch = event.character or ""
    return event.key == key or ch == key or (len(key) == 1 and ch == LATIN_TO_RU.get(key))


def binding_for(screen: Screen, event: Key) -> ActiveBinding | None:
    """The active binding of ``screen`` for ``event``: its own key first, else the Latin key
    in its place on the Russian layout."""
    bindings = screen.active_bindings
    active = bindings.get(event.key)
    if active is None and (latin := latin_letter(event.character)) is not None:
        active = bindings.get(latin)
    return active


async def run_binding_now(screen: Screen, event: Key) -> bool:
    """Run the binding ``event`` names on ``screen`` (a widget's or the screen's own, not
    the app's: those stay with Textual) before the next key is handled; True if it ran.

    Only on the screen on top: a key still reaching a screen a dialog covers is handed on
    to the dialog (``screens/base.py``)."""
    if event.key in APP_KEYS or not screen.is_active:
        return False
    active = binding_for(screen, event)
    if (
        active is None
        or isinstance(active.node, App)
        or not active.enabled
        or active.binding.priority
    ):
        return False
    event.stop()
    event.prevent_default()
    await screen.app.run_action(active.binding.action, active.node)
    return True
