"""The database check ``serve`` runs before it opens the file for writing.

A damaged file must not be served: with a broken index a game's link answers 404 while
new games are written into the damaged file, a broken last page answers 500, a broken
header gives a traceback, and an emptied file would start a new, empty app as if nothing
had been lost. SQLite's ``PRAGMA quick_check`` reads every page of the file once (it
leaves out only the cross-check of indexes against their tables, which needs a sort per
index), so it is cheap enough for every start.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from scorer import store

CONFIG = "config.py"  # written on an instance's first start (scorer.web.app.ensure_instance)
SHOWN = 3  # problems of quick_check quoted in the refusal


def problem(path: Path) -> tuple[str | None, float]:
    """What is wrong with the database file (None if it is sound or not there yet), and
    how long the check took, in seconds."""
    if not path.exists():
        return None, 0.0
    if path.stat().st_size == 0:
        # A brand-new instance may hold an empty file somebody created; one that has run
        # before (its config.py is there) had a database, and an empty one means it is lost.
        if (path.parent / CONFIG).exists():
            return "the file is empty (0 bytes), but this instance has run before", 0.0
        return None, 0.0
    started = time.perf_counter()
    try:
        found = store.quick_check(path)
    except sqlite3.DatabaseError as exc:
        return f"SQLite cannot read it ({exc})", time.perf_counter() - started
    seconds = time.perf_counter() - started
    if found == ["ok"]:
        return None, seconds
    text = "; ".join(" ".join(line.split()) for line in found[:SHOWN])
    more = f" and {len(found) - SHOWN} more" if len(found) > SHOWN else ""
    return f"PRAGMA quick_check found: {text}{more}", seconds


def refusal(path: Path, found: str) -> str:
    """The one line serve prints when it refuses a damaged database."""
    folder = path.parent
    return (f"serve: {path}: the database is damaged ({found}); nothing was changed and "
            f"nothing is served. Restore a backup: python -m scorer restore BACKUP "
            f"--instance {folder} (first save what still reads: python -m scorer backup "
            f"COPY --instance {folder})")
