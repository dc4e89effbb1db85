"""A scripted tournament day (issue 20): stalls, substitutes, crashes and two fields never
change a verdict, and the standings at the end are the ones 30.01 gives by hand.

The INSTALLED ``fieldjudge`` in real pseudo-terminals at 80×24, in Russian, read by pyte
(``test_e2e_pty``'s terminal); every wait polls the screen (or a file, or the chronograph's
queue) with a deadline.

Two laptops = two config folders (``XDG_CONFIG_HOME`` and ``FIELDJUDGE_CONFIG`` per process,
so two laptop keys and two laptop settings) on ONE tournament folder with two fields. The
folder lock lets one app at a time hold a folder, so the laptops run one after the other on
the same folder (as a synced folder would look once each laptop's writes arrived): laptop 1
(the head judge's, field 1) creates the tournament from the CSVs and judges field 1, laptop 2
judges field 2, then laptop 1 again for the head judge's correction and the exports.

The day (6 teams, «Медведи» with a substitute: 6 players, team size 5; 6 games, 2 fields):

- field 1, 10:00 Медведи — Тигры: check-in with the line-up (the substitute plays, 30.01),
  a chrono string under a 0.35 s SIGSTOP of the app (the interval is not measured, no
  violation), the start of a second game on field 1 refused naming this one, ``N`` back to
  it, a Тигры player hit (26), a flag hang (23.03); protocol signed by both captains (31);
- field 1, 10:30 Орлы — Лисы: a Лисы player hit, ``kill -9`` mid-game, the restart offer
  declined, ``N`` back to the same game, its clock sensible; ended by the judge (draw);
- field 1, 11:00 Тигры — Лисы: ended by the judge at once (draw), then the head judge
  corrects the points to 2 : 0 (31, his secret), confirming that 30.01 gives a draw 1 each;
- field 2, 10:00 Волки — Барсы (laptop 2): Волки capture the flag and hold it when the judge
  ends the game (flag held, 30.01);
- field 2, 10:30 Медведи — Волки: Волки do not show up (32, the head judge on laptop 1);
- field 2, 11:00 Барсы — Орлы (laptop 2): an Орлы player hit, a flag hang by Барсы.

Then ``fieldjudge export`` (csv standings, html protocols): the standings equal TABLE below.

Laptop 2 must be registered by the head judge (else its games count nowhere): its home
screen says so until he presses R on it and types its name and his secret (no Syncthing
needed).

Set ``FIELDJUDGE_DAY_CAPTURES`` to a folder to keep the screens of the unknown interval,
the line-up at check-in, the refused second game and the not-played protocol as text.
"""

from __future__ import annotations

import csv
import fcntl
import os
import re
import shutil
import signal
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_e2e_pty import BACKSPACE, BIN, CTRL_Q, CTRL_S, DOWN, ESC, Terminal  # noqa: E402

END, UP = "\x1b[F", "\x1b[A"
LENGTH_S = 420  # the default game length, 7:00
SHOT_BYTES = len(b"285.0\r\n") + len(b"000\r\n")  # a plain frame and its idle frame

pytestmark = pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals are POSIX")

SECRET = "Кедр-Вьюга-2026-поле"  # the head judge's secret, typed when the tournament is made
HEAD = "Главный Судьин"
JUDGE_1, JUDGE_2 = "Судья Первый", "Судья Второй"
TOURNAMENT = "Кубок дня"
DAY = "2026-06-01"

