#!/usr/bin/env bash
# The one command that installs everything the tests need and runs them (README "Two
# commands", and .ci/run). System packages the tests use (headless Chromium for the pit
# display page, Syncthing for sync) come from Debian's apt when missing; Python packages
# from pyproject.toml's test extra, in a virtual environment (VENV, default .venv).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-.venv}"

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v syncthing >/dev/null 2>&1 || need+=(syncthing)
if ((${#need[@]})); then
    if command -v apt-get >/dev/null 2>&1; then
        SUDO=""
        [ "$(id -u)" = 0 ] || SUDO="sudo"
        echo "installing system packages: ${need[*]}"
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
    else
        echo "warning: no apt-get; the tests that need ${need[*]} will fail" >&2
    fi
fi

[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
. "$VENV/bin/activate"
python -m pip install --quiet --upgrade pip
python -m pip install --quiet -e '.[test]'

# The layer and style checks before the tests: lint, format, the import contracts of
# DESIGN.md "Layers" (pyproject.toml [tool.importlinter]) and types of rules/, store/ and
# services/ (pyproject.toml [tool.mypy]).
ruff check .
ruff format --check .
lint-imports
mypy

# The app's bytecode written once: every fieldjudge process the tests start (verify,
# export, the app in a pty, the crash children) would otherwise compile its modules again
# when bytecode is not written (PYTHONDONTWRITEBYTECODE): 0.2 s of CPU each.
python -m compileall -q fieldjudge

# Four workers even on two cores: the suite waits on fsyncs, child processes, ptys and
# Syncthing more than it computes (two workers kept the two cores only half busy: 104 % of
# 200 %), and four keep it under 5 minutes there. A module at a time to a worker, in the
# order collected (tests/conftest.py puts the longest modules first): the long ones start
# at once on every worker and the short ones fill in at the end; a module's fixtures
# (a Syncthing pair, the rendered rules table) are made once.
python -m pytest -p no:cacheprovider -n "${TEST_WORKERS:-4}" --dist loadfile \
    --no-loadscope-reorder "$@"

# Every benchmark must run (issue 24): each one's --quick mode, its figures not asserted.
# Their tournaments and this laptop's key go into a folder of the run's own, never the
# tester's config folder (pinned head judges, the chosen chronograph).
bench_home="$(mktemp -d)"
for b in benchmarks/bench_*.py; do
    FIELDJUDGE_CONFIG="$bench_home/config" FIELDJUDGE_DATA="$bench_home/data" \
        python "$b" --quick >/dev/null || exit 1
done
rm -rf "$bench_home"
