"""Where things live: the data folders that ship with the package, and the app's own data.

The server, the ``pdf`` command and the database commands all find the app's data
folder and SQLite file through the same two functions here, so they always agree.
"""

import os
from pathlib import Path

_HERE = Path(__file__).resolve().parent
DATABASE_NAME = "scorer.sqlite"


def data_dir(name: str) -> Path:
    """Return ``rules`` or ``templates``: inside the installed package, else the checkout."""
    inside = _HERE / name
    return inside if inside.is_dir() else _HERE.parent / name


def instance_folder(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The app's data folder: ``explicit`` (--instance), else $SCORER_INSTANCE, else Flask's
    default for the package (./instance in a checkout)."""
    chosen = explicit or os.environ.get("SCORER_INSTANCE")
    if chosen:
        return Path(chosen).resolve()
    # Imported here: the engine reads data_dir() from this module and must not load Flask.
    from flask import Flask

    return Path(Flask("scorer").instance_path)


def database(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The app's SQLite file inside its data folder."""
    return instance_folder(explicit) / DATABASE_NAME