TEAMS = {  # team -> [(number, name)], the captain first
    "Медведи": [(7, "Иван Петров"), (11, "Алексей Смирнов"), (23, "Дмитрий Козлов"),
                (42, "Сергей Волков"), (77, "Андрей Новиков"), (99, "Пётр Запасной")],
    "Тигры": [(1, "Евгений Кудрявцев"), (2, "Константин Баранов"), (3, "Ярослав Куликов"),
              (4, "Вадим Алексеев"), (5, "Руслан Степанов")],
    "Волки": [(10, "Олег Серов"), (12, "Глеб Лунин"), (14, "Илья Рябов"),
              (16, "Роман Гусев"), (18, "Павел Дронов")],
    "Барсы": [(20, "Тимур Ахметов"), (21, "Марат Юсупов"), (22, "Артур Галиев"),
              (24, "Рустам Хасанов"), (25, "Денис Шарипов")],
    "Орлы": [(30, "Никита Орлов"), (31, "Степан Зуев"), (32, "Фёдор Крылов"),
             (33, "Лев Соколов"), (34, "Кирилл Ястребов")],
    "Лисы": [(40, "Юрий Лисицын"), (41, "Захар Рыжов"), (43, "Антон Хитров"),
             (44, "Василий Бурый"), (45, "Максим Огнев")],
}  # fmt: skip
SCHEDULE = [  # field, start, team A, team B
    ("1", "10:00", "Медведи", "Тигры"),
    ("2", "10:00", "Волки", "Барсы"),
    ("1", "10:30", "Орлы", "Лисы"),
    ("2", "10:30", "Медведи", "Волки"),
    ("1", "11:00", "Тигры", "Лисы"),
    ("2", "11:00", "Барсы", "Орлы"),
    ("1", "12:00", "Волки", "Лисы"),  # not played: no result, left out of the exports
]

# The standings by hand (30.01: hang 3, held 2, draw 1 each, loss 0; survivor difference
# clamped to ±5; 32: a no-show 3/0 with +5/−5), game by game: {team: (points, difference)}
GAMES_BY_HAND = [
    {"Медведи": (3, +1), "Тигры": (0, -1)},  # hang by Медведи, 5 survivors against 4
    {"Волки": (2, 0), "Барсы": (0, 0)},  # flag held by Волки, 5 against 5
    {"Орлы": (1, +1), "Лисы": (1, -1)},  # draw, 5 against 4
    {"Медведи": (3, +5), "Волки": (0, -5)},  # no-show of Волки (32)
    {"Тигры": (2, 0), "Лисы": (0, 0)},  # a draw the head judge corrected to 2 : 0 (31)
    {"Барсы": (3, +1), "Орлы": (0, -1)},  # hang by Барсы, 5 against 4
]
TABLE = {  # team: (games, points, difference), the sums of the games above
    "Медведи": (2, 6, +6),
    "Барсы": (2, 3, +1),
    "Тигры": (2, 2, -1),
    "Волки": (2, 2, -5),
    "Орлы": (2, 1, 0),
    "Лисы": (2, 1, -1),
}
ORDER = ["Медведи", "Барсы", "Тигры", "Волки", "Орлы", "Лисы"]  # points, then difference


def test_table_is_the_sum_of_the_games():
    for team, (games, points, diff) in TABLE.items():
        mine = [g[team] for g in GAMES_BY_HAND if team in g]
        assert (len(mine), sum(p for p, _d in mine), sum(d for _p, d in mine)) == (
            games,
            points,
            diff,
        )
    assert sorted(TABLE, key=lambda t: (-TABLE[t][1], -TABLE[t][2])) == ORDER


# -- the laptops ----------------------------------------------------------------------------


