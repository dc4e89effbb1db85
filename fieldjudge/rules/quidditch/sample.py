"""A ready-made match (Гриффиндор vs Слизерин) for demos, rehearsals and tests."""

from __future__ import annotations

from .roster import BEATER, CHASER, KEEPER, SEEKER, MatchSetup, Player, Team
from .settings import EndCondition, QuidditchSettings

GRYFFINDOR = Team("g", "Гриффиндор", "Г", "Гриффиндора")
SLYTHERIN = Team("s", "Слизерин", "С", "Слизерина")

_ROSTER = (
    ("g_c1", "Джонсон", "g", CHASER, 3, 4),
    ("g_c2", "Белл", "g", CHASER, 2, 2),
    ("g_c3", "Спиннет", "g", CHASER, 1, 0),
    ("g_b1", "Фред Уизли", "g", BEATER, 4, 6),
    ("g_b2", "Джордж Уизли", "g", BEATER, 4, 5),
    ("g_k", "Вуд", "g", KEEPER, 5, 8),
    ("g_s", "Поттер", "g", SEEKER, 2, 3),
    ("s_c1", "Флинт", "s", CHASER, 5, 3),
    ("s_c2", "Монтегю", "s", CHASER, 2, 1),
    ("s_c3", "Уоррингтон", "s", CHASER, 1, 1),
    ("s_b1", "Деррик", "s", BEATER, 3, 2),
    ("s_b2", "Боул", "s", BEATER, 3, 2),
    ("s_k", "Блетчли", "s", KEEPER, 4, 4),
    ("s_s", "Хиггс", "s", SEEKER, 1, 2),
)


def sample_setup(
    match_id: str = "demo",
    settings: QuidditchSettings | None = None,
    end: EndCondition | None = None,
    client_seed: str = "",
    seed_hash: str = "",
) -> MatchSetup:
    return MatchSetup(
        match_id=match_id,
        teams=(GRYFFINDOR, SLYTHERIN),
        players=tuple(Player(*row) for row in _ROSTER),
        settings=settings or QuidditchSettings(),
        end=end or EndCondition(),
        client_seed=client_seed,
        seed_hash=seed_hash,
    )
