"""The judge's round post, in Russian (RULES.md "The shape of a judge's round post").

Every number comes from the logged rolls: each roll is shown as «бросок N против порога T»
(success when N <= T); draws as «жребий: бросок N из 1..k».
"""

from __future__ import annotations

from collections.abc import Callable

from ..dice import Roll
from .declarations import RING_NAMES_RU
from .order import next_round_order
from .outcome import BLUDGERS, END, QUAFFLE, SNITCH, WARNINGS, Outcome, RoundResult
from .roster import MatchSetup
from .state import HELD, LOOSE, THROW_UP, MatchState

WASTED_RU = {
    "no_receiver": "пас без адресата",
    "not_a_chaser": "адресат не охотник своей команды",
    "receiver_out": "адресат выбыл из игры",
    "receiver_no_zone": "адресат не указал в посте, где находится",
    "receiver_elsewhere": "адресат в другой части поля",
}
ORDER_RU = {
    "beaters_last": "защитники отписываются последними",
    "targeted_before_beaters": "игрок под бладжером пишет до защитников",
    "carrying_team_first": "первыми пишут охотники команды с квоффлом",
    "keeper_after_shooter": "вратарь пишет после атакующего охотника",
}
END_RU = {
    "snitch": "снитч пойман",
    "points": "достигнут лимит очков",
    "rounds": "достигнут лимит кругов",
}


def roll_ru(r: Roll) -> str:
    if r.threshold is None:
        return f"жребий: бросок {r.value}"
    return f"бросок {r.value} против порога {r.threshold}"


def _rolls(o: Outcome) -> str:
    return "; ".join(roll_ru(r) for r in o.rolls)


def _feint(name: str | None, bonus: int | None = None) -> str:
    if not name:
        return ""
    return f"финт «{name}»" + (f" (+{bonus})" if bonus else "")


