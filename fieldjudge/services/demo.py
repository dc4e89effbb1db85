"""The bundled demo tournament: 8 teams of 5 with Russian names, a schedule on 2 fields.

Built through the same store as real data, in a fresh folder, never the user's own."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from pathlib import Path

from fieldjudge.csv_import import RosterRow
from fieldjudge.services.demo_history import add_history
from fieldjudge.services.opening import create_tournament
from fieldjudge.services.tournament import TournamentService
from fieldjudge.services.trust.head_judge import DEFAULT_PARAMS, DEMO_PASSPHRASE, ScryptParams
from fieldjudge.settings import DEFAULTS
from fieldjudge.store.storage import free_path

TEAMS = {
    "Медведи": [
        "Иван Петров",
        "Алексей Смирнов",
        "Дмитрий Козлов",
        "Сергей Волков",
        "Андрей Новиков",
    ],
    "Волки": ["Михаил Морозов", "Николай Лебедев", "Павел Соколов", "Артём Попов", "Егор Васильев"],
    "Соколы": ["Кирилл Фёдоров", "Максим Орлов", "Роман Зайцев", "Олег Павлов", "Денис Семёнов"],
    "Рыси": [
        "Илья Голубев",
        "Антон Виноградов",
        "Владимир Богданов",
        "Юрий Воробьёв",
        "Глеб Тарасов",
    ],
    "Барсы": [
        "Степан Белов",
        "Тимур Комаров",
        "Виктор Киселёв",
        "Фёдор Макаров",
        "Григорий Андреев",
    ],
    "Ястребы": ["Василий Ковалёв", "Борис Ильин", "Лев Гусев", "Арсений Титов", "Матвей Кузьмин"],
    "Тигры": [
        "Евгений Кудрявцев",
        "Константин Баранов",
        "Ярослав Куликов",
        "Вадим Алексеев",
        "Руслан Степанов",
    ],
    "Драконы": [
        "Семён Яковлев",
        "Тихон Сорокин",
        "Марк Сергеев",
        "Всеволод Романов",
        "Пётр Захаров",
    ],
}
NUMBERS = [7, 11, 23, 42, 77]
SLOT = timedelta(minutes=20)  # 7:00 game + 12 min (32.03) + a minute to change over


def round_robin(names: list[str], rounds: int) -> list[list[tuple[str, str]]]:
    """Circle method: each round pairs every team once."""
    ring = list(names)
    out = []
    for _r in range(rounds):
        half = len(ring) // 2
        out.append([(ring[i], ring[-1 - i]) for i in range(half)])
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return out


def create_demo(
    folder: Path,
    day: date | None = None,
    lock: bool = True,
    kdf: ScryptParams = DEFAULT_PARAMS,
) -> TournamentService:
    """The demo tournament; its head judge's secret is :data:`DEMO_PASSPHRASE` (printed
    by ``fieldjudge demo``)."""
    day = day or date.today()
    t = create_tournament(
        folder,
        name="Демо-кубок по пейнтболу",
        day=day,
        venue="Полигон «Северный»",
        head_judge="Главный судья Демо",
        head_judge_secret=DEMO_PASSPHRASE,
        kdf=kdf,
        division="Д3",
        settings=dict(DEFAULTS),
        lock=lock,
    )
    rows = []
    line = 2
    for team, players in TEAMS.items():
        for i, (num, name) in enumerate(zip(NUMBERS, players, strict=True)):
            rows.append(RosterRow(line, team, num, name, captain=i == 0))
            line += 1
    t.import_roster(rows)
    start = datetime.combine(day, datetime.min.time()).replace(hour=10)
    team_id = {name: tid for tid, name in t.team_names().items()}
    games = []
    for r, pairs in enumerate(round_robin(list(TEAMS), 3)):
        for i, (a, b) in enumerate(pairs):
            slot = r * 2 + i // 2
            games.append(
                {
                    "field": str(i % 2 + 1),
                    "start": start + slot * SLOT,
                    "team_a": team_id[a],
                    "team_b": team_id[b],
                }
            )
    t.add_games(games)
    add_history(t)  # the first round played, closed and signed (issue 5)
    return t


def fresh_demo_folder(data_dir: Path) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return free_path(Path(data_dir) / f"demo-{stamp}")
