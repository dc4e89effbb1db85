"""The CSV import flow shared by the teams and schedule screens: ask for a path, read and
parse the file in a worker thread with a progress bar, list every bad row (nothing imported),
apply atomically on the app thread, report warnings.

The worker only reads the file and parses it: it never touches a widget or the store and
talks to the screen through `CsvProgress` / `CsvParsed` messages; the store write is the
screen's own ``apply`` call, made on the app thread when `CsvParsed` arrives.  A file over
`fieldjudge.csv_import.MAX_CSV_BYTES` is refused from its size before it is read.
"""

from __future__ import annotations

from collections.abc import Callable

from textual import work
from textual.message import Message
from textual.widgets import ProgressBar
from textual.worker import get_current_worker

from fieldjudge.csv_import import CsvImportError, ParseResult, Progress, read_csv_file
from fieldjudge.i18n import _, rule_text
from fieldjudge.screens.base import JudgeScreen
from fieldjudge.screens.dialogs.forms import (
    Field,
    FormScreen,
    MessageScreen,
    Values,
    head_judge_form,
)
from fieldjudge.screens.widgets.footer import Footer
from fieldjudge.services import Refused, StoreError

MAX_SHOWN = 60  # bad rows listed in the dialog; the count of the rest follows

Parse = Callable[[bytes, Progress], ParseResult]
Apply = Callable[[ParseResult], str]


class CsvProgress(Message):
    """Lines parsed so far (posted by the import worker)."""

    def __init__(self, done: int, total: int, gen: int) -> None:
        super().__init__()
        self.done, self.total, self.gen = done, total, gen


class CsvParsed(Message):
    """The worker is done: a parse result, or why the file was refused."""

    def __init__(self, result: ParseResult | None, error: str | None, gen: int) -> None:
        super().__init__()
        self.result, self.error, self.gen = result, error, gen


class _Cancelled(Exception):
    pass


def listing(lines: list[str]) -> str:
    shown = lines[:MAX_SHOWN]
    more = len(lines) - len(shown)
    if more:
        shown.append(_("… and {n} more").format(n=more))
    return "\n".join(shown)


class CsvImportScreen(JudgeScreen):
    """A screen with a ``reload()`` that imports CSV files: ``self.start_csv_import(...)``,
    and changes the teams or the schedule (``tournament.json``): each ``reload()`` ends
    with :meth:`offer_signature`."""

    _csv_gen = 0
    _csv_apply: Apply | None = None
    importing = False
    #: tournament.json was as the head judge signed it when last looked at (None: not yet)
    _signed: bool | None = None

    def offer_signature(self) -> None:
        """A change just left ``tournament.json`` unsigned (the head judge's key is not
        unlocked in this session): every team would show flagged as changed by hand. On the
        laptop that writes it, the head judge is asked for his secret at once, which signs
        it and every later change of the session; Esc leaves it for T on the home screen,
        and says so. Not asked when it was already unsigned (a hand edit is his to check)."""
        t = self.app.tournament
        signed = not t.tournament_faults()
        was, self._signed = self._signed, signed
        if not was or signed or t.tournament_write_refusal() is not None:
            return

        def run(values: Values) -> str:
            try:
                t.sign_tournament(values["pin"])
            except StoreError as exc:  # a wrong secret, a wait after three
                return rule_text(exc)
            self._signed = True
            self.notify(
                _("The head judge signed the teams and schedule as they are now"), markup=False
            )
            return ""

        def later() -> None:
            self.notify(
                _(
                    "Not signed: every team shows as changed until the head judge signs "
                    "(T on the home screen)"
                ),
                severity="warning",
                markup=False,
            )

        head_judge_form(
            self.app,
            _("The change is not signed: the head judge signs the teams and schedule (Esc: later)"),
            [],
            lambda _v: None,
            run,
            later,
        )

    def start_csv_import(self, title: str, header: str, parse: Parse, apply: Apply) -> None:
        """Ask for the path, then parse it off the UI thread; ``apply`` stores the rows
        (raising `Refused` changes nothing) and returns the message to show."""

        def done(v: Values | None) -> None:
            if v is None:
                return
            self._csv_gen += 1
            self._csv_apply = apply
            self.importing = True
            self._show_progress(0, 1)
            self._csv_worker(v["path"], parse, self._csv_gen)

        field = Field("path", _("File path"), placeholder="~/file.csv")
        note = _("Header") + f": {header}"
        self.app.push_screen(FormScreen(title, [field], note=note), done)

    # -- the worker (a thread: no widgets, no store) ------------------------------------------
    @work(thread=True, exclusive=True, group="csv-import", exit_on_error=False)
    def _csv_worker(self, path: str, parse: Parse, gen: int) -> None:
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if worker.is_cancelled:
                raise _Cancelled
            self.post_message(CsvProgress(done, total, gen))

        try:
            raw = read_csv_file(path)
            result = parse(raw, progress)
        except _Cancelled:
            return
        except (OSError, CsvImportError) as exc:
            self.post_message(CsvParsed(None, str(exc), gen))
            return
        except Exception as exc:  # noqa: BLE001 - a bug still gives a message, not a crash
            msg = _("Import failed") + f": {type(exc).__name__}: {exc}"
            self.post_message(CsvParsed(None, msg, gen))
            return
        self.post_message(CsvParsed(result, None, gen))

    # -- messages (app thread) -----------------------------------------------------------------
    def on_csv_progress(self, message: CsvProgress) -> None:
        if message.gen == self._csv_gen and self.importing:
            self._show_progress(message.done, message.total)

    def on_csv_parsed(self, message: CsvParsed) -> None:
        if message.gen != self._csv_gen:
            return
        self.importing = False
        self._hide_progress()
        if message.error is not None or message.result is None:
            self.notify(message.error or "", severity="error", markup=False)
            return
        result = message.result
        if result.errors:
            self.app.push_screen(
                MessageScreen(_("Nothing imported: fix these rows"), listing(result.errors))
            )
            return
        apply, self._csv_apply = self._csv_apply, None
        if apply is None:
            return
        try:
            msg = apply(result)  # the store write, on the app thread
        except Refused as exc:
            self.app.push_screen(
                MessageScreen(_("Nothing imported: fix these rows"), listing(str(exc).split("; ")))
            )
            return
        self.reload()  # type: ignore[attr-defined]  # the screen's own
        if result.warnings:
            self.app.push_screen(
                MessageScreen(msg, listing([rule_text(w) for w in result.warnings]))
            )
        else:
            self.notify(msg, markup=False)

    def on_unmount(self) -> None:
        """Leaving the screen (Esc) before the worker is done: Textual cancels a screen's
        workers when it goes, so its result would never come. Nothing is imported, and the
        judge is told so (never a silent drop)."""
        if self.importing:
            self.importing = False
            self.app.notify(
                _("Import cancelled: the screen was closed before it finished; nothing imported"),
                severity="warning",
                markup=False,
            )

    # -- the progress bar ----------------------------------------------------------------------
    def _show_progress(self, done: int, total: int) -> None:
        bars = self.query("#csv-progress")
        if bars:
            bar = bars.first(ProgressBar)
        else:
            bar = ProgressBar(total=total, show_eta=False, id="csv-progress")
            bar.tooltip = _("Importing")
            footers = self.query(Footer)
            self.mount(bar, before=footers.first() if footers else None)
        bar.update(total=total, progress=done)

    def _hide_progress(self) -> None:
        for bar in self.query("#csv-progress"):
            bar.remove()
