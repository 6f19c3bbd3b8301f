"""What the start-up check of ``serve`` costs on a large file, part by part.

    python benchmarks/startup.py [--games 100] [--deals 2000] [--repeat 3]

Builds a database of ``--games`` card-dealt games of ``--deals`` deals each
(benchmarks/games.py; 100 × 2000 is about 40 MB), with the club's players and seat links,
a rename, a merge and a season, then times what ``serve`` runs before it opens the file
(scorer.cli.dbcheck.problem: integrity_check, the schema version, the club's rows) and,
beside it, quick_check (what the start ran before), and the strict row check a restore
runs over every kept table. Medians of ``--repeat`` runs, the file in the page cache.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from games import card_dealt  # noqa: E402

from scorer import store, store_checks  # noqa: E402
from scorer.cli import dbcheck  # noqa: E402
from scorer.club import Club  # noqa: E402


def build(path: Path, games: int, deals: int) -> None:
    """The database: games, linked seats and a little club history."""
    db = store.connect(path)
    store.migrate(db)
    st = store.Store(db)
    log = card_dealt(deals)
    head = {k: v for k, v in log.items() if k != "deals"}
    for _ in range(games):
        st.create_games([(head, log["deals"])])
    with st.writing():
        store.link_host_games(db)
    club = Club(db)
    club.rename(1, "Анна")
    club.add_season("Осень", "2026-09-01", "2026-11-30")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def timed(work: Callable[[], object], repeat: int) -> float:
    """The median seconds of ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def pragma(path: Path, name: str) -> Callable[[], object]:
    """One PRAGMA on a fresh connection that sets nothing (store.inspect)."""
    def run() -> object:
        conn = store.inspect(path)
        try:
            return conn.execute(f"PRAGMA {name}").fetchall()
        finally:
            conn.close()
    return run


def rows(path: Path, tables: tuple[str, ...] | None, strict: bool) -> Callable[[], object]:
    """store_checks.check_rows over these tables."""
    def run() -> object:
        conn = store.inspect(path)
        try:
            return store_checks.check_rows(conn, tables, strict=strict)
        finally:
            conn.close()
    return run


def main() -> None:
    """Build the file and print each part's median time."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "scorer.sqlite"
        build(path, args.games, args.deals)
        size = path.stat().st_size / 2**20
        print(f"{args.games} games × {args.deals} deals: {size:.1f} MB")
        found, _ = dbcheck.problem(path)
        assert found is None, found
        parts = [
            ("quick_check (the start before)", pragma(path, "quick_check")),
            ("integrity_check", pragma(path, "integrity_check")),
            ("schema version", lambda: store_checks.newer_schema(sqlite3.connect(path))),
            ("club rows (start, not strict)", rows(path, store_checks.CLUB_TABLES, False)),
            ("the whole start check (dbcheck)", lambda: dbcheck.problem(path)),
            ("every kept row, strict (restore)", rows(path, None, True)),
        ]
        for name, work in parts:
            print(f"  {name:34} {timed(work, args.repeat) * 1000:8.0f} ms")


if __name__ == "__main__":
    main()
