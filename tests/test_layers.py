"""The layers of docs/DESIGN.md hold: engine < store < web, sheet, cli, and inside the web
app > games list > club > game > plumbing with no import circle (import-linter)."""

import ast
import inspect
import os
import subprocess
import sys
from pathlib import Path

from scorer import engine

ROOT = Path(__file__).resolve().parents[1]


def lint_imports() -> subprocess.CompletedProcess:
    """Run import-linter on the contracts in pyproject.toml, without its cache."""
    code = "import sys; from importlinter.cli import lint_imports_command; lint_imports_command()"
    return subprocess.run([sys.executable, "-c", code, "--no-cache"], cwd=ROOT,
                          capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_every_layer_contract_is_kept():
    """No module imports a layer above its own; the sheet never imports web or store; no
    circle inside scorer.web."""
    out = lint_imports()
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Contracts: 9 kept, 0 broken." in out.stdout


def engine_submodules_imported_outside() -> set[tuple[str, str]]:
    """(file, submodule) for each import of a scorer.engine submodule outside the engine."""
    found = set()
    for path in (ROOT / "scorer").rglob("*.py"):
        if "engine" in path.relative_to(ROOT / "scorer").parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                # ``from scorer.engine import texts`` would import a submodule too
                # (``catalog`` there is the function, not the module of that name)
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names
                                         if node.module == "scorer.engine"
                                         and inspect.ismodule(getattr(engine, a.name, None))]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            found.update((path.relative_to(ROOT).as_posix(), name) for name in names
                         if name.startswith("scorer.engine."))
    return found


def test_only_the_text_catalog_is_imported_from_inside_the_engine():
    """Outside the engine, code imports from ``scorer.engine`` itself, or the text catalog
    ``scorer.engine.texts`` (docs/ENGINE-API.md), never another submodule."""
    others = {(f, m) for f, m in engine_submodules_imported_outside()
              if m != "scorer.engine.texts"}
    assert not others
    assert engine_submodules_imported_outside()  # the scan sees the texts imports
