"""A game still being played when the head judge exports: its protocol, on paper as on the
protocol screen, says the result is provisional (30.02: the points are proposed at the end
of the game), so a page printed mid-game is never read as the final score; once the
game is over and its protocol closed, the line is gone."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from fieldjudge.commands.results import results_main
from fieldjudge.export.names import game_stem
from fieldjudge.i18n import ru
from fieldjudge.services import open_tournament
from fieldjudge.services.paintball import results
from fieldjudge.services.paintball.game import GameSession
from fieldjudge.services.paintball.protocol_doc import protocol_doc
from tests.results_fixtures import demo
from tests.test_export_paper import flat, html_text, pdf_pages

PROVISIONAL_RU = "Игра ещё не окончена: результат предварительный"
PROVISIONAL_EN = "The game is not over yet: the result below is provisional"


def _live_game(folder: Path) -> tuple[str, str, str]:
    """Game 4 started with one player of team B out (still running); the stems of game 4
    and of game 0, the demo's first game, played and locked."""
    t = demo(folder)
    try:
        g = t.games()[4]
        s = GameSession(t, g["id"], judge="Судья")
        s.start_clock()  # 30.02: no result proposed before the end
        s.eliminate(s.teams[1], int(t.players(s.teams[1])[0]["number"]))
        return g["id"], game_stem(t, g), game_stem(t, t.games()[0])
    finally:
        t.close()


def test_30_02_protocol_of_a_game_in_progress_is_marked_provisional(tmp_path: Path):
    gid, _live, _locked = _live_game(tmp_path / "cup")
    t = open_tournament(tmp_path / "cup")
    try:
        doc = protocol_doc(t, results.game_view(t, gid), ru, "ru")
        assert doc.provisional == PROVISIONAL_RU
        locked = protocol_doc(t, results.game_view(t, t.games()[0]["id"]), ru, "ru")
        assert locked.provisional == ""  # over and signed: the result stands
    finally:
        t.close()


@pytest.mark.parametrize(
    "lang,line", [("ru", PROVISIONAL_RU), ("en", PROVISIONAL_EN)], ids=["ru", "en"]
)
def test_30_02_exported_protocol_of_a_live_game_says_provisional(tmp_path: Path, lang, line):
    _gid, live, locked = _live_game(tmp_path / "cup")
    runner = CliRunner()
    for fmt in ("html", "pdf"):
        out = tmp_path / f"out-{fmt}"
        args = ["export", "--tournament", str(tmp_path / "cup"), "--format", fmt]
        res = runner.invoke(results_main, [*args, "--out", str(out), "--lang", lang])
        assert res.exit_code == 0, res.output
        if fmt == "html":
            page = (out / f"protocol-{live}.html").read_text(encoding="utf-8")
            closed = (out / f"protocol-{locked}.html").read_text(encoding="utf-8")
            shown = flat(" ".join(html_text(page).parts))
            other = flat(" ".join(html_text(closed).parts))
        else:
            shown = " ".join(pdf_pages(out / f"protocol-{live}.pdf"))
            other = " ".join(pdf_pages(out / f"protocol-{locked}.pdf"))
        assert line in shown, fmt
        assert line not in other, fmt
