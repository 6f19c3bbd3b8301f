"""The layers of docs/DESIGN.md hold: engine < store < web, sheet, cli (import-linter)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def lint_imports() -> subprocess.CompletedProcess:
    """Run import-linter on the contracts in pyproject.toml, without its cache."""
    code = "import sys; from importlinter.cli import lint_imports_command; lint_imports_command()"
    return subprocess.run([sys.executable, "-c", code, "--no-cache"], cwd=ROOT,
                          capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_every_layer_contract_is_kept():
    """No module imports a layer above its own; the sheet never imports web or store."""
    out = lint_imports()
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Contracts: 4 kept, 0 broken." in out.stdout
