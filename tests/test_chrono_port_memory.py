"""The chronograph chosen on this laptop is remembered between runs (user config folder, set
by FIELDJUDGE_CONFIG in the tests), and the feed waits for that very device after a
replug, saying which one.  Real pseudo-terminals; no patching of the code under test."""

from __future__ import annotations

import os
from pathlib import Path

import orjson
import pytest

from fieldjudge.app import make_app
from fieldjudge.devices.ports import DeviceId, identify_port
from fieldjudge.devices.simulator import PtyChrono, encode_frame
from fieldjudge.screens.chrono.feed import ChronoFeed
from fieldjudge.screens.chrono.marker_check import MarkerCheckScreen
from fieldjudge.services.paintball.chrono import (
    ChronoConfig,
    load_remembered,
    remember,
    remembered_path,
)
from tests.test_game_helpers import wait_for

pytestmark = pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals are POSIX")

SIZE = (110, 36)
DEVICE = DeviceId("/dev/serial/by-id/usb-FTDI_FT232R_A1B2C3-if00-port0", "A1B2C3", "FT232R")


async def open_check(app, pilot, gid: str) -> None:
    app.push_screen(MarkerCheckScreen(app.tournament, gid))
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, MarkerCheckScreen) and app.screen.query("#feed"),
        "the check",
    )


@pytest.fixture
def sim():
    chrono = PtyChrono()
    yield chrono
    chrono.close()


def test_the_config_folder_comes_from_the_environment(tmp_path: Path) -> None:
    assert remembered_path() == tmp_path / "config" / "chrono.json"  # conftest's folder


def test_remembered_config_round_trip_and_damaged_files_are_ignored(tmp_path: Path) -> None:
    cfg = ChronoConfig("/dev/ttyUSB0", 4800, "stalker-a", "mph", DEVICE, (120.0, 450.0))
    remember(cfg)
    assert load_remembered() == cfg
    assert orjson.loads(remembered_path().read_bytes())["device"] == {
        "by_id": DEVICE.by_id,
        "serial_number": "A1B2C3",
        "description": "FT232R",
    }
    assert [p.name for p in remembered_path().parent.iterdir()] == ["chrono.json"]  # no temp
    for damaged in (
        b"",
        b"{",
        b"[]",
        b'{"port": ""}',
        b'{"port": "x", "fmt": "morse"}',
        b'{"port": "x", "plausible": [500, 100]}',
        b'{"port": "x", "baud": "fast"}',
    ):
        remembered_path().write_bytes(damaged)
        assert load_remembered() is None, damaged


def test_device_identity_matching() -> None:
    same_usb_other_path = DeviceId("/dev/serial/by-id/usb-FTDI_other-if00", "A1B2C3", "")
    assert DEVICE.matches(same_usb_other_path)  # the serial number decides
    assert not DEVICE.matches(DeviceId(DEVICE.by_id, "ZZZ", ""))
    assert not DEVICE.matches(None)
    by_id_only = DeviceId(DEVICE.by_id, None, "")
    assert by_id_only.matches(DeviceId(DEVICE.by_id, None, "x"))
    assert not by_id_only.matches(DeviceId("/dev/serial/by-id/usb-other", None, ""))
    assert DeviceId().matches(None)  # nothing known: any device will do
    assert DEVICE.label == "USB serial A1B2C3 (FT232R)"
    assert by_id_only.label == "usb-FTDI_FT232R_A1B2C3-if00-port0"
    assert DeviceId.from_dict(DEVICE.to_dict()) == DEVICE


def test_a_pty_has_no_usb_identity_and_a_missing_port_has_none(sim: PtyChrono) -> None:
    assert identify_port(sim.path) == DeviceId(None, None, "")
    assert identify_port("/dev/no-such-chrono") is None


