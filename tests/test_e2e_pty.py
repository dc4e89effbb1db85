"""End to end (issue 12, item 20): the INSTALLED ``fieldjudge`` in a real pseudo-terminal at
80×24, in Russian, read by a terminal emulator (pyte). A judge opens the demo, plays a game
by keys (elimination, flag capture, flag hang, inspection), the senior judge submits the
protocol, both captains sign, and the head judge exports it as PDF. Every step waits for
the screen to show what a judge would see (polling with a deadline, no sleeps). Only keys
and visible text are used, never widget names."""

from __future__ import annotations

import fcntl
import os
import re
import select
import shutil
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pypdf
import pyte
import pytest

from fieldjudge.rules.timefmt import format_game_clock
from fieldjudge.services import open_tournament

COLS, ROWS = 80, 24
BIN = Path(sys.executable).parent
DOWN, HOME, ESC, CTRL_Q, CTRL_S, BACKSPACE = "\x1b[B", "\x1b[H", "\x1b", "\x11", "\x13", "\x7f"
CTRL_HOME = "\x1b[1;5H"  # the games list's first row (the cursor stays where the judge left it)
JUDGE = "Судья Тестов"


def _controlling_terminal() -> None:
    """In the child, after its new session began: make its stdin (the pty) the session's
    controlling terminal."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """A process on a pseudo-terminal of COLS×ROWS, its screen kept by pyte."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        # its own session with the pty as its controlling terminal, as a terminal window
        # gives it: if this test process dies without closing it, the terminal hangs up
        # and the app gets SIGHUP (no app left running on a dead pty)
        self.proc = subprocess.Popen(
            argv,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,
            preexec_fn=_controlling_terminal,
        )
        os.close(slave)
        self.fd = master
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.ByteStream(self.screen)

    def _read(self, timeout: float) -> None:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if ready:
            try:
                data = os.read(self.fd, 65536)
            except OSError:  # the process closed the terminal
                return
            self.stream.feed(data)

    def wait_until(self, ready, seconds: float) -> bool:
        """Poll ``ready()`` while reading the screen, ``seconds`` at most."""
        deadline = time.monotonic() + seconds
        while not ready():
            if time.monotonic() > deadline:
                return False
            self._read(0.05)
        return True

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait_for(self, *needles: str, gone: str | None = None, seconds: float = 40) -> str:
        """Poll the screen until it shows every needle (and not ``gone``)."""
        deadline = time.monotonic() + seconds
        while True:
            text = self.text()
            if all(n in text for n in needles) and (gone is None or gone not in text):
                return text
            if time.monotonic() > deadline:
                raise AssertionError(f"screen never showed {needles!r} (gone {gone!r}):\n{text}")
            if self.proc.poll() is not None:
                self._read(0.05)
                raise AssertionError(f"fieldjudge exited {self.proc.returncode}:\n{self.text()}")
            self._read(0.1)

    def exit_code(self, seconds: float = 40) -> int:
        """Wait for the process to end, reading its output meanwhile (a full pty blocks)."""
        deadline = time.monotonic() + seconds
        while self.proc.poll() is None:
            if time.monotonic() > deadline:
                raise AssertionError(f"fieldjudge did not exit:\n{self.text()}")
            self._read(0.1)
        return self.proc.returncode

    def press(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        os.close(self.fd)


def installed_app(tmp_path: Path) -> tuple[str, dict[str, str]]:
    """The installed ``fieldjudge`` and the environment of one laptop in a terminal: its
    own config and data folders under ``tmp_path``."""
    exe = shutil.which("fieldjudge", path=str(BIN))
    assert exe, "the fieldjudge console script is installed in this environment"
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "TEXTUAL_DRIVER")}
    env.update(
        TERM="xterm-256color",
        LANG="C.UTF-8",
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_DATA_HOME=str(tmp_path / "xdg"),
        FIELDJUDGE_DATA=str(tmp_path / "unused"),
    )
    return exe, env


@pytest.fixture
def term(tmp_path):
    exe, env = installed_app(tmp_path)
    data = tmp_path / "data"
    # global options after the subcommand, as the README shows them (item 19)
    t = Terminal([exe, "demo", "--data-dir", str(data), "--lang", "ru", "--judge", JUDGE], env)
    yield t, data
    t.close()


