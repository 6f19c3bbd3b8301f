"""The database check ``serve`` runs before it opens the file for writing.

A damaged file must not be served: with a broken index a game's link answers 404 while
new games are written into the damaged file, a broken last page answers 500, a broken
header gives a traceback, and an emptied file would start a new, empty app as if nothing
had been lost. The start is as strict as ``restore``: SQLite's ``PRAGMA integrity_check``
(every page read, and every index compared with its table: ``quick_check`` passed a stale
index whose game's link then answered 404), the schema version (a file a newer version of
the app made is not migrated backwards under it), and the club's rows through the checks
a restore runs, but for texts and name keys (scorer.store_checks: the club's tables are
small, and a text an older version let through must not stop a start). The figures on
a 40 MB file are in docs/RELIABILITY.md (benchmarks/startup.py measures them).
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from scorer import store, store_checks

CONFIG = "config.py"  # written on an instance's first start (scorer.web.app.ensure_instance)
SHOWN = 3  # problems of integrity_check quoted in the refusal
NEWER = "written by a newer version of scorer"


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
        conn = store.inspect(path)
        try:
            found = checked(conn)
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        return f"SQLite cannot read it ({exc})", time.perf_counter() - started
    return found, time.perf_counter() - started


def checked(conn: sqlite3.Connection) -> str | None:
    """What integrity_check, the schema version or the club's rows find, or None."""
    found = store.integrity_check(conn)
    if found != ["ok"]:
        text = "; ".join(" ".join(line.split()) for line in found[:SHOWN])
        more = f" and {len(found) - SHOWN} more" if len(found) > SHOWN else ""
        return f"PRAGMA integrity_check found: {text}{more}"
    newer = store_checks.newer_schema(conn)
    if newer:
        return f"{NEWER} (schema {newer})"
    try:
        store_checks.check_rows(conn, store_checks.CLUB_TABLES, strict=False)
    except store_checks.RowError as err:
        return f"{err.where}: {err.text('en')}"
    return None


def refusal(path: Path, found: str) -> str:
    """The one line serve prints when it refuses a database it must not open."""
    folder = path.parent
    if found.startswith(NEWER):
        return (f"serve: {path}: {found}; nothing was changed and nothing is served. Run "
                f"that version, or restore a backup this version wrote: python -m scorer "
                f"restore BACKUP --instance {folder}")
    return (f"serve: {path}: the database is damaged ({found}); nothing was changed and "
            f"nothing is served. Restore a backup: python -m scorer restore BACKUP "
            f"--instance {folder} (first save what still reads: python -m scorer backup "
            f"COPY --instance {folder})")
