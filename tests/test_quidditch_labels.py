"""The round result screen names every outcome in the UI language: each phase and kind the
engine can emit has an English label and its Russian translation."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from quidditch_helpers import D, make_state, run_trials

import fieldjudge.rules.quidditch as engine
from fieldjudge import i18n
from fieldjudge.rules.quidditch.outcome import PHASES, Outcome
from fieldjudge.screens.quidditch.labels import kind_labels, outcome_label, phase_labels

ENGINE = Path(engine.__file__).parent


def _const(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _call_name(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else getattr(f, "attr", "")


def emitted_kinds() -> set[str]:
    """Every ``kind`` passed to ``ctx.emit`` in the engine. A kind given as a parameter of the
    enclosing function is looked up in every call of that function (``_shoot_at(..., "shot")``);
    anything the scan cannot see fails the test rather than being skipped."""
    trees = {f: ast.parse(f.read_text(encoding="utf-8")) for f in sorted(ENGINE.glob("*.py"))}
    calls = [n for t in trees.values() for n in ast.walk(t) if isinstance(n, ast.Call)]
    kinds: set[str] = set()
    for f, tree in trees.items():
        for fn in [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]:
            for call in [n for n in ast.walk(fn) if isinstance(n, ast.Call)]:
                if _call_name(call) != "emit" or len(call.args) < 2:
                    continue
                arg = call.args[1]
                if _const(arg) is not None:
                    kinds.add(_const(arg))
                    continue
                assert isinstance(arg, ast.Name), f"{f.name}:{call.lineno}: kind {ast.unparse(arg)}"
                params = [a.arg for a in fn.args.args]
                assert arg.id in params, f"{f.name}:{call.lineno}: kind {arg.id} is not a param"
                i = params.index(arg.id)
                users = [c for c in calls if _call_name(c) == fn.name]
                assert users, f"{f.name}: {fn.name} is never called"
                for c in users:
                    given = {k.arg: k.value for k in c.keywords}.get(arg.id)
                    if given is None and i < len(c.args):
                        given = c.args[i]
                    value = _const(given)
                    assert value, f"{fn.name} called at line {c.lineno} with an unseen kind"
                    kinds.add(value)
    return kinds


def test_the_scan_finds_the_engine_kinds() -> None:
    kinds = emitted_kinds()
    assert {"throw_up", "shot", "penalty", "dodge", "injury", "push", "match_end"} <= kinds
    assert len(kinds) > 35


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_phase_and_kind_the_engine_emits_has_a_label(lang: str) -> None:
    ru = i18n.load("ru")
    kinds = emitted_kinds()
    i18n.set_language("en")
    en_kinds, en_phases = kind_labels(), phase_labels()
    # complete, and nothing stale: exactly the kinds and phases the engine has
    assert set(en_kinds) == kinds
    assert set(en_phases) == set(PHASES)
    for raw, label in [*en_kinds.items(), *en_phases.items()]:
        assert label and "_" not in label, (raw, label)
        assert ru.gettext(label) != label, f"no Russian for {label!r} ({raw})"
    i18n.set_language(lang)
    shown = [*kind_labels().values(), *phase_labels().values()]
    if lang == "ru":
        assert all(any("а" <= ch.lower() <= "я" for ch in s) for s in shown), shown
    else:
        assert shown == [*en_kinds.values(), *en_phases.values()]


def test_outcome_label_in_russian_and_english() -> None:
    o = Outcome("quaffle", "throw_up", "2", ("g_c1",))
    assert outcome_label(o) == "Quaffle · throw-up (s. 2)"
    i18n.set_language("ru")
    assert outcome_label(o) == "Квоффл · розыгрыш (п. 2)"
    assert outcome_label(Outcome("bludgers", "dodge", "7")) == "Бладжеры · уклонение (п. 7)"
    # a kind this version does not know (a newer match file) is shown as stored
    assert outcome_label(Outcome("snitch", "new_kind", "9")) == "Снитч · new_kind (п. 9)"


def test_rounds_played_emit_only_labelled_kinds() -> None:
    state = make_state(round_no=1)
    decls = [
        D("g_c1", "catch_throw_up", post_order=1),
        D("s_c1", "catch_throw_up", post_order=2),
        D("g_s", "search"),
        D("s_s", "search"),
    ]
    labels = kind_labels()
    for res in run_trials(state, decls, 20):
        got = {o.kind for o in res.outcomes}
        assert got <= set(labels), got