class Day:
    """The processes of the day: each laptop's environment, every terminal started."""

    def __init__(self, tmp: Path) -> None:
        exe = shutil.which("fieldjudge", path=str(BIN))
        assert exe, "the fieldjudge console script is installed in this environment"
        self.exe = exe
        self.tmp = tmp
        self.data = tmp / "data"
        self.started: list[Terminal] = []
        self.captures = os.environ.get("FIELDJUDGE_DAY_CAPTURES", "")

    def env(self, laptop: int) -> dict[str, str]:
        env = {
            k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "TEXTUAL_DRIVER")
        }
        config = self.tmp / f"laptop{laptop}"
        env.update(
            TERM="xterm-256color",
            LANG="C.UTF-8",
            XDG_CONFIG_HOME=str(config),
            FIELDJUDGE_CONFIG=str(config / "fieldjudge"),
            XDG_DATA_HOME=str(self.tmp / f"xdg{laptop}"),
            FIELDJUDGE_DATA=str(self.data),
        )
        env.pop("FIELDJUDGE_CHRONO_PORT", None)  # the port is chosen with p
        return env

    def run(self, laptop: int, *argv: str) -> Terminal:
        self.started.append(Terminal([self.exe, *argv], self.env(laptop)))
        return self.started[-1]

    def capture(self, name: str, t: Terminal) -> None:
        if self.captures:
            Path(self.captures).mkdir(parents=True, exist_ok=True)
            (Path(self.captures) / f"{name}.txt").write_text(t.text() + "\n", encoding="utf-8")

    def capture_text(self, name: str, text: str) -> None:
        if self.captures:
            Path(self.captures).mkdir(parents=True, exist_ok=True)
            (Path(self.captures) / f"{name}.txt").write_text(text, encoding="utf-8")

    def stop(self, t: Terminal) -> None:
        self.started.remove(t)
        t.close()

    def close(self) -> None:
        for t in self.started:  # a failed step leaves no process running, no terminal open
            t.close()


@pytest.fixture
def day(tmp_path):
    d = Day(tmp_path)
    yield d
    d.close()


def write_csvs(folder: Path) -> tuple[Path, Path]:
    roster = folder / "состав.csv"
    rows = ["team,number,name,captain"]
    for team, players in TEAMS.items():
        rows += [f"{team},{n},{name},{'да' if i == 0 else 'нет'}" for i, (n, name) in
                 enumerate(players)]  # fmt: skip
    roster.write_text("\n".join(rows) + "\n", encoding="utf-8")
    schedule = folder / "расписание.csv"
    lines = ["field,start,team_a,team_b"] + [",".join(g) for g in SCHEDULE]
    schedule.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return roster, schedule


WAIT = 20  # seconds any one step may take on a loaded machine


def see(t: Terminal, *needles: str, gone: str | None = None, seconds: float = WAIT) -> str:
    """Poll the screen until it shows every needle (and not ``gone``)."""
    return t.wait_for(*needles, gone=gone, seconds=seconds)


def styled(t: Terminal) -> tuple:
    """The screen with its colours (focus shows only as a colour)."""
    return tuple(
        tuple((c.data, c.fg, c.bg, c.reverse) for c in (t.screen.buffer[y][x] for x in range(80)))
        for y in range(24)
    )


def row_below(t: Terminal, label: str, below: int = 1) -> int:
    """The screen row ``below`` rows under the first one showing ``label``."""
    for y, line in enumerate(t.screen.display):
        if label in line:
            return y + below
    raise AssertionError(f"no {label!r} on the screen:\n{t.text()}")


def tab_to(t: Terminal, label: str, below: int = 1) -> None:
    """Tab, then wait until the field shown ``below`` rows under ``label`` shows the focus
    (its row's colours change): keys typed before the focus moved would land in the field
    left behind. Only that row is watched (a toast or a blinking cursor elsewhere changes
    the screen too)."""
    y = row_below(t, label, below)
    before = styled(t)[y]
    t.press("\t")
    assert t.wait_until(lambda: styled(t)[y] != before, WAIT), t.text()


def value_under(t: Terminal, label: str) -> str:
    """The text of the two lines below ``label`` (a form's field shows its value there,
    under a label that may wrap)."""
    rows = t.screen.display
    for y, line in enumerate(rows[:-1]):
        if label in line:
            return "\n".join(rows[y + 1 : y + 3])
    return ""


def field_line(t: Terminal, label: str) -> str:
    """The value a form's field shows (the line under its label), without the frame."""
    return value_under(t, label).split("\n")[0].strip(" █")