class _Writer:
    def __init__(self, setup: MatchSetup):
        self.setup = setup

    def n(self, pid: str) -> str:
        return self.setup.label(pid) if pid else "—"

    def team(self, key: str) -> str:
        return self.setup.team(key).name

    # quaffle --------------------------------------------------------------------------
    def throw_up(self, o: Outcome) -> str:
        tried = ", ".join(self.n(p) for p in o.data["tried"])
        tail = f" ({_rolls(o)})" if o.rolls else ""
        return f"Розыгрыш квоффла: ловят {tried}{tail} — квоффл получает {self.n(o.players[0])}."

    def throw_up_nobody(self, o: Outcome) -> str:
        return "Розыгрыш квоффла: никто из охотников не ловил, квоффл в воздухе."

    def pick_up(self, o: Outcome) -> str:
        return f"{self.n(o.players[0])} первым подбирает упавший квоффл."

    def pick_up_late(self, o: Outcome) -> str:
        return ""

    def _tries(self, o: Outcome) -> str:
        parts = []
        for t, r in zip(o.data.get("tries", []), o.rolls, strict=False):
            f = _feint(t["feint"], t["bonus"])
            ok = "перехват удался" if t["success"] else "не перехватил"
            parts.append(
                f"Перехват — {self.n(t['player'])}{', ' + f if f else ''}: {roll_ru(r)} — {ok}"
            )
        extra = o.rolls[len(o.data.get("tries", [])) :]
        contest = o.data.get("contest")
        if contest:
            # 5, interception "contest": both values are shown, the higher takes the ball
            tried = {t["player"] for t in o.data.get("tries", [])}
            vals = ", ".join(f"{self.n(c['player'])} — {c['value']}" for c in contest)
            parts.append(f"Спор за мяч (п. 5, забирает большее значение): {vals}")
            extra = extra[sum(1 for c in contest if c["player"] not in tried) :]
            if extra:
                parts.append("Переброс при равенстве: " + "; ".join(roll_ru(r) for r in extra))
        elif extra:
            parts.append(
                "Спор за мяч (забирает большее значение): " + "; ".join(roll_ru(r) for r in extra)
            )
        return ("; ".join(parts) + ".") if parts else ""

    def pass_caught(self, o: Outcome) -> str:
        a, b = o.players[:2]
        return f"{self.n(a)} — пас, адресат {self.n(b)}: пас принят. {self._tries(o)}".strip()

    def pass_intercepted(self, o: Outcome) -> str:
        a, b, c = o.players
        return (
            f"{self.n(a)} — пас, адресат {self.n(b)}. {self._tries(o)} Квоффл получает {self.n(c)}, "
            "ведение начинается заново."
        )

    def pass_wasted(self, o: Outcome) -> str:
        a, b = o.players
        why = WASTED_RU.get(o.data["reason"], o.data["reason"])
        return f"{self.n(a)} — пас, адресат {self.n(b)}: {why}, квоффл в «молоко». {self._tries(o)}".strip()

    def pass_no_ball(self, o: Outcome) -> str:
        return f"{self.n(o.players[0])} — пас без квоффла в руках, не засчитан."

    def intercept_no_pass(self, o: Outcome) -> str:
        return f"{self.n(o.players[0])} — перехват паса игрока {self.n(o.data['passer'])}: паса не было."

    def steal_refused(self, o: Outcome) -> str:
        return (
            f"{self.n(o.players[0])} пытается отнять квоффл — не засчитано: от команды "
            "одна попытка отъёма за круг (п. 4)."
        )

    def steal_no_ball(self, o: Outcome) -> str:
        return f"{self.n(o.players[0])} — отъём, цель {self.n(o.players[1])}: квоффла у цели нет."

    def steal(self, o: Outcome) -> str:
        a, b = o.players
        f = _feint(o.data["feint"], o.data["bonus"])
        res = "отнял, ведение начинается заново" if o.data["success"] else "не отнял"
        return f"{self.n(a)} — отъём, цель {self.n(b)}{', ' + f if f else ''}: {_rolls(o)} — {res}."

    def _shot_text(self, o: Outcome, what: str) -> str:
        a, k = o.players
        ring = RING_NAMES_RU[o.data["ring"]]
        kr = o.data["keeper_ring"]
        kring = (
            f"вратарь {self.n(k)} страхует {RING_NAMES_RU[kr]}"
            if kr
            else f"вратарь {self.n(k)} кольцо не указал"
        )
        feints = [
            x
            for x in (
                _feint(o.data["shot_feint"], o.data["shot_bonus"]),
                _feint(o.data["save_feint"], o.data["save_bonus"]),
            )
            if x
        ]
        fe = f" ({', '.join(feints)})" if feints else ""
        rolls = f": {_rolls(o)}" if o.rolls else ""
        res = f"ГОЛ, +{o.data['points']}" if o.data["goal"] else "вратарь взял мяч"
        return f"{what} {self.n(a)}, {ring} кольцо; {kring}{fe}{rolls} — {res}."

    def shot(self, o: Outcome) -> str:
        return self._shot_text(o, "Бросок по кольцам:")

    def penalty(self, o: Outcome) -> str:
        return self._shot_text(o, "Пенальти (п. 5.1):")

    def penalty_waiting(self, o: Outcome) -> str:
        return f"Пенальти в ворота {self.setup.team(o.data['team']).of} ждёт бьющего охотника."

    def shot_no_ball(self, o: Outcome) -> str:
        return f"{self.n(o.players[0])} — бросок без квоффла в руках, не засчитан."

    def shot_too_early(self, o: Outcome) -> str:
        return (
            f"{self.n(o.players[0])} — бросок раньше, чем прошёл круг ведения (п. 3): броска нет."
        )

    def shot_no_ring(self, o: Outcome) -> str:
        return f"{self.n(o.players[0])} — бросок без кольца, сообщённого судье: броска нет."

    def push(self, o: Outcome) -> str:
        a, b = o.players
        mode = {"mutual": "обоюдный толчок", "dodge": "толкнутый уклоняется", "push": "толчок"}[
            o.data["mode"]
        ]
        if o.data.get("feint"):
            mode += f" ({_feint(o.data['feint'])})"
        legal = "" if o.data["legal"] else " — запрещённый (п. 11.4)"
        fell = []
        if o.data["target_fell"]:
            fell.append(f"{self.n(b)} падает на 2 круга")
        if o.data["pusher_fell"]:
            fell.append(f"{self.n(a)} падает на 2 круга")
        return f"{self.n(a)} — толчок, цель {self.n(b)}{legal}; {mode}: {_rolls(o)} — {', '.join(fell) or 'никто не упал'}."

    # bludgers -------------------------------------------------------------------------
    def bludger_rest(self, o: Outcome) -> str:
        return f"Бладжер {o.data['bludger']} после отбития ни на кого не наводится."

    def bludger_target_down(self, o: Outcome) -> str:
        return f"Бладжер {o.data['bludger']}, цель — {self.n(o.players[0])}: цель уже сбита, бладжер пролетает мимо."

    def hit_missed_ball(self, o: Outcome) -> str:
        b, p = o.players
        return f"Бладжер {o.data['bludger']}, цель — {self.n(p)}: {self.n(b)} пытается отбить: {_rolls(o)} — не успел."

    def hit_away(self, o: Outcome) -> str:
        b, p, aim = o.players
        head = f"Бладжер {o.data['bludger']}, цель — {self.n(p)}: {self.n(b)} отбивает"
        if not o.data["valid_aim"]:
            return (
                f"{head}: {_rolls(o)} — цель удара не указана или недопустима, бладжер в «молоко»."
            )
        res = "попал" if o.data["accurate"] else "мимо, бладжер в «молоко»"
        return f"{head}, направляет в сторону игрока {self.n(aim)}: отбитие и точность — {_rolls(o)} — {res}."

    def knocked_down(self, o: Outcome) -> str:
        p = o.players[0]
        why = "пропустил ход" if o.data["skipped"] else "без финта"
        return f"Бладжер {o.data['bludger']}, цель — {self.n(p)}: {why} — сбит на 2 круга."

    def dodge(self, o: Outcome) -> str:
        p = o.players[0]
        res = "уклонился" if o.data["success"] else "сбит на 2 круга"
        return f"Бладжер {o.data['bludger']}, цель — {self.n(p)}: {_feint(o.data['feint'])}, {_rolls(o)} — {res}."

    def injury(self, o: Outcome) -> str:
        out = " — травма выводит из матча" if o.data["ends_match"] else ""
        return f"Травма — {self.n(o.players[0])}: {o.data['text']} ({_rolls(o)}){out}."

    # snitch ---------------------------------------------------------------------------
    def snitch_vanished(self, o: Outcome) -> str:
        return f"Снитч исчез ({_rolls(o)}) — погоня сброшена, ловцы снова высматривают."

    def snitch_stays(self, o: Outcome) -> str:
        return f"Снитч не исчез ({_rolls(o)})."

    def catch(self, o: Outcome) -> str:
        p = o.players[0]
        f = _feint(o.data["feint"], o.data["bonus"])
        res = "ПОЙМАЛ снитч, +150" if o.data["success"] else "не поймал"
        both = " (догнали оба, ловит выпавший по жребию)" if len(o.data["contenders"]) > 1 else ""
        return f"{self.n(p)} ловит снитч{both}{', ' + f if f else ''}: {_rolls(o)} — {res}."

    def follow(self, o: Outcome) -> str:
        return f"{self.n(o.players[0])} летит следом за соперником."

    def chase(self, o: Outcome) -> str:
        p = o.players[0]
        f = f", {_feint(o.data['feint'])}: {_rolls(o)}" if o.data["feint"] else ""
        left = (
            "догнал снитч, в следующем круге может ловить"
            if o.data["caught_up"]
            else f"осталось {o.data['left']}"
        )
        return f"{self.n(p)} в погоне{f} — {left}."

    def spot(self, o: Outcome) -> str:
        p = o.players[0]
        res = (
            f"заметил снитч, начинается погоня (осталось {o.data['left']} круга)"
            if o.data["success"]
            else "не заметил"
        )
        return f"{self.n(p)}: {_rolls(o)} — {res}."

    # warnings -------------------------------------------------------------------------
    def team_warning(self, o: Outcome) -> str:
        who = f", {self.n(o.players[0])}" if o.players else ""
        return f"{self.team(o.data['team'])} — предупреждение команде (п. {o.section}{who}), всего {o.data['count']}."

    def player_warning(self, o: Outcome) -> str:
        rule = ORDER_RU.get(o.data.get("rule", ""), "")
        return f"{self.n(o.players[0])} — неигровое предупреждение (п. {o.section}{': ' + rule if rule else ''})."

    def penalty_awarded(self, o: Outcome) -> str:
        return f"Пенальти в ворота {self.setup.team(o.data['team']).of} (п. {o.section})."

    def sent_off(self, o: Outcome) -> str:
        return f"{self.n(o.players[0])} удалён с поля на {o.data['rounds']} круг (п. 11.3)."

    def removed(self, o: Outcome) -> str:
        return f"{self.n(o.players[0])} удалён с поля до конца матча (п. 11.4)."

    def match_end(self, o: Outcome) -> str:
        return f"Матч окончен: {END_RU.get(o.data['reason'], o.data['reason'])}."


