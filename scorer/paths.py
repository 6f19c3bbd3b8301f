"""Where the data folders that ship with the package live (rules, templates).

Imported by the engine, so it imports nothing beyond the standard library; the app's own
data folder is found by ``scorer.instance``.
"""

from pathlib import Path

_HERE = Path(__file__).resolve().parent
DATABASE_NAME = "scorer.sqlite"


def data_dir(name: str) -> Path:
    """Return ``rules`` or ``templates``: inside the installed package, else the checkout."""
    inside = _HERE / name
    return inside if inside.is_dir() else _HERE.parent / name