def fill_form(t: Terminal, fields: list[tuple[str, str | None]], clear: str = "") -> None:
    """Each (label, value) typed into its field (None: keep the default), waiting until the
    field shows it, then Tab to the next field once it shows the focus. The field ``clear``
    is emptied first (its own write: Backspace and text in one write lose the text)."""
    for i, (label, v) in enumerate(fields):
        if i:
            tab_to(t, label)
        if label == clear:
            t.press(BACKSPACE * 20)
            assert t.wait_until(lambda label=label: not field_line(t, label), WAIT), t.text()
        if v is None:
            continue
        shown = "•" if "екрет" in label else v[-8:]

        def showing(label: str = label, shown: str = shown) -> bool:
            return shown in value_under(t, label)

        t.press(v)
        if i == 0 and not t.wait_until(showing, 2) and not field_line(t, label):
            # the first field takes the focus once the form is mounted: keys typed before
            # that are lost and the field stays blank; type them again
            t.press(v)
        assert t.wait_until(showing, WAIT), t.text()


def game_rows(t: Terminal) -> list[tuple[int, str, str]]:
    """The games list's rows on the screen: (y, text, background)."""
    out = []
    for y, line in enumerate(t.screen.display):
        m = re.search(r"▎ (\d\d:\d\d)  ", line)
        if m:
            out.append((y, line, t.screen.buffer[y][m.start(1)].bg))
    return out


def cursor_row(t: Terminal) -> str | None:
    """The games list's highlighted row: the one whose background no other row shares
    (the zebra stripes share theirs)."""
    rows = game_rows(t)
    alone = [r for r in rows if sum(o[2] == r[2] for o in rows) == 1]
    return alone[0][1] if len(rows) > 2 and len(alone) == 1 else None


def choose_game(t: Terminal, *words: str) -> None:
    """Move the games list's cursor by keys to the row showing ``words``, each key once
    the previous move shows. The games list has the focus whenever the home screen is
    back (issue 25, item 8): a cursor that does not move fails the day."""
    t.wait_until(lambda: cursor_row(t) is not None, 1.5)
    for _step in range(2 * len(SCHEDULE) + 6):
        rows = game_rows(t)
        cur = cursor_row(t)
        (target,) = [y for y, line, _bg in rows if all(w in line for w in words)]
        at = [y for y, line, _bg in rows if line == cur]
        if at and at[0] == target:
            # the list reloads (the home's refresh puts the cursor back): settled?
            if not t.wait_until(lambda cur=cur: cursor_row(t) != cur, 0.3):
                return
            continue
        t.press(DOWN if not at or at[0] < target else UP)
        if not t.wait_until(lambda cur=cur: cursor_row(t) != cur, WAIT):
            break
    raise AssertionError(f"the games list's cursor does not reach {words!r}:\n{t.text()}")


def game_row(a: str, b: str) -> tuple[str, ...]:
    (g,) = [g for g in SCHEDULE if g[2:] == (a, b)]
    return (g[1], a, b)


def to_home(t: Terminal, a: str = "", b: str = "") -> None:
    """Esc to the home screen; from a game (a, b), wait for the games list's cursor to come
    back on it (moving it by keys before would race the cursor being put back)."""
    for _ in range(3):  # an Esc that lands while a dialog closes is taken by it
        t.press(ESC)
        if t.wait_until(lambda: all(w in t.text() for w in ("Турниры", "синхронизация")), 3):
            break
    see(t, "Турниры", "синхронизация")
    if a:
        words = game_row(a, b)
        assert t.wait_until(
            lambda: (row := cursor_row(t)) is not None and all(w in row for w in words), WAIT
        ), t.text()


def sign_protocol(t: Terminal, a: str, b: str, outcome: str) -> None:
    """From home: the protocol of (a, b) submitted, then both captains sign (31)."""
    choose_game(t, *game_row(a, b))
    t.press("p")
    see(t, f"{a} — {b}", outcome)
    t.press("u")
    see(t, "Заполнить протокол с этим результатом?")
    t.press("y")
    see(t, "ждём подписи капитанов")
    t.press("1")
    see(t, f"Подпись капитана команды {a}", "Имя капитана")
    t.press(TEAMS[a][0][1] + "\r")
    see(t, f"Капитан: {a}: {TEAMS[a][0][1]} · подписал в")
    t.press("2")
    see(t, f"Подпись капитана команды {b}", "Имя капитана")
    t.press(TEAMS[b][0][1] + "\r")
    see(t, "подписан обоими капитанами: закрыт")
    to_home(t, a, b)