def _section(w: _Writer, outcomes: list[Outcome]) -> list[str]:
    out = []
    for o in outcomes:
        fn: Callable[[Outcome], str] | None = getattr(w, o.kind, None)
        if o.kind == "bludger_target" or fn is None:
            continue
        text = fn(o)
        if text:
            out.append(text)
    return out


def _quaffle_status(w: _Writer, s: MatchState) -> str:
    q = s.quaffle
    if q.status == HELD and q.holder:
        return f"Квоффл: {w.n(q.holder)}."
    if q.status == LOOSE:
        return "Квоффл на земле: получит первый отписавшийся о подборе охотник."
    if q.status == THROW_UP:
        return "Квоффл ещё не разыгран."
    return ""


def render_post(result: RoundResult) -> str:
    s = result.state
    setup = s.setup
    w = _Writer(setup)
    a, b = setup.teams
    lines = [
        f"Круг {result.round_no}. Счёт: {a.name} {s.score[a.key]} : {s.score[b.key]} {b.name}",
        "",
    ]
    q = _section(w, result.by_phase(QUAFFLE))
    lines.append("Квоффл. " + " ".join([*q, _quaffle_status(w, s)]).strip())
    bl = _section(w, result.by_phase(BLUDGERS))
    lines.append("Бладжеры. " + (" ".join(bl) if bl else "Бладжеры никого не сбили."))
    sn = _section(w, result.by_phase(SNITCH))
    lines.append("Снитч. " + (" ".join(sn) if sn else "Снитч не замечен."))
    wr = _section(w, result.by_phase(WARNINGS))
    lines.append("Предупреждения: " + (" ".join(wr) if wr else "нет."))
    end = _section(w, result.by_phase(END))
    lines.append("")
    if s.ended:
        lines.append(
            " ".join(end) + f" Итог: {a.name} {s.score[a.key]} : {s.score[b.key]} {b.name}."
        )
    else:
        lines.append(next_round_line(s))
    lines.append(verification_line(result))
    return "\n".join(lines)


