"""The import graph of the package, module by module (issue 23, DESIGN.md "Layers").

``lint-imports`` checks the layers between packages; these tests read every module's imports
(those under ``if TYPE_CHECKING:`` too: a cycle of types is still a cycle a reader must
untangle) and assert that no two modules import each other, however indirectly, and that no
module imports from a layer above its own. The layers are read from the ``layers`` contract
in pyproject.toml, so the two checks share one source of truth."""

from __future__ import annotations

import tomllib
from pathlib import Path

import grimp
import pytest

PACKAGE = "fieldjudge"
PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(PACKAGE, cache_dir=None)


def layers() -> list[list[str]]:
    """The ``layers`` contract's layers, top first; each a list of sibling modules."""
    config = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["importlinter"]
    (contract,) = [c for c in config["contracts"] if c["type"] == "layers"]
    return [[m.strip() for m in layer.split("|")] for layer in contract["layers"]]


def where(graph: grimp.ImportGraph, importer: str, imported: str) -> str:
    """``importer:line: the import`` for each line where ``importer`` imports ``imported``."""
    details = graph.get_import_details(importer=importer, imported=imported)
    return "; ".join(f"{importer}:{d['line_number']}: {d['line_contents']}" for d in details)


def cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected components of more than one module: each module with every
    module it reaches that also reaches it back."""
    found = set()
    for module in graph.modules:
        both = graph.find_upstream_modules(module) & graph.find_downstream_modules(module)
        if both:
            found.add(frozenset(both | {module}))
    return sorted(sorted(c) for c in found)


def test_no_cycle_between_modules(graph: grimp.ImportGraph) -> None:
    """No module reaches itself through its imports, type-only imports included."""
    report = []
    for cycle in cycles(graph):
        report.append(f"a cycle of {len(cycle)} modules: " + ", ".join(cycle))
        report += [
            "  " + where(graph, a, b)
            for a in cycle
            for b in cycle
            if a != b and graph.direct_import_exists(importer=a, imported=b)
        ]
    assert not report, "\n".join(report)


def test_cycle_finder_finds_a_cycle() -> None:
    """The check can fail: two modules importing each other are one cycle."""
    g = grimp.ImportGraph()
    for m in ("p", "p.a", "p.b", "p.c"):
        g.add_module(m)
    g.add_import(importer="p.a", imported="p.b")
    g.add_import(importer="p.b", imported="p.a")
    g.add_import(importer="p.c", imported="p.a")
    assert cycles(g) == [["p.a", "p.b"]]


def layer_of(module: str, table: list[list[str]]) -> tuple[int, str] | None:
    """(layer index from the top, the sibling it belongs to) of ``module``."""
    for index, siblings in enumerate(table):
        for sibling in siblings:
            if module == sibling or module.startswith(sibling + "."):
                return index, sibling
    return None


def test_every_module_has_a_layer(graph: grimp.ImportGraph) -> None:
    """A module outside the layers would let an import climb unseen through it."""
    table = layers()
    loose = sorted(m for m in graph.modules if m != PACKAGE and layer_of(m, table) is None)
    assert not loose, f"modules in no layer of pyproject's layers contract: {loose}"


def climbing(graph: grimp.ImportGraph, table: list[list[str]]) -> list[str]:
    """Each import from a layer to a layer above it or to a sibling of its own layer."""
    out = []
    for importer in sorted(graph.modules):
        mine = layer_of(importer, table)
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            theirs = layer_of(imported, table)
            if mine is None or theirs is None or mine == theirs or theirs[0] > mine[0]:
                continue
            out.append(f"{mine[1]} -> {theirs[1]}: {where(graph, importer, imported)}")
    return out


def test_no_import_from_a_higher_layer(graph: grimp.ImportGraph) -> None:
    """Every import goes down the layers, or stays within its own package of a layer
    (siblings of one layer import nothing of each other)."""
    found = climbing(graph, layers())
    assert not found, "imports from a higher layer or a sibling:\n" + "\n".join(found)


def test_layer_check_finds_a_climbing_import() -> None:
    """The check can fail: a lower layer importing a higher one, or a sibling."""
    g = grimp.ImportGraph()
    for m in ("p", "p.top", "p.low", "p.low.x", "p.side"):
        g.add_module(m)
    g.add_import(importer="p.top", imported="p.low.x", line_number=1, line_contents="down")
    g.add_import(importer="p.low.x", imported="p.top", line_number=2, line_contents="up")
    g.add_import(importer="p.low", imported="p.side", line_number=3, line_contents="aside")
    assert climbing(g, [["p.top"], ["p.low", "p.side"]]) == [
        "p.low -> p.side: p.low:3: aside",
        "p.low -> p.top: p.low.x:2: up",
    ]
