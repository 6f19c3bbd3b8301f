"""The engine is a pure library: no Flask, store or PDF code behind ``import scorer.engine``."""

import ast
import subprocess
import sys
from pathlib import Path

import scorer.engine

ENGINE = Path(scorer.engine.__file__).parent
FORBIDDEN = ("flask", "flask_wtf", "flask_babel", "sqlite_utils", "weasyprint", "waitress",
             "scorer.store", "scorer.web", "scorer.sheet", "scorer.chart", "scorer.cli")


def test_import_leaves_flask_out():
    """A fresh interpreter that imports the engine has not loaded Flask or WeasyPrint."""
    code = ("import sys, scorer.engine; "
            "print(','.join(m for m in ('flask', 'weasyprint', 'sqlite_utils') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == ""


def test_engine_sources_import_nothing_forbidden():
    """No module of the engine names Flask, the store, the web or the PDF code."""
    offenders = []
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names
                          if any(n == f or n.startswith(f + ".") for f in FORBIDDEN)]
    assert offenders == []
