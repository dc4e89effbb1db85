"""The feint catalogue (12): data, not code -- the rulebook says the section will grow.

A feint has a name, the situations it fits and a bonus range; the judge picks the bonus
inside the range. Situations:

- ``steal`` (4) and ``intercept`` (5): +5..15 to the chaser's chance;
- ``shot`` (6): a chaser's feint lowering the keeper's save on the same ring by 5..15;
- ``save`` (6): a keeper's feint, 5..20 save on a different ring, or cancelling a chaser's
  ``shot`` feint on the same ring;
- ``dodge`` (7): escaping a bludger -- required, no bonus (the chance is 50 % + skill);
- ``speed`` (9): a seeker's dash, removes one chase round with 85 %, no bonus;
- ``catch`` (9): +5..10 to a seeker's catch, once per chase;
- ``push_dodge`` (10): dodging a push, 50 %, no bonus.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

STEAL = "steal"
INTERCEPT = "intercept"
SHOT = "shot"
SAVE = "save"
DODGE = "dodge"
SPEED = "speed"
CATCH = "catch"
PUSH_DODGE = "push_dodge"
SITUATIONS = (STEAL, INTERCEPT, SHOT, SAVE, DODGE, SPEED, CATCH, PUSH_DODGE)

# The range the rulebook allows for each situation; a catalogue entry must stay inside it.
SITUATION_RANGES: dict[str, tuple[int, int]] = {
    STEAL: (5, 15),
    INTERCEPT: (5, 15),
    SHOT: (5, 15),
    SAVE: (5, 20),
    DODGE: (0, 0),
    SPEED: (0, 0),
    CATCH: (5, 10),
    PUSH_DODGE: (0, 0),
}

SITUATION_NAMES_RU: dict[str, str] = {
    STEAL: "отъём",
    INTERCEPT: "перехват",
    SHOT: "бросок",
    SAVE: "сейв",
    DODGE: "уклонение от бладжера",
    SPEED: "рывок",
    CATCH: "поимка снитча",
    PUSH_DODGE: "уклонение от толчка",
}


@dataclass(frozen=True)
class Feint:
    name: str
    situations: tuple[str, ...]
    bonus_min: int = 0
    bonus_max: int = 0
    # 4: «не считая групповых финтов» -- a steal with a group feint is not held to the one
    # steal attempt per team and round
    group: bool = False

    def __post_init__(self) -> None:
        bad = [s for s in self.situations if s not in SITUATIONS]
        if bad:
            raise ValueError(f"feint {self.name!r}: unknown situations {bad}")
        if not 0 <= self.bonus_min <= self.bonus_max:
            raise ValueError(f"feint {self.name!r}: bad bonus range")

    def fits(self, situation: str) -> bool:
        return situation in self.situations

    def bonus_range(self, situation: str) -> tuple[int, int]:
        """The feint's range clipped to what the rulebook allows for the situation."""
        lo, hi = SITUATION_RANGES[situation]
        return max(lo, min(self.bonus_min, hi)), min(hi, max(self.bonus_max, lo))

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "name": self.name,
            "situations": list(self.situations),
            "bonus_min": self.bonus_min,
            "bonus_max": self.bonus_max,
        }
        if self.group:
            d["group"] = True
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Feint:
        return cls(
            name=d["name"],
            situations=tuple(d.get("situations", ())),
            bonus_min=int(d.get("bonus_min", 0)),
            bonus_max=int(d.get("bonus_max", 0)),
            group=bool(d.get("group", False)),
        )


DEFAULT_FEINTS: tuple[Feint, ...] = (
    Feint("Ложный замах", (STEAL, INTERCEPT), 5, 10),
    Feint("Манёвр Порскова", (STEAL, INTERCEPT, SHOT), 5, 15),
    Feint("Вулонгонгский зигзаг", (SHOT,), 10, 15),
    Feint("Обратный пас", (SHOT, INTERCEPT), 5, 10),
    Feint("Звёздочка с палкой", (SAVE,), 5, 15),
    Feint("Двойная восьмёрка", (SAVE,), 10, 20),
    Feint("Штопор", (DODGE, PUSH_DODGE)),
    Feint("Перевёрнутый ленивец", (DODGE,)),
    Feint("Бочка", (DODGE, PUSH_DODGE)),
    Feint("Рывок", (SPEED,)),
    Feint("Финт Вронского", (CATCH, DODGE), 5, 10),
    Feint("Пас Пламптона", (CATCH,), 5, 5),
)


class FeintCatalogue:
    """Feints by name, in catalogue order."""

    # 12: «раздел будет дополняться» -- the catalogue is data the judge edits, not code

    def __init__(self, feints: Iterable[Feint] = DEFAULT_FEINTS) -> None:
        self._by_name: dict[str, Feint] = {}
        for f in feints:
            if f.name in self._by_name:
                raise ValueError(f"duplicate feint {f.name!r}")
            self._by_name[f.name] = f

    def __iter__(self):
        return iter(self._by_name.values())

    def __len__(self) -> int:
        return len(self._by_name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FeintCatalogue) and self.to_list() == other.to_list()

    __hash__ = None  # type: ignore[assignment]

    def get(self, name: str | None) -> Feint | None:
        return None if name is None else self._by_name.get(name)

    def for_situation(self, situation: str) -> list[Feint]:
        return [f for f in self._by_name.values() if f.fits(situation)]

    def to_list(self) -> list[dict[str, Any]]:
        return [f.to_dict() for f in self._by_name.values()]

    @classmethod
    def from_list(cls, items: Sequence[Mapping[str, Any]]) -> FeintCatalogue:
        return cls(Feint.from_dict(d) for d in items)
