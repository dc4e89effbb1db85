"""``fieldjudge-results`` (issue 24): the head judge's export, verify, merge and
sign-tournament without loading the app. The same commands as ``fieldjudge``'s, the same
files written, the same Russian help; the app, its UI and the pit display's server are
never imported."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner
from results_fixtures import demo

from fieldjudge.cli import main
from fieldjudge.commands.results import results_main

#: a standings page's "as of" time and the like: the only bytes two exports may differ in
CLOCK = re.compile(rb"\d{2}[.:]\d{2}([.:]\d{2,4})?")


def test_24_the_results_command_imports_no_app_ui_or_pit_server() -> None:
    code = (
        "import sys, fieldjudge.commands.results; "
        "print(sorted(m for m in ('textual', 'aiohttp', 'segno', 'serial', 'fieldjudge.app', "
        "'fieldjudge.screens', 'fieldjudge.serve') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_24_30_01_the_results_export_writes_the_files_fieldjudge_export_writes(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "cup"
    demo(folder).close()
    runner = CliRunner()
    written = {}
    for name, group in (("app", main), ("results", results_main)):
        out = tmp_path / name
        args = ["export", "--tournament", str(folder), "--format", "html", "--out", str(out)]
        res = runner.invoke(group, args)
        assert res.exit_code == 0, res.output
        written[name] = {p.name: CLOCK.sub(b"", p.read_bytes()) for p in out.iterdir()}
    assert len(written["app"]) > 3 and written["app"] == written["results"]


def test_24_25_the_results_command_speaks_russian_and_takes_the_global_options(
    tmp_path: Path,
) -> None:
    runner = CliRunner()
    out = runner.invoke(results_main, ["--lang", "ru", "--help"]).output
    assert "без загрузки приложения" in out and "Показать эту справку и выйти." in out
    res = runner.invoke(results_main, ["verify", "--lang", "ru", str(tmp_path / "none")])
    assert res.exit_code != 0 and "нет такой папки" in res.output
    assert set(results_main.commands) == {
        "export",
        "verify",
        "merge",
        "sign-tournament",
        "register-laptop",
    }


def test_24_21_30_01_an_export_checks_and_folds_each_game_file_from_one_read(
    tmp_path: Path, monkeypatch
) -> None:
    """The check before an export (issue 21: every chain and signature) and the export's
    pass share one read of each game file (issue 24); the documents are the same."""
    from fieldjudge.store import eventlog, validate

    folder = tmp_path / "cup"
    demo(folder).close()
    reads: list[str] = []

    def counted(read):
        def reading(path, *args, **kwargs):
            if Path(path).parent.name == "games":
                reads.append(Path(path).stem)
            return read(path, *args, **kwargs)

        return reading

    # every read of a log file, checked in one pass or in full (store.validate)
    monkeypatch.setattr(validate, "read_lines_or_bytes", counted(validate.read_lines_or_bytes))
    monkeypatch.setattr(eventlog, "read_file_bytes", counted(eventlog.read_file_bytes))
    out = tmp_path / "out"
    args = ["export", "--tournament", str(folder), "--format", "html", "--out", str(out)]
    res = CliRunner().invoke(results_main, args)
    assert res.exit_code == 0, res.output
    logged = sorted(p.stem for p in (folder / "games").glob("*.json"))
    assert len(logged) > 3 and sorted(reads) == logged
