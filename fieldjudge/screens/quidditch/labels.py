"""Readable names of a round's outcomes (issue 6): the engine's phase and kind of each
:class:`Outcome` in the UI language, e.g. «Квоффл · розыгрыш (п. 2)» instead of
``quaffle · throw_up``. Every phase and kind the engine emits has a label (a test scans
``fieldjudge/rules/quidditch`` for them); an unknown one, say from a newer match file, is
shown as it is stored."""

from __future__ import annotations

from fieldjudge.i18n import _
from fieldjudge.rules.quidditch.outcome import BLUDGERS, END, QUAFFLE, SNITCH, WARNINGS, Outcome


def phase_labels() -> dict[str, str]:
    """The engine's phases (``outcome.PHASES``), in the current UI language."""
    return {
        QUAFFLE: _("Quaffle"),
        BLUDGERS: _("Bludgers"),
        SNITCH: _("Snitch"),
        WARNINGS: _("Warnings"),
        END: _("Match end"),
    }


def kind_labels() -> dict[str, str]:
    """Every outcome kind the engine emits, in the current UI language."""
    return {
        # quaffle (2-6, 10)
        "throw_up": _("throw-up"),
        "throw_up_nobody": _("throw-up, nobody tried"),
        "pick_up": _("quaffle picked up"),
        "pick_up_late": _("pick-up too late"),
        "pass_caught": _("pass caught"),
        "pass_intercepted": _("pass intercepted"),
        "pass_wasted": _("pass wasted"),
        "pass_no_ball": _("pass without the quaffle"),
        "intercept_no_pass": _("interception, no pass"),
        "steal": _("steal attempt"),
        "steal_refused": _("steal not allowed"),
        "steal_no_ball": _("steal, target has no quaffle"),
        "shot": _("shot at the rings"),
        "penalty": _("penalty shot"),
        "penalty_waiting": _("penalty waiting"),
        "shot_no_ball": _("shot without the quaffle"),
        "shot_too_early": _("shot too early"),
        "shot_no_ring": _("shot, no ring given"),
        # collisions (10), in the quaffle or snitch phase
        "push": _("push"),
        # bludgers (7-8)
        "bludger_target": _("bludger targets a player"),
        "bludger_rest": _("bludger targets nobody"),
        "bludger_target_down": _("bludger target already down"),
        "hit_missed_ball": _("hit missed the bludger"),
        "hit_away": _("bludger hit away"),
        "knocked_down": _("knocked down"),
        "dodge": _("dodging the bludger"),
        "injury": _("injury"),
        # snitch (9)
        "spot": _("looking for the snitch"),
        "chase": _("chasing the snitch"),
        "follow": _("following the other seeker"),
        "catch": _("catching the snitch"),
        "snitch_stays": _("snitch stays"),
        "snitch_vanished": _("snitch vanished"),
        # warnings (11)
        "team_warning": _("team warning"),
        "player_warning": _("non-game warning"),
        "penalty_awarded": _("penalty awarded"),
        "sent_off": _("sent off for a round"),
        "removed": _("removed from the match"),
        # end (9)
        "match_end": _("match over"),
    }


def outcome_label(o: Outcome) -> str:
    """«Phase · kind (п. section)» in the current UI language."""
    return _("{phase} · {kind} (s. {section})").format(
        phase=phase_labels().get(o.phase, o.phase),
        kind=kind_labels().get(o.kind, o.kind),
        section=o.section,
    )
