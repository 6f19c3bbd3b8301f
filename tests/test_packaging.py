"""``pip install .`` ships rules/ and templates/ inside the package, not beside it."""

import subprocess
import sys
import zipfile
from pathlib import Path

from scorer import __version__
from scorer.paths import data_dir


def test_data_dirs_are_found():
    """The catalog and the templates are found wherever the package runs from."""
    assert (data_dir("rules") / "catalog.toml").is_file()
    assert (data_dir("rules") / "presets" / "classic.toml").is_file()
    assert data_dir("templates").is_dir()


def test_wheel_ships_rules_inside_the_package(tmp_path):
    """A real wheel holds scorer/rules/*.toml and no top-level ``rules`` package."""
    root = Path(__file__).resolve().parents[1]  # the checkout the tests run in
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-v", "-w",
                            str(tmp_path), str(root)], check=True, capture_output=True,
                           text=True)
    # Every folder that ships files is a package of pyproject.toml's list.
    assert "is absent from the `packages` configuration" not in built.stdout + built.stderr
    wheel = next(tmp_path.glob("tysyacha_scorer-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "scorer/rules/catalog.toml" in names
    assert "scorer/rules/presets/polish.toml" in names
    assert not any(n.startswith(("rules/", "templates/")) for n in names)
    assert any(n.startswith("scorer/templates/") for n in names)
    # The service worker's script and the board's styles.
    assert "scorer/templates/offline/sw.js" in names
    assert "scorer/web/static/board.css" in names
    assert {"scorer/web/game/pages.py", "scorer/web/club/pages.py"} <= set(names)  # packages
    assert {f"scorer/translations/{code}/LC_MESSAGES/messages.mo"
            for code in ("ru", "uk", "pl")} <= set(names)
    assert "scorer/templates/game/_protocol_row.html" in names
    assert "scorer/web/static/icon-192.png" in names
    assert "scorer/py.typed" in names  # the package is typed (PEP 561)
    # The distribution has a name of its own; the package it installs is ``scorer``.
    dist_info = f"tysyacha_scorer-{__version__}.dist-info"
    assert {n.split("/")[0] for n in names} == {"scorer", dist_info}
    metadata = zipfile.ZipFile(wheel).read(f"{dist_info}/METADATA")
    assert "\nName: tysyacha-scorer\n" in metadata.decode()