def inspect_all(t: Terminal, players: int) -> None:
    """Post-game inspection (18.02): the ``players`` still in play, each clean with one key
    once the previous one is recorded (one key too many would open the in-game chrono)."""
    see(t, "Осмотр после игры (18.02)")
    for n in range(players):
        before = t.text()
        t.press("c")
        if n < players - 1:  # the list shrinks: the next player is highlighted
            assert t.wait_until(lambda before=before: t.text() != before, WAIT), t.text()
            see(t, "Осмотр после игры (18.02)")
    see(t, gone="Осмотр после игры")


def start_game(t: Terminal, a: str, b: str) -> None:
    choose_game(t, *game_row(a, b))
    t.press("g")
    see(t, f"{a} — {b}", "Пробел: запустить время")
    t.press(" ")
    see(t, "Время пошло")


def eliminate(t: Terminal, side: str, team: str, number: int) -> None:
    t.press(side)
    see(t, f"Поражение — {team}: номер игрока?")
    t.press(f"{number}\r")
    see(t, f"{team} #{number}", "поражение (26)")


def end_by_judge(t: Terminal) -> None:
    t.press("E")
    see(t, "Закончить игру сейчас?", "Причина (для главного судьи)")
    t.press("решение судьи")
    see(t, "решение судьи")
    t.press("\r")


def capture_flag(t: Terminal, side: str, team: str, number: int) -> None:
    t.press("f")
    see(t, "Захват флага: какая команда захватила?")
    t.press(side)
    see(t, f"Захват флага — {team}: номер игрока?")
    t.press(f"{number}\r")
    see(t, f"{team} #{number}", "захватил флаг")


def hang(t: Terminal, team: str, number: int) -> None:
    t.press("H")
    see(t, f"Водружение флага: {team} #{number}", "[c] чист")
    t.press("c")
    see(t, "Хронограф маркера флагоносца, фпс")
    t.press("285\r")


def scroll_until(t: Terminal, needle: str, key: str = DOWN, presses: int = 40) -> str:
    """Press ``key`` (once per poll) until the screen shows ``needle``."""
    for _ in range(presses):
        if t.wait_until(lambda: needle in t.text(), 0.3):
            return t.text()
        t.press(key)
    raise AssertionError(f"scrolled {presses} times, never saw {needle!r}:\n{t.text()}")


