"""``fieldjudge-results`` (issue 24): the head judge's export, verify, merge and
sign-tournament without loading the app. The same commands as ``fieldjudge``'s, the same
files written, the same Russian help; the app, its UI and the pit display's server are
never imported. It is the one program that exports: ``fieldjudge export`` becomes it, and
the ``fieldjudge`` command loads no PDF library."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from results_fixtures import demo

from fieldjudge.commands import results
from fieldjudge.commands.exporting import export_command
from fieldjudge.commands.results import results_main

#: a standings page's "as of" time and the like: the only bytes two exports may differ in
CLOCK = re.compile(rb"\d{2}[.:]\d{2}([.:]\d{2,4})?")


def loaded_by(module: str, names: tuple[str, ...]) -> list[str]:
    """Which of ``names`` a fresh interpreter has loaded once it imported ``module``."""
    code = f"import sys, {module}; print(sorted(m for m in {names!r} if m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    return ast.literal_eval(out)


def test_24_the_results_command_imports_no_app_ui_or_pit_server() -> None:
    app = ("textual", "aiohttp", "segno", "serial", "fieldjudge.app", "fieldjudge.screens")
    assert loaded_by("fieldjudge.commands.results", (*app, "fieldjudge.serve")) == []


def test_24_the_command_that_opens_the_app_loads_no_pdf_library() -> None:
    """The app's export runs the results program in a child (the PDF library is about
    0.45 s of CPU and 22 MB of every start on a slow laptop)."""
    pdf = ("fpdf", "fontTools", "PIL", "fieldjudge.export", "fieldjudge.commands.results")
    assert loaded_by("fieldjudge.cli", pdf) == []


def test_24_30_01_fieldjudge_export_writes_the_files_the_results_export_writes(
    tmp_path: Path,
) -> None:
    """``fieldjudge export`` (the installed command's code, in a process: it becomes the
    results program) with its global options after the subcommand: the same files as
    ``fieldjudge-results export``, the same output."""
    data = tmp_path / "data"
    demo(data / "cup").close()
    written, said = {}, {}
    for name in ("command", "results"):
        out = tmp_path / name
        args = ["export", "--format", "csv", "--out", str(out), "--lang", "en"]
        args += ["--data-dir", str(data), "--delimiter", "\\t"]
        if name == "command":
            ran = subprocess.run(
                [sys.executable, "-m", "fieldjudge", *args],
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
            )
            code, output = ran.returncode, ran.stdout + ran.stderr
        else:
            res = CliRunner().invoke(results_main, args)
            code, output = res.exit_code, res.output
        assert code == 0, output
        written[name] = {p.name: CLOCK.sub(b"", p.read_bytes()) for p in out.iterdir()}
        said[name] = output.replace(str(out), "OUT")
    assert len(written["command"]) == 1 and written["command"] == written["results"]
    (table,) = written["command"].values()
    assert table.decode("utf-8-sig").startswith("Division\tPlace\tTeam")
    assert said["command"] == said["results"]


# a value of any text a command line can carry (no NUL), dashes and "=" included
ARG = st.text(st.characters(exclude_characters="\x00", exclude_categories=("Cs",)), max_size=12)


@settings(max_examples=60, deadline=None)
@given(
    data_dir=st.none() | ARG.filter(bool),
    ui=st.sampled_from([None, "ru", "en"]),
    folder=st.none() | ARG.filter(bool),
    game_id=st.none() | ARG,
    all_games=st.booleans(),
    fmt=st.sampled_from(["html", "pdf", "csv", "json"]),
    out=ARG.filter(bool),
    lang=st.sampled_from([None, "ru", "en"]),
    delimiter=st.none() | ARG,
    flags=st.tuples(st.booleans(), st.booleans(), st.booleans()),
)
def test_24_the_program_reads_the_options_fieldjudge_export_read(
    data_dir, ui, folder, game_id, all_games, fmt, out, lang, delimiter, flags
) -> None:
    """What ``fieldjudge export`` passes on to the program it becomes: the program reads
    every option back as the command read it, whatever the text (a value starting with a
    dash, holding "=" or spaces)."""
    overwrite, include_unplayed, force = flags
    options = {
        "folder": None if folder is None else Path(folder),
        "game_id": game_id,
        "all_games": all_games,
        "fmt": fmt,
        "out": Path(out),
        "lang": lang,
        "delimiter": delimiter,
        "overwrite": overwrite,
        "include_unplayed": include_unplayed,
        "force": force,
    }
    root = {"data_dir": None if data_dir is None else Path(data_dir), "lang": ui}
    argv = export_command(root, **options)
    assert argv[:3] == [sys.executable, "-m", "fieldjudge.commands.results"]
    at = argv.index("export")
    group = results_main.make_context("fieldjudge-results", [*argv[3:at], "export"])
    read_root = {k: group.params[k] for k in ("data_dir", "lang")}
    if data_dir is None and os.environ.get("FIELDJUDGE_DATA"):  # the program's default
        root["data_dir"] = Path(os.environ["FIELDJUDGE_DATA"])
    assert read_root == root
    command = results.export.make_context("export", argv[at + 1 :])
    assert command.params == {**options, "for_app": False}


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


def test_25_a_path_of_the_wrong_kind_is_named_in_russian(tmp_path: Path) -> None:
    """click names the kind of path it wanted: «Папка … — файл.» (it read «Directory»,
    the type's name made before the language was chosen)."""
    from fieldjudge.cli import main

    f = tmp_path / "bad.json"
    f.write_text("{}")
    for program in (main, results_main):
        res = CliRunner().invoke(program, ["--lang", "ru", "verify", str(f)])
        assert res.exit_code == 2 and f"Папка '{f}' — файл." in res.output, res.output
    res = CliRunner().invoke(main, ["--lang", "en", "verify", str(f)])
    assert f"Directory '{f}' is a file." in res.output, res.output


def test_open_refuses_a_folder_that_holds_no_tournament(tmp_path: Path) -> None:
    """``fieldjudge open`` on an empty folder (a typo, a stick not mounted) says there is
    no tournament there; it opened the app on a «damaged file» with a restore key. A
    tournament folder that lost its tournament.json still opens (its backups restore it)."""
    from fieldjudge.cli import main

    res = CliRunner().invoke(main, ["--lang", "ru", "open", str(tmp_path)])
    assert res.exit_code == 1
    assert f"в {tmp_path} нет турнира (нет tournament.json): укажите папку турнира" in res.output
