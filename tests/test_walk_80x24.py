"""Every screen at 80×24 (issue 25, item 7): the INSTALLED ``fieldjudge`` in a real
pseudo-terminal, in Russian, read by pyte. A judge walks the demo tournament through every
screen — home, standings, a protocol and its correction, a game and each of its dialogs
(elimination, paint check, neutral, flag capture and hang, line-up, in-game chrono and its
port, void, Time!, inspection), F1, the marker check and its results with a chronograph on
a pseudo-terminal, the line-up picker, the new-tournament form, the teams and schedule
screens, and a quidditch round — and each option label a dialog offers must be on the screen
whole (a label cut at the dialog's edge, or a result below the fold, fails the walk). Keys
and visible text only; every wait polls the screen with a deadline.

The screens are kept as text under the test's folder (``captures/``), for the issue."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_e2e_pty import DOWN, ESC, Terminal, installed_app  # noqa: E402
from test_tournament_day import game_rows, row_below, styled, tab_to  # noqa: E402

UP = "\x1b[A"

JUDGE = "Судья Тестов"
F1 = "\x1bOP"
FRAME = "█▌▐▎▊▏▍│╭╮╰╯─▀▄▔▁"


def flat(t: Terminal, x0: int = 0, x1: int | None = None) -> str:
    """The screen as one line of words: frames dropped, rows joined with a space (a label
    that wraps inside its dialog reads whole; one cut at the edge does not). With a
    dialog open (its frame's top ``█▀…▀█``), only what is inside the frame."""
    rows = [line[x0:x1] for line in t.screen.display]
    tops = [y for y, line in enumerate(rows) if re.search(r"█▀{20,}█", line)]
    if tops:
        top = tops[0]
        x0, x1 = rows[top].index("█"), rows[top].rindex("█")
        bottom = next((y for y in range(top + 1, len(rows)) if "▄▄▄▄▄" in rows[y]), len(rows))
        rows = [line[x0 + 1 : x1] for line in rows[top + 1 : bottom]]
    rows = ["".join(" " if c in FRAME else c for c in line) for line in rows]
    return " ".join(" ".join(rows).split())


def whole(
    t: Terminal, *labels: str, seconds: float = 20, x0: int = 0, x1: int | None = None
) -> str:
    """Wait until every label is on the screen whole (wrapped lines joined); ``x0``/``x1``:
    only those columns (one column of a two-column list, whose cells wrap apart)."""

    def shown() -> str:
        return flat(t, x0, x1)

    ok = t.wait_until(lambda: all(" ".join(x.split()) in shown() for x in labels), seconds)
    if not ok:
        missing = [x for x in labels if " ".join(x.split()) not in shown()]
        raise AssertionError(f"not on the 80×24 screen whole: {missing!r}\n{t.text()}")
    return t.text()


def settle(t: Terminal) -> None:
    """Read the screen until it stops changing for 0.3 s (3 s at the most)."""
    for _ in range(10):
        before = t.text()
        if not t.wait_until(lambda before=before: t.text() != before, 0.3):
            return


class Walk:
    def __init__(self, t: Terminal, folder: Path) -> None:
        self.t = t
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)

    def capture(self, name: str) -> None:
        """The screen once it stops changing (a frame drawn in parts is not kept)."""
        settle(self.t)
        (self.folder / f"{name}.txt").write_text(self.t.text() + "\n", encoding="utf-8")


def cursor_y(t: Terminal) -> int | None:
    """The games list's highlighted row: the one whose background no other row shares
    (the zebra stripes share theirs)."""
    rows = game_rows(t)
    alone = [y for y, _line, bg in rows if sum(o[2] == bg for o in rows) == 1]
    return alone[0] if len(rows) > 2 and len(alone) == 1 else None