def render_passes_post(result: RoundResult) -> str:
    """The judge's post of the passes resolved within a round (0, 5: «рассчитываются и
    отписываются судьёй внутри круга ходов»): only what was resolved at that point -- the
    passes, who holds the quaffle now, any warning they brought, the rolls. Bludgers, the
    snitch and the next round's order are resolved at the round's end: not a word of them
    here (a pass post must not tell players «Бладжеры никого не сбили» before the beaters
    have posted)."""
    s = result.state
    w = _Writer(s.setup)
    a, b = s.setup.teams
    q = _section(w, result.by_phase(QUAFFLE))
    lines = [
        f"Пасы внутри круга {result.round_no} (п. 0, 5):",
        f"Счёт: {a.name} {s.score[a.key]} : {s.score[b.key]} {b.name}",
        "",
        "Квоффл. " + " ".join([*q, _quaffle_status(w, s)]).strip(),
    ]
    wr = _section(w, result.by_phase(WARNINGS))
    if wr:
        lines.append("Предупреждения: " + " ".join(wr))
    lines += [
        "",
        f"Круг {result.round_no} продолжается: остальные посты круга, бладжеры и снитч — "
        "в итоговом посте круга.",
        verification_line(result),
    ]
    return "\n".join(lines)


def next_round_line(s: MatchState) -> str:
    setup = s.setup
    w = _Writer(setup)
    order = next_round_order(s)
    parts = []
    if order["penalty"]:
        parts.append(
            f"пенальти в ворота {setup.team(order['penalty']).of}: охотник соперника, затем вратарь"
        )
    team = order["chasers_first"]
    if team:
        parts.append(f"первыми отписываются охотники {setup.team(team).of}")
    else:
        parts.append("первыми отписываются охотники обеих команд")
    if order["targeted_before_beaters"]:
        names = ", ".join(w.n(p) for p in order["targeted_before_beaters"])
        parts.append(f"{names} — до защитников")
    parts.append("защитники последними")
    for i, bl in enumerate(s.bludgers, 1):
        if bl.rest or bl.target is None:
            parts.append(f"бладжер {i} не наводится")
        else:
            parts.append(f"бладжер {i} — цель {w.n(bl.target)}")
    out = [f"{w.n(p)} (ещё {n})" for p, n in sorted(s.out.items())]
    if out:
        parts.append("пропускают кругов: " + ", ".join(out))
    chase = [
        f"{w.n(p)}: осталось {st.rounds_left}" if st.chasing else f"{w.n(p)} догнал снитч"
        for p, st in s.seekers.items()
        if st.in_chase
    ]
    if chase:
        parts.append("погоня за снитчем — " + ", ".join(chase))
    return "Следующий круг: " + "; ".join(parts) + "."


def verification_line(result: RoundResult) -> str:
    setup = result.state.setup
    h = f" (sha256 {setup.seed_hash[:16]}…)" if setup.seed_hash else ""
    if result.rolls:
        first, last = result.rolls[0].n, result.rolls[-1].n
        nums = f"бросок №{first}" if first == last else f"броски №{first}–{last}"
    else:
        nums = "бросков не было"
    return (
        f"Проверка бросков: круг {result.round_no}, {nums}, хэш сида опубликован перед матчем{h}."
    )
