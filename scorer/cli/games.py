"""``python -m scorer games``: list the stored games, archive, delete and bring them back.

The host's list page does the same; these work from a terminal (also while the server
runs: every change is one SQLite transaction). A deleted game's links answer 404 at once;
it is kept DELETED_DAYS days (``games undelete ID`` brings it back), then removed for good
by the next ``games list`` or the host's next look at the list page.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from typing import TYPE_CHECKING

from scorer import store
from scorer.instance import database

if TYPE_CHECKING:
    from scorer.cli import Subparsers

SHELVES = {"current": "not archived", "archived": "archived", "deleted": "deleted",
           "all": "not deleted"}
DONE = {"archive": "archived", "unarchive": "back from the archive", "delete": "deleted",
        "undelete": "back"}


def register(subparsers: Subparsers) -> None:
    """Add ``games list|archive|unarchive|delete|undelete``."""
    p = subparsers.add_parser("games", help="list, archive or delete stored games")
    actions = p.add_subparsers(dest="action", required=True)
    listing = actions.add_parser("list", help="the games, newest first, with their ids")
    listing.add_argument("--shelf", choices=tuple(SHELVES), default="current",
                         help="which games (default: current, not archived)")
    add_instance(listing)
    listing.set_defaults(func=run_list)
    for name, about in (("archive", "list a game apart (its links keep working)"),
                        ("unarchive", "bring an archived game back to the list"),
                        ("delete", f"delete a game (kept {store.DELETED_DAYS} days for undelete)"),
                        ("undelete", "bring a deleted game back")):
        q = actions.add_parser(name, help=about)
        q.add_argument("id", type=int, help="the game's id (see `games list`)")
        if name == "delete":
            q.add_argument("--yes", action="store_true", help="do not ask for confirmation")
        add_instance(q)
        q.set_defaults(func=run_change)


def add_instance(parser: argparse.ArgumentParser) -> None:
    """The --instance option every games command takes."""
    parser.add_argument("--instance", metavar="DIR",
                        help="the app's data folder (default: $SCORER_INSTANCE or ./instance)")


def opened(instance: str | None) -> store.Store | None:
    """The instance's store, migrated; None (with one line on stderr) if there is none."""
    path = database(instance)
    if not path.is_file():
        print(f"games: --instance: no database at {path}", file=sys.stderr)
        return None
    db = store.connect(path)
    store.migrations.apply(db)  # a file from before archiving gets its columns
    return store.Store(db)


def name_of(row: store.GameRow) -> str:
    """A game's title, or its players."""
    return row.head.get("title") or " · ".join(row.head.get("players", []))


def run_list(args: argparse.Namespace) -> int:
    """Print one line per game: id, when changed, live deals, guest or host, title."""
    st = opened(args.instance)
    if st is None:
        return 2
    try:
        purged = st.purge_deleted()
        rows = st.games(None, args.shelf)
        for row in rows:
            who = "guest" if row.guest else "host"
            print(f"{row.id:>6}  {row.updated[:16].replace('T', ' ')}  "
                  f"{st.live_count(row.id):>4} deals  {who:<5}  {name_of(row)}")
    except sqlite3.Error as exc:
        print(f"games: database: {exc}", file=sys.stderr)
        return 2
    finally:
        st.db.close()
    print(f"games: {len(rows)} {SHELVES[args.shelf]}"
          + (f"; {purged} deleted more than {store.DELETED_DAYS} days ago removed" if purged
             else ""))
    return 0


def run_change(args: argparse.Namespace) -> int:
    """Archive, unarchive, delete (after a confirmation) or undelete one game."""
    st = opened(args.instance)
    if st is None:
        return 2
    try:
        row = st.game(args.id)
        if row is None:
            print(f"games: id: no game {args.id}", file=sys.stderr)
            return 2
        if args.action == "delete" and not args.yes and not confirmed(row):
            print("games: delete: nothing deleted")
            return 1
        changed = st.set_shelf(row.id, args.action)
    except sqlite3.Error as exc:
        print(f"games: database: {exc}", file=sys.stderr)
        return 2
    finally:
        st.db.close()
    state = DONE[args.action] if changed else f"already {DONE[args.action]}"
    print(f"games: game {row.id} ({name_of(row)}): {state}")
    if changed and args.action == "delete":
        print(f"games: `games undelete {row.id}` brings it back within "
              f"{store.DELETED_DAYS} days")
    return 0


def confirmed(row: store.GameRow) -> bool:
    """Ask on the terminal before deleting a game."""
    answer = input(f"Delete game {row.id} ({name_of(row)})? Its links stop working. [y/N] ")
    return answer.strip().lower() in ("y", "yes")
