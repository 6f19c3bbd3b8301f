"""No import circle inside the engine: counting every import a module makes (at the top,
inside a function, under TYPE_CHECKING), and the package's own ``__init__`` as a module,
no engine module leads back to itself.

pyproject.toml's ``acyclic_siblings`` contract says the same through import-linter; this
scan adds the package itself (``from scorer.engine import X`` in a submodule would loop
through ``__init__``, which imports every submodule) and says which modules loop.
"""

from __future__ import annotations

import ast
from pathlib import Path

import scorer.engine

ENGINE = Path(scorer.engine.__file__).parent
PACKAGE = "scorer.engine"
Graph = dict[str, set[str]]


def module_name(path: Path) -> str:
    """scorer.engine for __init__.py, scorer.engine.NAME for NAME.py."""
    return PACKAGE if path.stem == "__init__" else f"{PACKAGE}.{path.stem}"


def imported(node: ast.Import | ast.ImportFrom, modules: set[str]) -> set[str]:
    """The engine modules one import statement loads (the package for its own names)."""
    if isinstance(node, ast.Import):
        targets = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:  # relative: from . import x, from .x import y
            base = ".".join([PACKAGE, base]) if base else PACKAGE
        # ``from scorer.engine import barrel`` loads the submodule; another name of the
        # package (``RuleError``) is read from its __init__.
        targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                   for a in node.names]
    found = set()
    for target in targets:
        while target and target not in modules:  # scorer.engine.texts.tr -> ...texts
            target = target.rpartition(".")[0]
        if target:
            found.add(target)
    return found


def engine_graph(folder: Path = ENGINE) -> Graph:
    """Module -> the engine modules it imports anywhere in its source."""
    files = sorted(folder.glob("*.py"))
    modules = {module_name(p) for p in files}
    graph: Graph = {}
    for path in files:
        name = module_name(path)
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                edges |= imported(node, modules)
        graph[name] = edges - {name}
    return graph


def circles(graph: Graph) -> list[list[str]]:
    """One loop through each module that lies on one (depth-first, each loop as a path)."""
    found: list[list[str]] = []
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> None:
        """Walk on from ``node``; a module already on the path closes a loop."""
        for nxt in sorted(graph.get(node, ())):
            if nxt in path:
                found.append(path[path.index(nxt):] + [nxt])
            elif nxt not in done:
                visit(nxt, path + [nxt])
        done.add(node)

    for start in sorted(graph):
        if start not in done:
            visit(start, [start])
    return found


def test_the_engine_has_no_import_circle():
    """No engine module imports (however indirectly, however lazily) one importing it."""
    graph = engine_graph()
    assert "scorer.engine.barrel" in graph["scorer.engine.scoring"]  # the scan sees imports
    assert len(graph[PACKAGE]) >= 8  # __init__ imports the submodules
    assert circles(graph) == []


def test_the_scan_finds_every_kind_of_import(tmp_path):
    """A loop made by a TYPE_CHECKING import, a function's import or a name read from the
    package's __init__ is found, each one."""
    (tmp_path / "__init__.py").write_text("from scorer.engine.a import A\n")
    (tmp_path / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from scorer.engine.b import B\nA = 1\n")
    (tmp_path / "b.py").write_text("def f():\n    from scorer.engine import a\n")
    (tmp_path / "c.py").write_text("from scorer.engine import A\n")
    (tmp_path / "d.py").write_text("from . import c\nfrom .a import A\n")
    graph = engine_graph(tmp_path)
    assert graph["scorer.engine.c"] == {PACKAGE}
    assert graph["scorer.engine.d"] == {"scorer.engine.c", "scorer.engine.a"}
    assert circles(graph) == [["scorer.engine.a", "scorer.engine.b", "scorer.engine.a"]]
    (tmp_path / "a.py").write_text("from scorer.engine.c import x\n")
    assert circles(engine_graph(tmp_path)) == [
        ["scorer.engine", "scorer.engine.a", "scorer.engine.c", "scorer.engine"]]