def queued(path: str) -> int:
    """Bytes the chronograph wrote that the app has not read yet (the pty's input queue,
    seen through our own descriptor of its slave: nothing is read from it)."""
    fd = os.open(path, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
    try:
        buf = fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0")
    finally:
        os.close(fd)
    return int.from_bytes(buf, sys.byteorder)


# -- the day --------------------------------------------------------------------------------


def test_tournament_day_two_laptops_two_fields_standings_by_hand(day: Day):
    roster, schedule = write_csvs(day.tmp)
    day.data.mkdir()
    # ---- laptop 1, the head judge's: the tournament from the CSVs -------------------------
    t = day.run(1, "--data-dir", str(day.data), "--lang", "ru", "--judge", JUDGE_1)
    see(t, "Турнир не открыт")
    t.press("n")
    see(t, "Новый турнир")
    fill_form(
        t,
        [
            ("Название турнира", TOURNAMENT),
            ("Дата", DAY),
            ("Место проведения", "Лесная поляна"),
            ("Дивизион", None),
            ("Главный судья", HEAD),
            ("Секрет главного судьи", SECRET),
            ("Секрет ещё раз", SECRET),
        ],
        clear="Дата",
    )
    t.press(CTRL_S)
    see(t, "Турнир создан")
    t.press("t")
    see(t, "Команды")
    t.press("i")
    see(t, "Путь к файлу")
    t.press(str(roster) + "\r")
    see(t, "Импортировано 6 команд")  # the Russian plural (issue 25)
    t.press(ESC)
    see(t, "Турниры", "синхронизация")
    t.press("s")
    see(t, "Расписание")
    t.press("i")
    see(t, "Путь к файлу")
    t.press(str(schedule) + "\r")
    # the games' own notice: the teams' «Импортировано 6 команд» may still be shown (a
    # toast lasts 5 s), and Esc before the games' import ends cancels it
    see(t, f"Импортировано {len(SCHEDULE)} игр")
    t.press(ESC)
    see(t, "Турниры", "синхронизация")
    see(t, "Медведи", "Лисы", "11:00")
    t.press("F")
    see(t, "Поле этого ноутбука")
    t.press("1\r")
    see(t, gone="Поле этого ноутбука")
    day.capture("home", t)

    # ---- field 1, 10:00 Медведи — Тигры: check-in with the line-up, a chrono stall -------
    choose_game(t, *game_row("Медведи", "Тигры"))
    t.press("k")
    see(t, "Проверка маркеров")
    t.press("i")  # the highlighted row's team checks in (19.01): its line-up first (30.01)
    see(t, "Состав на игру (30.01): Медведи", "5 из 5")
    t.press(" ")  # the captain, the first of the roster, sits out
    see(t, "4 из 5")
    sub = row_below(t, "99 Пётр Запасной", 0)
    before = styled(t)[sub]
    t.press(END)  # the highlight moves to the substitute (shown only by its colours)
    assert t.wait_until(lambda: styled(t)[sub] != before, WAIT), t.text()
    t.press(" ")  # the substitute plays
    see(t, "5 из 5")
    day.capture("lineup-at-check-in", t)
    t.press("\r")
    see(t, "Медведи: явка в", gone="Состав на игру")
    day.capture("marker-check", t)
    # the chronograph: the simulator on a pseudo-terminal, chosen as the port with p
    sim = day.run(1, "chrono", "simulate", "--seed", "2", "--pause", "0.6")
    port = see(sim, "Ctrl-C").split()[0]  # it prints its port first
    for _ in range(5):
        t.press(DOWN)
    t.press("\r")  # the substitute, #99, on the marker check
    see(t, "Медведи #99")
    t.press("p")
    see(
        t, "Порт хронографа", "█ Порт  ", "Погрешность времени"
    )  # the simulator's port is not listed: typed
    tab_to(t, "█ Порт  ", 0)
    t.press(port)
    see(t, "ttyCHRONO")
    t.press("\r")
    see(t, "показаний: 1", gone="Порт хронографа")
    day.capture("chrono-1", t)
    # the laptop stalls (SIGSTOP) while the marker fires: 3 shots queue (about 0.35 s)
    os.kill(t.proc.pid, signal.SIGSTOP)
    try:
        assert t.wait_until(lambda: queued(port) >= 3 * SHOT_BYTES, WAIT), "no shots queued"
    finally:
        os.kill(t.proc.pid, signal.SIGCONT)
    # at 80×24 the tests are below the fold: Tab to the check's pane, scroll to the message
    t.press("\t")
    scroll_until(t, "Интервал не измерен")
    screen = scroll_until(t, "повторите серию")
    day.capture("unknown-interval", t)
    assert "НЕ ДОПУЩЕН" not in screen and "20.05" not in screen
    assert "✗" not in screen  # no test failed: the measured intervals pass (20.02)
    day.stop(sim)
    t.press(ESC)
    see(t, "Турниры", "синхронизация")

    # ---- the game; a second live game on field 1 refused; N back to it --------------------
    start_game(t, "Медведи", "Тигры")
    eliminate(t, "b", "Тигры", 2)
    to_home(t, "Медведи", "Тигры")
    choose_game(t, *game_row("Орлы", "Лисы"))
    t.press("g")
    see(t, "Орлы — Лисы", "Пробел: запустить время")
    t.press(" ")
    see(t, "Нельзя начать: на поле 1 идёт игра «Медведи — Тигры»")
    day.capture("refused-second-live-game", t)
    to_home(t, "Орлы", "Лисы")
    t.press("N")  # this laptop's field's running game first
    see(t, "Медведи — Тигры", "Тигры #2")
    capture_flag(t, "a", "Медведи", 11)
    hang(t, "Медведи", 11)
    inspect_all(t, 9)
    see(t, "23.03: водружение засчитано")
    to_home(t, "Медведи", "Тигры")
    sign_protocol(t, "Медведи", "Тигры", "Результат (30.01): водружение флага (Медведи)")

    # ---- field 1, 10:30 Орлы — Лисы: kill -9 mid-game, N after the restart ---------------
    (folder,) = [p for p in day.data.iterdir() if (p / "tournament.json").exists()]
    start_game(t, "Орлы", "Лисы")
    started = time.monotonic()  # the start was recorded before this
    eliminate(t, "b", "Лисы", 41)
    played_before_kill = time.monotonic() - started
    t.proc.kill()  # SIGKILL: no handler, no flush
    t.proc.wait(10)
    day.stop(t)
    t = day.run(1, "open", str(folder), "--lang", "ru")
    see(t, "Орлы — Лисы", "Открыть её снова?")  # the restart offer (Esc: stay home)
    t.press(ESC)
    see(t, "Турниры", "синхронизация", gone="Открыть её снова?")
    t.press("N")
    see(t, "Орлы — Лисы", "Лисы #41")
    t.press("t")  # «Время!»: the notice shows the time left
    screen = see(t, "Время! Часы остановлены на")
    since_start = time.monotonic() - started
    (left,) = re.findall(r"Время! Часы остановлены на (\d+):(\d\d)", screen)
    elapsed = LENGTH_S - (int(left[0]) * 60 + int(left[1]))
    assert int(played_before_kill) <= elapsed <= since_start + 1  # never back at 0
    end_by_judge(t)
    inspect_all(t, 9)
    to_home(t, "Орлы", "Лисы")
    sign_protocol(t, "Орлы", "Лисы", "ничья")

    # ---- field 1, 11:00 Тигры — Лисы: a draw the head judge corrects to 2 : 0 (31) ---------
    start_game(t, "Тигры", "Лисы")
    end_by_judge(t)
    inspect_all(t, 10)
    to_home(t, "Тигры", "Лисы")
    sign_protocol(t, "Тигры", "Лисы", "ничья")
    choose_game(t, *game_row("Тигры", "Лисы"))
    t.press("p")
    see(t, "Тигры — Лисы", "подписан обоими капитанами")
    t.press("c")
    see(t, "Главный судья: исправление итоговой суммы (31)", "Секрет главного судьи")
    fill_form(
        t,
        [
            ("Итог: h1/h2", None),  # the outcome stays a draw: the points are corrected
            ("Тигры: очки за игру", "2"),
            ("Лисы: очки за игру", "0"),
            ("Причина", "очки записаны неверно"),
            ("Секрет главного судьи", SECRET),
        ],
    )
    t.press(CTRL_S)
    see(t, "30.01 даёт")  # 2 : 0 for a draw contradicts 30.01: he confirms (y)
    day.capture("correction-confirm", t)
    t.press("y")
    see(t, "Тигры — Лисы", "очки записаны неверно", gone="30.01 даёт")
    day.capture("correction", t)
    to_home(t, "Тигры", "Лисы")

    # ---- field 2, 10:30 Медведи — Волки: Волки do not show up (32) ----------------------
    choose_game(t, *game_row("Медведи", "Волки"))
    t.press("p")
    see(t, "Медведи — Волки")
    t.press("n")
    see(t, "Главный судья: неявка (32.01)", "Секрет главного судьи")
    fill_form(
        t,
        [
            ("Не явились", "2"),
            ("Причина: опоздание", None),
            ("По вине", None),
            ("Секрет главного судьи", SECRET),
        ],
    )
    t.press(CTRL_S)
    see(t, "Медведи — Волки", "Неявка: Волки", gone="Главный судья: неявка")
    day.capture("no-show", t)
    to_home(t, "Медведи", "Волки")
    sign_protocol(t, "Медведи", "Волки", "Результат (30.01): неявка")

    # ---- a game never played: its protocol says so (30.01, 32) --------------------------
    choose_game(t, *game_row("Волки", "Лисы"))
    t.press("p")
    see(t, "Волки — Лисы", "игра не проведена")
    day.capture("not-played-protocol", t)
    to_home(t, "Волки", "Лисы")
    t.press(CTRL_Q)
    assert t.exit_code() == 0

    # ---- laptop 2, field 2: the head judge registers it there (R, his secret) -----------
    t = day.run(2, "open", str(folder), "--lang", "ru", "--judge", JUDGE_2)
    see(t, "Турниры", "синхронизация", "Кубок дня", "не зарегистрирован главным судьёй")
    t.press("R")
    see(t, "Зарегистрировать этот ноутбук в турнире", "Имя этого ноутбука")
    name = "Имя этого ноутбука"
    fill_form(t, [(name, "Поле 2"), ("Секрет главного судьи", SECRET)], clear=name)
    t.press("\r")
    see(t, "Этот ноутбук (Поле 2)", gone="Зарегистрировать этот ноутбук")  # the notice
    see(t, gone="не зарегистрирован главным судьёй")
    t.press("F")
    see(t, "Поле этого ноутбука")
    t.press("2\r")
    see(t, gone="Поле этого ноутбука")
    # 10:00 Волки — Барсы: Волки hold the Барсы flag when the judge ends the game
    start_game(t, "Волки", "Барсы")
    capture_flag(t, "a", "Волки", 10)
    end_by_judge(t)
    inspect_all(t, 10)
    to_home(t, "Волки", "Барсы")
    sign_protocol(t, "Волки", "Барсы", "Результат (30.01)")
    # 11:00 Барсы — Орлы: an Орлы player hit, a flag hang by Барсы
    start_game(t, "Барсы", "Орлы")
    eliminate(t, "b", "Орлы", 31)
    capture_flag(t, "a", "Барсы", 20)
    hang(t, "Барсы", 20)
    inspect_all(t, 9)
    see(t, "23.03: водружение засчитано")
    to_home(t, "Барсы", "Орлы")
    sign_protocol(t, "Барсы", "Орлы", "водружение флага (Барсы)")
    t.press(CTRL_Q)
    assert t.exit_code() == 0

    # ---- the exports and the standings ---------------------------------------------------
    out = day.tmp / "exports"
    for fmt in ("csv", "html"):
        done = subprocess.run(
            [day.exe, "export", "--tournament", str(folder), "--format", fmt, "--out", str(out)],
            env=day.env(1),
            timeout=60,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stdout + done.stderr
    (table,) = out.glob("standings*.csv")
    rows = list(csv.reader(table.read_text(encoding="utf-8-sig").splitlines(), delimiter=";"))
    day.capture_text("standings-csv", table.read_text(encoding="utf-8-sig"))
    assert rows, table
    header, *body = rows
    assert header[2:6] == ["Команда", "Игры", "Очки за игру", "Разница"], header
    teams = [r for r in body if len(r) > 5 and r[0] == "Д3"]
    assert {r[2]: (int(r[3]), int(r[4]), int(r[5])) for r in teams} == TABLE
    assert [r[2] for r in teams] == ORDER
    # six protocols; the game never played is left out (30.01, 32)
    names = sorted(p.name for p in out.glob("protocol-*.html"))
    assert len(names) == 6 and not [n for n in names if "Волки-vs-Лисы" in n], names
    assert len([n for n in names if "Медведи-vs-Тигры" in n]) == 1, names
