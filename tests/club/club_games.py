"""Card-dealt games for the club's tests: a few finished ones (kept after the first build),
re-seated under other names, and a store to put them in."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))

from strategies import build_game  # noqa: E402

from scorer import store  # noqa: E402
from scorer.engine import parse_game, replay  # noqa: E402

# (players, seed) of card-dealt games with boost that end with a winner within 150 deals.
FINISHED_SEEDS = ((2, 8), (2, 9), (3, 7), (4, 1))
CLUB = ("Аня", "Борис", "Вика", "Гоша", "Дина")


@functools.cache
def finished_log(players: int, seed: int) -> dict:
    """A finished card-dealt game log (built once per test run)."""
    log = build_game(seed, players, "classic", {}, 150, boost=True).log
    assert replay(parse_game(log)).winner is not None
    return log


def finished_logs() -> list[dict]:
    """Every finished log of FINISHED_SEEDS."""
    return [finished_log(n, s) for n, s in FINISHED_SEEDS]


def seated(log: dict, names: list[str], date: str | None = None, cut: int | None = None
           ) -> dict:
    """The log with other names at its seats, another date, and only its first cut deals."""
    out = {**log, "players": list(names), "deals": list(log["deals"][:cut])}
    if date is not None:
        out["date"] = date
    return out


def new_store(path: Path) -> store.Store:
    """A migrated store on a new SQLite file."""
    db = store.connect(path)
    store.migrate(db)
    return store.Store(db)


def add(st: store.Store, log: dict, guest: bool = False) -> int:
    """Store a game log (as the host's unless guest) and return its id."""
    head = {k: v for k, v in log.items() if k != "deals"}
    return st.create_game(head, log["deals"], guest=guest).id