def cursor_row(t: Terminal) -> str | None:
    """The text of the games list's highlighted row (its cursor), or None: among the rows
    that start with a time, the one whose background differs from the rows two above and
    below (zebra stripes alternate)."""
    rows = t.screen.display
    for y, line in enumerate(rows):
        m = re.search(r"\b\d\d:\d\d\b", line)
        if m is None:
            continue
        bg = t.screen.buffer[y][m.start()].bg
        others = [t.screen.buffer[yy][m.start()].bg for yy in (y - 2, y + 2) if 0 <= yy < len(rows)]
        if others and all(bg != o for o in others):
            return line
    return None


#: seconds a key's frame is waited for in :func:`choose_game`
KEY_FRAME_S = 5.0


def choose_game(t: Terminal, *words: str) -> None:
    """Move the games list's cursor to the row showing ``words``, by keys, looking at the
    screen as a judge does (Tab first if the other list has the focus).

    The screen is read between the chunks the app writes: while the highlight moves, one
    read may show the old row already drawn plain and the new one not yet highlighted (no
    row highlighted). Such a half-drawn screen is never taken for a move: a Down is
    pressed only once a highlighted row is on the screen, and counts as moved only when
    another highlighted row is (taking the half-drawn screen for a move sent a second
    Down, and ``g`` opened the game a row below the one shown). A key's frame may take
    seconds on a loaded machine: each is waited for up to :data:`KEY_FRAME_S`."""

    def highlighted() -> str | None:
        return cursor_row(t)

    for _attempt in range(2):
        t.press(CTRL_HOME)
        t.wait_until(lambda: (highlighted() or "").find("10:00") >= 0, KEY_FRAME_S)
        for _step in range(16):
            if not t.wait_until(lambda: highlighted() is not None, KEY_FRAME_S):
                break
            before = highlighted()
            if before is not None and all(w in before for w in words):
                return
            t.press(DOWN)
            moved = lambda before=before: highlighted() not in (None, before)  # noqa: E731
            if not t.wait_until(moved, KEY_FRAME_S):
                break  # the cursor does not move: the games list has no focus
        t.press("\t")
    raise AssertionError(f"could not highlight the game {words!r}:\n{t.text()}")


GAME = ("10:40", "Медведи", "Тигры")