async def test_the_chosen_port_is_remembered_for_the_next_run(
    demo_folder: Path, sim: PtyChrono
) -> None:
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        assert load_remembered() is None
        gid = app.tournament.games()[4]["id"]
        await open_check(app, pilot, gid)
        await pilot.press("p")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ChronoSetupScreen")
        app.screen.query_one("#port").value = sim.path
        assert app.screen.query_one("#plausible").value == "100-500"
        app.screen.query_one("#plausible").value = "500-100"
        await pilot.press("ctrl+s")
        await wait_for(
            pilot, lambda: "two numbers" in str(app.screen.query_one("#setup-error").render())
        )
        app.screen.query_one("#plausible").value = "150-320"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, MarkerCheckScreen))
    assert load_remembered() == ChronoConfig(sim.path, plausible=(150.0, 320.0))

    app = make_app(demo_folder.parent, demo_folder, lang="en")  # the next run on this laptop
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        await open_check(app, pilot, gid)
        f = app.screen.query_one("#feed", ChronoFeed)
        await wait_for(pilot, lambda: f.state == "connected", "connected without asking")
        assert f.config.port == sim.path
        sim.write(encode_frame(140.0) + encode_frame(287.5))  # 140 is outside the window
        await wait_for(pilot, lambda: f.readings == 1 and f.garbled == 1, "a reading, an error")
        assert f.last.fps == 287.5


async def test_the_feed_says_which_device_it_waits_for(demo_folder: Path, sim: PtyChrono) -> None:
    remember(ChronoConfig(sim.path, device=DEVICE))  # chosen on this laptop; a pty is not it
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        gid = app.tournament.games()[4]["id"]
        await open_check(app, pilot, gid)
        f = app.screen.query_one("#feed", ChronoFeed)
        want = f"ХРОНОГРАФ: ждём USB serial A1B2C3 (FT232R) на {sim.path}"
        await wait_for(pilot, lambda: f.state_text == want, "the waiting text")
        assert f.state == "disconnected" and f.readings == 0


async def test_the_port_dialog_fits_80x24_in_russian(demo_folder: Path) -> None:
    from fieldjudge.screens.chrono.setup import ChronoSetupScreen

    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        app.push_screen(ChronoSetupScreen(ChronoConfig(DEVICE.by_id or "", device=DEVICE)))
        await wait_for(pilot, lambda: app.screen.query(".dialog-keys"), "the dialog")
        dialog = app.screen.query_one(".dialog")
        keys = app.screen.query_one(".dialog-keys")
        await wait_for(pilot, lambda: dialog.region.height > 0, "the layout")
        assert dialog.virtual_size.height <= dialog.scrollable_content_region.height
        assert keys.region.bottom <= dialog.region.bottom
        device = str(app.screen.query_one("#setup-device").render())
        assert device == (
            "Запомненное устройство (принимается только оно): USB serial A1B2C3 (FT232R)"
        )


async def test_an_enter_in_a_burst_saves_the_port_as_typed_before_it(demo_folder: Path) -> None:
    """Round 12's note: Enter in the port field saves the setup, but the characters of the
    same burst after the Enter (a path pasted with its newline, then more keys) were in the
    field by the time it saved. The setup saved is what was typed before the Enter; an
    Enter on the list of ports still picks a port (it is the list's own key)."""
    from textual.widgets import Input

    from fieldjudge.screens.chrono.setup import ChronoSetupScreen
    from tests.test_ui_keys import typed_fast

    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        saved: list = []
        app.push_screen(ChronoSetupScreen(ChronoConfig("")), saved.append)
        await wait_for(pilot, lambda: app.screen.query(".dialog-keys"), "the dialog")
        app.screen.query_one("#port", Input).focus()
        await pilot.pause()
        typed_fast(app, *"/dev/ttyS7", "enter", "9")
        await wait_for(pilot, lambda: saved, "the setup saved")
        assert saved[0] is not None and saved[0].port == "/dev/ttyS7"


async def test_enter_on_the_port_list_picks_the_first_port_at_once(
    demo_folder: Path, monkeypatch
) -> None:
    """The list of ports opens with its first port highlighted: Enter picks it (Enter
    once did nothing until an arrow key had highlighted one)."""
    from textual.widgets import Input

    from fieldjudge.devices.ports import PortInfo
    from fieldjudge.screens.chrono.setup import ChronoSetupScreen

    ports = [
        PortInfo("/dev/ttyUSB0", DEVICE.by_id, "FT232R USB UART", True, "A1B2C3"),
        PortInfo("/dev/ttyS0", None, "", False),
    ]
    monkeypatch.setattr("fieldjudge.screens.chrono.setup.list_chrono_ports", lambda: ports)
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        app.push_screen(ChronoSetupScreen(ChronoConfig("")))
        await wait_for(pilot, lambda: app.screen.query("#ports"), "the dialog")
        port = app.screen.query_one("#port", Input)
        await pilot.press("enter")
        await wait_for(pilot, lambda: port.value == DEVICE.by_id, "the first port picked")
