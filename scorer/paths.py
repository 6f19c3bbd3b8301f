"""Where the data folders that ship with the package live."""

from pathlib import Path

_HERE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """Return ``rules`` or ``templates``: inside the installed package, else the checkout."""
    inside = _HERE / name
    return inside if inside.is_dir() else _HERE.parent / name
