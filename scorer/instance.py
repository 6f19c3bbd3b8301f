"""The app's own data folder (the Flask instance folder) and its SQLite file.

The server, the ``pdf`` command and the database commands all find them through the
two functions here, so they always agree. Kept apart from ``scorer.paths`` because it
needs Flask to know the default folder, and the engine must never load Flask.
"""

import os
from pathlib import Path

from flask import Flask

from scorer.paths import DATABASE_NAME


def instance_folder(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The app's data folder: ``explicit`` (--instance), else $SCORER_INSTANCE, else Flask's
    default for the package (./instance in a checkout)."""
    chosen = explicit or os.environ.get("SCORER_INSTANCE")
    if chosen:
        return Path(chosen).resolve()
    return Path(Flask("scorer").instance_path)


def database(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The app's SQLite file inside its data folder."""
    return instance_folder(explicit) / DATABASE_NAME