def choose(t: Terminal, *words: str, seconds: float = 40) -> None:
    """The games list's cursor on the row showing ``words``, by ↓ / ↑, each key once the
    previous move shows (the list has the focus: a cursor that does not move fails)."""

    def targets() -> list[int]:
        return [y for y, line, _bg in game_rows(t) if all(w in line for w in words)]

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        # the list may be being drawn: read it until the row shows once
        if not t.wait_until(lambda: len(targets()) == 1, deadline - time.monotonic()):
            break
        target, at = targets()[0], cursor_y(t)
        if at == target:
            # the home screen puts the cursor back on the game left: settled?
            if not t.wait_until(lambda target=target: cursor_y(t) != target, 0.5):
                return
            continue
        t.press(DOWN if at is None or at < target else UP)
        if not t.wait_until(lambda at=at: cursor_y(t) != at, 20):
            break
    raise AssertionError(f"the cursor does not reach {words!r}:\n{t.text()}")


def back_home(t: Terminal) -> None:
    """Esc until the home screen shows, each Esc once the screen has settled: keys sent
    while a screen is still being replaced are lost, and an Esc and the next key in one
    read would be Alt+key."""
    for _ in range(4):
        settle(t)
        if "синхронизация" in t.text() and "Турниры" in t.text():
            return
        t.press(ESC)
    whole(t, "Турниры", "синхронизация")


@pytest.fixture
def walk(tmp_path: Path):
    exe, env = installed_app(tmp_path)
    started: list[Terminal] = []

    def run(*argv: str) -> Terminal:
        started.append(Terminal([exe, *argv], env))
        return started[-1]

    yield run, tmp_path
    for t in started:
        t.close()


