"""A footer that never cuts a key in the middle ("^q Вы…" at 80 columns): the keys that do
not fit whole are left out (F1 and Ctrl+P list every key), the palette key always stays.
A screen may leave out the keys that have nothing to do now (``resting_actions()``: the
game's clock and eliminations once it is over): they still work, and say why not.

Drop-in for Textual's ``Footer`` (``from fieldjudge.screens.widgets.footer import Footer``);
widths follow the padding ``app.tcss`` gives ``FooterKey`` (one space before the key and
one before the description)."""

from __future__ import annotations

from typing import Any, TypeAlias

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Footer as TextualFooter

from fieldjudge.i18n import _

__all__ = ["Footer", "is_footer_key", "key_width"]

FooterKey: TypeAlias = Any  # Textual's footer key: its class is not exported (``is_footer_key``)


def is_footer_key(widget: object) -> bool:
    """One key of Textual's footer, known by its type's name (the CSS type ``FooterKey``
    that ``app.tcss`` styles): Textual does not export the class."""
    return isinstance(widget, Widget) and type(widget).__name__ == "FooterKey"


def key_width(key: FooterKey) -> int:
    width = 1 + cell_len(key.key_display)
    if key.description:
        width += 1 + cell_len(key.description)
    return width


def _settle_compact(key: FooterKey, compact: bool) -> None:
    """A key's compact state and its ``-compact`` class as they will end, set before it
    mounts: ``FooterKey`` sets the class in a watcher, at mount and again when the footer's
    value is bound to it, and each change of class restyled the key (twice a key)."""
    key.set_reactive(type(key).compact, compact)
    key.set_class(compact, "-compact", update=False)


class Footer(TextualFooter):
    _fitted_width: int | None = None
    _composed: Any = None  # what the keys shown were made from (see _shown)

    def _width(self) -> int:
        return self.size.width or self.app.size.width

    def _shown(self) -> Any:
        """What the keys depend on: the screen's shown bindings and the width. Textual
        recomposes the footer whenever any binding changes (focus moves, the screen
        mounts, the app resizes): with the same keys in the same width it is left alone
        (each new key is a widget styled and laid out again: the home screen's first
        frame made its keys six times)."""
        return (
            self._width(),
            self.compact,
            self.show_command_palette,
            self._resting(),
            tuple(
                (b.key, b.key_display, b.description, b.action, b.group, enabled, tooltip)
                for (_node, b, enabled, tooltip) in self.screen.active_bindings.values()
                if b.show or b.action == "command_palette"
            ),
        )

    def _resting(self) -> frozenset[str]:
        """The actions the screen says have nothing to do now (none if it says nothing)."""
        resting = getattr(self.screen, "resting_actions", None)
        return resting() if callable(resting) else frozenset()

    async def recompose(self) -> None:
        if not self.is_attached:
            return  # a footer of a screen already closed (Textual's recompose does the same)
        shown = self._shown()
        if shown is not None and shown == self._composed:
            return
        await super().recompose()

    def compose(self) -> ComposeResult:
        # The keys from the first compose (Textual's footer composes empty, then again with
        # the keys once the screen publishes its bindings: every key styled, mounted and
        # laid out twice, and a first frame without them). A binding that changes later
        # recomposes as before (``recompose`` compares what the keys were made from).
        self.bindings_changed(self.screen)  # Textual's footer composes its keys from now on
        self._composed = self._shown()
        resting = self._resting()
        items = [i for i in super().compose() if not (is_footer_key(i) and i.action in resting)]
        keys = [i for i in items if is_footer_key(i) and "-command-palette" not in i.classes]
        others = [i for i in items if i not in keys]
        for item in items:
            if is_footer_key(item):  # the descriptions in the UI language
                item.description = _(item.description) if item.description else ""
                # the keys bound to the footer's compact state; the palette key keeps its own
                _settle_compact(item, self.compact if item in keys else item.compact)
        # the palette key is docked right with a border and a trailing space; one more
        # column keeps a gap before it
        room = self._width() - sum(key_width(i) + 3 for i in others if is_footer_key(i))
        used = 0
        for key in keys:
            used += key_width(key)
            if used > room:
                break
            yield key
        yield from others

    def on_resize(self, event: events.Resize) -> None:
        if event.size.width != self._fitted_width:
            self._fitted_width = event.size.width
            self.call_after_refresh(self.recompose)