def test_a_judge_plays_a_game_to_a_signed_protocol_and_exports_it(term):
    t, data = term
    # the demo: first round played, the rest scheduled
    t.wait_for("Демо-кубок по пейнтболу", "по расписанию", "Медведи", "Тигры")
    choose_game(t, *GAME)
    t.press("g")
    t.wait_for("Медведи — Тигры", "Пробел: запустить время")
    t.press(" ")
    t.wait_for("Время пошло")
    # an elimination: a, the number, Enter = hit (26)
    t.press("a")
    t.wait_for("Поражение — Медведи: номер игрока?")
    t.press("42\r")
    screen = t.wait_for("Медведи #42 Сергей Волков: поражение (26)")
    (live_time,) = set(re.findall(r"(\d+:\d\d)\s+✗ Медведи #42 Сергей Волков", screen))
    # Медведи #11 captures the Тигры flag and hangs it (23.03)
    t.press("f")
    t.wait_for("Захват флага: какая команда захватила?")
    t.press("a")
    t.wait_for("Захват флага — Медведи: номер игрока?")
    t.press("11\r")
    t.wait_for("Медведи #11 Алексей Смирнов захватил флаг")
    t.press("H")
    t.wait_for("Водружение флага: Медведи #11 Алексей Смирнов", "[c] чист")
    t.press("c")
    t.wait_for("Хронограф маркера флагоносца, фпс")
    t.press("285\r")
    # post-game inspection (18.02): every player still in play, one key each
    t.wait_for("Осмотр после игры (18.02)")
    inspected = [
        "Медведи #7 Иван Петров",
        "Медведи #11 Алексей Смирнов",
        "Медведи #23 Дмитрий Козлов",
        "Медведи #77 Андрей Новиков",
        "Тигры #7 Евгений Кудрявцев",
        "Тигры #11 Константин Баранов",
        "Тигры #23 Ярослав Куликов",
        "Тигры #42 Вадим Алексеев",
        "Тигры #77 Руслан Степанов",
    ]
    for player in inspected:  # the highlighted (first) player is clean; the list shrinks
        t.wait_for(player)
        t.press("c")
        t.wait_for(gone=player)
    t.wait_for("23.03: водружение засчитано", "Осмотр Тигры #77: чист", gone="Осмотр после игры")
    # back home, the protocol of the same game
    t.press(ESC)
    t.wait_for("Драконы", "Ястребы", gone="Время пошло")
    # issue 12 item 12: the cursor comes back on the game the judge left (no key pressed:
    # moving it by keys here would race the cursor being put back)
    assert t.wait_until(
        lambda: (row := cursor_row(t)) is not None and all(w in row for w in GAME), 40
    ), t.text()
    t.press("p")
    t.wait_for(
        "Медведи — Тигры",
        "Результат (30.01): водружение флага (Медведи)",
        # the same game time as the live log (one format everywhere)
        f"{live_time}  Медведи #42 Сергей Волков: поражение (26)",
        f"Старший судья: {JUDGE}",  # the name typed with --judge, not "—"
    )
    # the senior judge submits, both captains sign: locked
    t.press("u")
    t.wait_for("Заполнить протокол с этим результатом?")
    t.press("y")
    t.wait_for("ждём подписи капитанов", f"Заполнен старшим судьёй: {JUDGE}")
    t.press("1")
    t.wait_for("Подпись капитана команды Медведи", "Имя капитана")
    t.press("Иван Петров\r")
    t.wait_for("Капитан: Медведи: Иван Петров · подписал в")
    t.press("2")
    t.wait_for("Подпись капитана команды Тигры", "Имя капитана")
    t.press("Евгений Кудрявцев\r")
    t.wait_for(
        "подписан обоими капитанами: закрыт", "Капитан: Тигры: Евгений Кудрявцев · подписал в"
    )
    # the head judge exports the tournament as PDF
    t.press(ESC)
    t.wait_for("Драконы", "Ястребы", gone="Подписи (31)")
    t.press("x")
    t.wait_for("Экспорт: весь турнир", "Формат: html, pdf, csv или json")
    t.wait_for("█ html ")  # the format field, filled with html
    t.press(BACKSPACE * 4)
    t.wait_for(gone="█ html ")
    t.press("pdf")
    t.wait_for("█ pdf ")
    t.press(CTRL_S)  # saves the form: the exports folder and Russian, as offered
    t.wait_for("Экспорт выполнен", "Записано")
    t.press(ESC)
    t.wait_for("Драконы", gone="Записано")
    t.press(CTRL_Q)
    assert t.exit_code() == 0
    (folder,) = [p for p in data.iterdir() if (p / "tournament.json").exists()]
    (pdf,) = (folder / "exports").glob("protocol-*Медведи-vs-Тигры.pdf")
    reader = pypdf.PdfReader(str(pdf))
    assert len(reader.pages) == 1
    assert [round(float(x), 2) for x in reader.pages[0].mediabox[2:]] == [595.28, 841.89]
    page = " ".join(reader.pages[0].extract_text().split())
    assert "Протокол игры: Медведи — Тигры" in page
    assert "Итог: водружение флага (Медведи)" in page
    assert "Капитан: Медведи Иван Петров подписал в" in page
    assert "Капитан: Тигры Евгений Кудрявцев подписал в" in page
    assert f"Старший судья {JUDGE} заполнил в" in page
    assert f"{live_time} Медведи 42 Сергей Волков" in page
    tour = open_tournament(folder, lock=False, startup_backup=False)
    try:
        (game,) = [
            g for g in tour.games() if g["start"].endswith("10:40") and str(g["field"]) == "1"
        ]
        events = list(tour.game_log(game["id"]).events)
    finally:
        tour.close()
    (elim,) = [e for e in events if e.type == "elimination"]
    assert format_game_clock(elim.game_clock_ms) == live_time
    assert events[-1].hash in page.replace(" ", "")  # the head hash the captains signed
