"""A real app process killed mid-game (issue 20, item 4): ``kill -9`` while the clock runs,
and again while it is stopped at «Время!». After each restart ``N`` returns to the same
game (the restart offer declined with Esc), and the clock is sensible:

- stopped at «Время!»: it resumes from the recorded elapsed time, to the second;
- running: the game went on on the field while the laptop was down, and the clock is
  computed from the wall time of the last start/resume (``rules/paintball/clock.py``), so
  the downtime counts as play -- the elapsed time after the restart lies between the time
  played before the kill and the wall time since the start, never back at 0.

The installed ``fieldjudge`` in a pseudo-terminal at 80×24, in Russian (``test_e2e_pty``'s
terminal); every step polls the screen with a deadline."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_e2e_pty import ESC, Terminal, installed_app  # noqa: E402

LENGTH_S = 420


@pytest.fixture
def laptop(tmp_path):
    """(run(argv): the installed app started in a terminal with one laptop's config, the
    data folder)."""
    exe, env = installed_app(tmp_path)
    started: list[Terminal] = []

    def run(argv: list[str]) -> Terminal:
        started.append(Terminal([exe, *argv], env))
        return started[-1]

    yield run, tmp_path / "data"
    for t in started:  # a failed step leaves no app running, no terminal open
        t.close()


def seconds(text: str) -> int:
    m, s = text.split(":")
    return int(m) * 60 + int(s)


def restart(t: Terminal, run, folder: Path) -> Terminal:
    """kill -9 the app, start it again on the same folder, decline the offer, press N."""
    t.proc.kill()  # SIGKILL: no handler, no flush
    t.proc.wait(10)
    again = run(["open", str(folder), "--lang", "ru"])
    # the restart offers the game this laptop was running (Enter reopens, Esc stays home)
    again.wait_for("Медведи — Тигры", "Открыть её снова?")
    again.press(ESC)
    again.wait_for("Демо-кубок по пейнтболу", gone="Открыть её снова?")
    again.press("N")
    again.wait_for("Медведи — Тигры", "Поле 1")
    return again


def test_kill_9_mid_game_then_n_returns_to_the_same_game_with_a_sensible_clock(laptop):
    run, data = laptop
    t = run(["demo", "--data-dir", str(data), "--lang", "ru", "--judge", "Судья"])
    t.wait_for("Демо-кубок по пейнтболу", "по расписанию")
    (folder,) = [p for p in data.iterdir() if (p / "tournament.json").exists()]
    t.press("F")  # this laptop judges field 1 (kept in the laptop's settings)
    t.wait_for("Поле этого ноутбука")  # the form itself (keys typed before it are not its)
    t.press("1\r")  # the field is empty on a new laptop
    t.wait_for(gone="Поле этого ноутбука")
    t.press("N")  # field 1's next game: 10:40 Медведи — Тигры
    t.wait_for("Медведи — Тигры", "Пробел: запустить время")
    t.press(" ")
    t.wait_for("Время пошло")
    started = time.monotonic()  # the start was recorded before this
    t.press("a")  # an elimination, so some play is on record before the kill
    t.wait_for("Поражение — Медведи: номер игрока?")
    t.press("42\r")
    t.wait_for("Медведи #42 Сергей Волков: поражение (26)")
    played_before_kill = time.monotonic() - started

    # 1. killed while the clock runs
    t2 = restart(t, run, folder)
    t2.press("t")  # «Время!»: the notice shows the time left
    screen = t2.wait_for("Время! Часы остановлены на")
    since_start = time.monotonic() - started
    (left,) = re.findall(r"Время! Часы остановлены на (\d+:\d\d)", screen)
    elapsed = LENGTH_S - seconds(left)
    assert elapsed >= int(played_before_kill)  # never back at 0 after the restart
    assert elapsed <= since_start + 1  # the downtime counted as play, nothing more

    # 2. killed while stopped at «Время!»: N after the restart (it used to say that no
    # game remained) and the clock resumes exactly where it stopped
    t3 = restart(t2, run, folder)
    t3.press(" ")
    screen = t3.wait_for("Время продолжено с")
    assert re.findall(r"Время продолжено с (\d+:\d\d)", screen) == [left]
