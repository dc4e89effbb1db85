"""Choose the chronograph port, baud, frame format and unit (remembered on this laptop, with
the identity of the device so a replug accepts only the same chronograph)."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from fieldjudge.devices.parsers import FORMATS, UNIT_TO_FPS
from fieldjudge.devices.ports import BAUD_HINTS, BAUDS, DEFAULT_BAUD, list_chrono_ports
from fieldjudge.i18n import _, number
from fieldjudge.screens import keymap
from fieldjudge.screens.base import JudgeModal
from fieldjudge.screens.dialogs.forms import FormInput, TypedFields
from fieldjudge.screens.widgets.choices import fill_options
from fieldjudge.services.paintball.chrono import ChronoConfig, link_tolerance, with_identity


class ChronoSetupScreen(TypedFields, JudgeModal[ChronoConfig | None]):
    """Returns the new config (also stored for the session) or None when cancelled."""

    CSS_PATH = "chrono.tcss"

    BINDINGS = keymap.bindings("chrono_setup")

    def __init__(self, current: ChronoConfig | None) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        cur = self.current or ChronoConfig("")
        bauds = sorted({*BAUDS, cur.baud})
        with Vertical(classes="dialog chrono-setup"):
            yield Static(_("Chronograph port"), classes="dialog-title", markup=False)
            yield Label(_("Ports found (Enter copies one into the field below)"), markup=False)
            yield OptionList(id="ports", compact=True)
            with Horizontal(classes="setup-row"):  # one row each: the dialog fits 80×24
                yield Label(_("Port"), markup=False)
                yield FormInput(cur.port, id="port", compact=True)
            with Horizontal(classes="setup-row"):
                choices = (
                    (_("Baud"), "baud", [(str(b), b) for b in bauds], cur.baud),
                    (
                        _("Format"),
                        "fmt",
                        [(format_label(f), f) for f in ("auto", *FORMATS)],
                        cur.fmt,
                    ),
                    (
                        _("Unit"),
                        "unit",
                        [(_(UNIT_TEXT.get(u, u)), u) for u in UNIT_TO_FPS],
                        cur.unit,
                    ),
                )
                for label, key, options, value in choices:
                    yield Label(label, markup=False)
                    yield Select(options, value=value, allow_blank=False, id=key, compact=True)
            with Horizontal(classes="setup-row"):
                yield Label(_("Plausible fps"), markup=False)
                lo, hi = cur.plausible
                yield FormInput(f"{lo:g}-{hi:g}", id="plausible", compact=True)
                yield Label(_("outside: an error, never a reading"), markup=False)
            hints = ", ".join(f"{k} {v}" for k, v in BAUD_HINTS.items())
            yield Static(_("Factory bauds") + f": {hints}", classes="dialog-note", markup=False)
            yield Static(_device_text(cur), id="setup-device", classes="dialog-note", markup=False)
            yield Static("", id="setup-tolerance", classes="dialog-note", markup=False)
            yield Static("", id="setup-error", classes="error", markup=False)
            yield Static(
                _("Tab: next field   Ctrl+S: save   Ctrl+R: rescan   Esc: cancel"),
                classes="dialog-keys",
                markup=False,
            )

    def on_mount(self) -> None:
        self.action_rescan()
        self._show_tolerance()
        self.query_one("#ports", OptionList).focus()

    def action_rescan(self) -> None:
        try:
            found = list_chrono_ports()
        except Exception as exc:  # noqa: BLE001 - show, never a traceback
            found = []
            self.query_one("#setup-error", Static).update(_("Cannot list ports") + f": {exc}")
        fill_options(
            self.query_one("#ports", OptionList),
            (Option(Text(p.label), id=p.open_path) for p in found),
            _("No serial ports found"),
        )

    @on(OptionList.OptionSelected, "#ports")
    def port_chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.query_one("#port", Input).value = event.option.id
            self.query_one("#baud", Select).focus()

    @on(Select.Changed)
    def _changed(self, _event: Select.Changed) -> None:
        self._show_tolerance()

    def field_done(self, field: FormInput) -> None:
        """Enter in the port or the speeds saves, with what was typed before it
        (:class:`TypedFields`)."""
        self.action_save()

    @on(Input.Submitted, "#port, #plausible")
    def _port_submitted(self) -> None:
        """The field's own Enter, which reaches it only when ``field_enter`` is remapped to
        another key (keymap.toml): it saves as it did before that key."""
        self.action_save()

    def _show_tolerance(self) -> None:
        baud = self.query_one("#baud", Select).value
        fmt = self.query_one("#fmt", Select).value
        if isinstance(baud, int) and isinstance(fmt, str):
            tol = link_tolerance(baud, fmt)
            self.query_one("#setup-tolerance", Static).update(
                _("Timing tolerance of this link")
                + f": ±{number(tol.interval_ms)} {_('ms')} "
                + _("between shots")
                + f", +{number(tol.delay_ms)} {_('ms')} "
                + _("after release")
            )

    def action_save(self) -> None:
        port = self.query_one("#port", Input).value.strip()
        if not port:
            self.query_one("#setup-error", Static).update(
                _("Choose a port from the list or type its path")
            )
            return
        baud = self.query_one("#baud", Select).value
        fmt = self.query_one("#fmt", Select).value
        unit = self.query_one("#unit", Select).value
        window = parse_window(self.query_one("#plausible", Input).value)
        if window is None:
            self.query_one("#setup-error", Static).update(
                _("Plausible speeds: two numbers, e.g. 100-500")
            )
            return
        cur = self.current
        cfg = with_identity(  # the device on the port now; else the one remembered for it
            ChronoConfig(
                port,
                baud if isinstance(baud, int) else DEFAULT_BAUD,
                fmt if isinstance(fmt, str) else "auto",
                unit if isinstance(unit, str) else "fps",
                cur.device if cur is not None and cur.port == port else None,
                window,
            )
        )
        problem = self.app.chrono.choose(cfg)  # used now, remembered on this laptop
        if problem:
            self.app.notify(
                _("The port is used now but could not be remembered") + f": {problem}",
                severity="warning",
                markup=False,
            )
        self.dismiss(cfg)


#: the chronograph's units in the judge's words (the stored value stays the code)
UNIT_TEXT = {"fps": "fps", "mph": "mph", "km/h": "km/h", "m/s": "m/s", "knots": "knots"}
#: frame formats: the brand-named ones keep their brand (Stalker, Decatur, Chrony)
FORMAT_TEXT = {
    "auto": "auto (recognise)",
    "plain": "plain number",
    "stalker-a": "Stalker A",
    "stalker-be": "Stalker B/E",
    "decatur": "Decatur",
    "chrony": "Chrony",
}


def format_label(fmt: str) -> str:
    """A frame format as the dialog names it."""
    return _(FORMAT_TEXT.get(fmt, fmt))


def _device_text(cfg: ChronoConfig) -> str:
    if cfg.device is not None and cfg.device.known:
        return _("Remembered device (only it is accepted)") + f": {cfg.device.label}"
    return _("Device: any on this port (no USB serial number or by-id name known)")


def parse_window(text: str) -> tuple[float, float] | None:
    """``"100-500"`` (or ``"100 500"``, ``"100–500"``) → (100.0, 500.0); None when invalid."""
    parts = text.replace("–", "-").replace(",", ".").replace("-", " ").split()
    try:
        lo, hi = (float(p) for p in parts)
    except ValueError:
        return None
    return (lo, hi) if 0 < lo < hi <= 2000 else None