def test_issue_25_7_every_screen_fits_80x24_in_russian(walk):
    run, tmp = walk
    t = run("demo", "--data-dir", str(tmp / "data"), "--lang", "ru", "--judge", JUDGE)
    w = Walk(t, tmp / "captures")

    # ---- home: every state whole (the state column is the last, the first cut) ----------
    whole(
        t,
        "Демо-кубок по пейнтболу",
        "итог 3:0 · закрыта",
        "итог 1:1 · закрыта",
        "итог 0:2 · закрыта",
        "неявка: Барсы",
        "F1 все клавиши",
        "t команды",
        "s расписание",
    )
    w.capture("home")
    assert "│" not in t.text()  # no hint wraps into a second column (one key a line)

    # ---- standings: every header whole ----------------------------------------------------
    t.press("S")
    whole(t, "Турнирная таблица", "Команда", "Очки", "Разн.", "Неявки", "Доп. показатели")
    whole(t, "личные встречи: очки 1, разница +0", x0=50)  # the tie-break wraps in its column
    w.capture("standings")
    back_home(t)

    # ---- a signed protocol and the head judge's correction dialog (31) -------------------
    choose(t, "10:00", "Медведи", "Драконы")
    t.press("p")
    whole(t, "Медведи — Драконы", "Результат (30.01): водружение флага (Медведи)")
    w.capture("protocol")
    t.press("c")
    whole(
        t,
        "Главный судья: исправление итоговой суммы (31)",
        "h1/h2 водружение флага",
        "f1/f2 удержание флага до конца игры",
        "d ничья (1 = Медведи, 2 = Драконы)",
        "Медведи: очки за игру (пусто: по 30.01)",
        "Драконы: очки за игру (пусто: по 30.01)",
        "Причина",
        "Секрет главного судьи",
        "Enter: дальше / сохранить Esc: отмена",
    )
    w.capture("correction")
    t.press(ESC)
    t.wait_for(gone="исправление итоговой суммы")
    back_home(t)

    # ---- the finished game's screen: its event list ---------------------------------------
    t.press("g")
    whole(t, "Медведи — Драконы", "Капитан подписал протокол: Драконы, Семён Яковлев")
    w.capture("finished-game")
    back_home(t)

    # ---- a game played through every dialog -----------------------------------------------
    choose(t, "10:40", "Медведи", "Тигры")
    t.press("g")
    whole(t, "Медведи — Тигры", "Пробел: запустить время")
    t.press("L")  # 30.01 line-up: which team
    whole(t, "Состав на игру: какая команда?", "[a/ф] Медведи", "[b/и] Тигры")
    t.press("a")
    whole(t, "Состав на игру (30.01): Медведи", "Пробел: играет / в запасе", "Esc: отмена")
    whole(t, "7 Иван Петров · играет", "77 Андрей Новиков · играет")
    w.capture("lineup")
    t.press(ESC)
    t.wait_for(gone="Состав на игру (30.01)")
    t.press(" ")
    whole(t, "Время пошло")
    t.press("a")
    whole(t, "Поражение — Медведи: номер игрока?", "Enter: принять · Esc: отмена")
    t.press("42")
    # every elimination reason with its section (26-29.09, 22.01-22.02, 20.07) whole
    whole(t, "Причина для Медведи #42 Сергей Волков:")
    whole(  # the list's left column, then its right one
        t,
        "[h/р] поражение (26) ◀ Enter",
        "[p/з] игра в поражённом состоянии (28.02)",
        "[g/п] стрельба подобранными шарами (29.01)",
        "[o/щ] выход за пределы поля (29.02)",
        "[d/в] имитация поражения («аут») (29.04)",
        "[t/е] инструмент / запрещённое снаряжение (29.05)",
        x1=41,
    )
    whole(
        t,
        "[e/у] дальше 2 м от снаряжения (29.06)",
        "[s/ы] имитация судейских сигналов (29.09)",
        "[k/л] действия с маркером в игре (20.07)",
        x0=41,
    )
    w.capture("elimination-reasons")
    t.press("\r")
    whole(t, "Медведи #42 Сергей Волков: поражение (26)")
    t.press("p")
    whole(t, "ПНК: какая команда?", "[a/ф] Медведи", "[b/и] Тигры")
    w.capture("paint-check")
    t.press(ESC)  # Esc and the next key in one read would be Alt+key: wait for it
    t.wait_for(gone="ПНК: какая команда?")
    t.press("n")
    whole(t, "Нейтральный: какая команда?", "[a/ф] Медведи", "[b/и] Тигры")
    t.press(ESC)
    t.wait_for(gone="Нейтральный: какая команда?")
    t.press("f")
    whole(t, "Захват флага: какая команда захватила?", "[a/ф] Медведи", "[b/и] Тигры")
    t.press("a")
    whole(t, "Захват флага — Медведи: номер игрока?")
    t.press("11\r")
    whole(t, "Медведи #11 Алексей Смирнов захватил флаг")
    # the in-game chrono (20.02-20.06) and its port dialog
    t.press("c")
    whole(t, "Esc")
    w.capture("ingame-chrono")
    t.press("p")
    whole(
        t,
        "Порт хронографа",
        "Скорость",
        "Ctrl+S: сохранить",
        "Esc: отмена",
    )
    w.capture("chrono-port")
    t.press(ESC)
    t.wait_for(gone="Порт хронографа")
    t.press(ESC)
    whole(t, "Медведи — Тигры", "Время пошло")
    t.press("v")  # void: its prompt opens, then Esc closes it
    # Esc before the prompt shows would leave the game (a loaded machine is slow to draw it)
    whole(t, "Отменить событие №")
    w.capture("void")
    t.press(ESC)
    assert t.wait_until(lambda: "Отменить событие №" not in flat(t), 20), t.text()
    t.press(F1)
    whole(t, "Клавиши: Игра", "Пробел — старт или продолжение времени")
    w.capture("help")
    t.press(ESC)
    t.wait_for(gone="Клавиши: Игра")
    t.press("H")
    whole(t, "Водружение флага: Медведи #11 Алексей Смирнов", "[c] чист")
    w.capture("flag-hang")
    t.press("c")
    # the prompt's switch says what it switches, its key as on a Russian keyboard
    whole(t, "Хронограф маркера флагоносца, фпс", "m/ь: запрещённый режим стрельбы")
    t.press("285\r")
    whole(
        t,
        "Осмотр после игры (18.02)",
        "c: чист",
        "h: найдено поражение",
        "d: не явился",
        "Esc: закрыть",
    )
    w.capture("inspection")
    back_home(t)

    # ---- the marker check (19) with a chronograph on a pseudo-terminal --------------------
    sim = run("chrono", "simulate", "--seed", "2", "--pause", "0.6", "--interval-ms", "113")
    port = sim.wait_for("Ctrl-C").split()[0]
    choose(t, "11:00", "Волки", "Барсы")
    t.press("k")
    whole(t, "Проверка маркеров", "Волки — Барсы")
    t.press("i")
    whole(t, "Волки: явка в")
    t.press("\r")
    whole(t, "Проверяется: Волки #")
    for key in "sam":  # slap test, 19.03 accepted, 19.04 modes
        t.press(key)
    for fps in ("281", "279"):  # typed: their interval is never measured
        t.press("t")
        whole(t, "Скорость, фпс")
        t.press(fps + "\r")
        t.wait_for(gone="Скорость, фпс")
    whole(t, "Интервал не измерен")
    t.press("p")
    whole(t, "Порт хронографа", "Ctrl+S: сохранить", "Esc: отмена")
    t.wait_for("█ Порт  ")  # the port's field at the dialog's left edge
    tab_to(t, "█ Порт  ", 0)  # the port typed once its field has the focus
    t.press(port + "\r")
    t.wait_for(gone="Порт хронографа")
    t.wait_for("показаний: 6")  # a burst of the simulator read
    t.press("r")
    screen = whole(
        t,
        "скорость",
        "наименьший интервал",
        "после отпускания",
        "Интервал не измерен",
    )
    w.capture("marker-check")
    whole(t, "Команда", "Имя", "Результат", x1=40)  # the roster's columns, its last included
    # the rate of fire to a tenth, with the Russian decimal comma (never 113.364)
    results = flat(t, x0=40)  # the check's pane, right of the roster and the chronograph
    # (a whole number of ms is shown without ",0")
    assert re.search(r"наименьший интервал 1\d\d(,\d)? мс", results), screen
    assert not re.search(r"наименьший интервал \d+\.", results), screen
    assert not re.search(r"\d\.\d+ мс", results), screen
    sim.proc.kill()  # the chronograph stops (the fixture closes its terminal)
    t.press("l")
    whole(t, "Состав на игру (30.01): Волки", "Esc: отмена")
    t.press(ESC)
    back_home(t)

    # ---- the tournament's forms and screens ----------------------------------------------
    t.press("n")
    whole(t, "Новый турнир", "Название турнира", "Секрет главного судьи")
    w.capture("new-tournament")
    t.press(ESC)
    back_home(t)
    t.press("t")
    whole(t, "Команды")
    w.capture("teams")
    back_home(t)
    t.press("s")
    whole(t, "Расписание")
    w.capture("schedule")
    back_home(t)
    t.press("\x11")  # Ctrl+Q
    t.exit_code()

    # ---- quidditch: a demo match's round ---------------------------------------------------
    q = run("--data-dir", str(tmp / "q"), "--lang", "ru", "--judge", JUDGE)
    wq = Walk(q, tmp / "captures")
    whole(q, "Турниры")
    q.press("q")
    whole(q, "Матчи по квиддичу", "Демо-матч")
    q.press("d")
    # the whole form, not only its title: the seed's row is read next
    whole(q, "Демо-матч: Гриффиндор — Слизерин", "Клиентский сид")
    seed = row_below(q, "Клиентский сид")
    before = styled(q)[seed]
    q.press("\r")  # the match's name as offered; the seed's field takes the focus
    assert q.wait_until(lambda: styled(q)[seed] != before, 20), q.text()
    q.press("\r")
    whole(q, "Хэш серверного сида (SHA-256)")
    q.press("\r")
    whole(q, "№", "Игрок", "Пост", "Позиция", "Состояние", "Заявлено")
    q.press("\r")  # Джонсон's post: the declaration dialog, saved as offered
    whole(q, "Джонсон (Г) · Охотник · круг 1", "Без действия с мячом", "Ctrl+S: сохранить")
    wq.capture("quidditch-declare")
    q.press("\x13")  # Ctrl+S
    # the «Declared» column is cut at the 80th column: the line under the table says it all
    whole(q, "Заявлено · Джонсон (Г): Без действия с мячом", "Внесено постов: 1 из 14")
    wq.capture("quidditch-round")
    q.press("\x11")
    q.exit_code()
