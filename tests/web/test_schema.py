"""The schema pinned: migrating an empty database gives exactly these tables, keys and indexes.

A new migration changes what ``migrate`` builds; update ``SCHEMA`` below in the same commit,
so every change of the stored shape is seen in review.
"""

from __future__ import annotations

from scorer.store import connect, migrate

# table -> columns (name, type, not null, primary key), foreign keys, indexes (columns, unique)
SCHEMA = {
    "games": {
        "columns": [("id", "INTEGER", False, True), ("edit_token", "TEXT", True, False),
                    ("view_token", "TEXT", True, False), ("head", "TEXT", True, False),
                    ("version", "INTEGER", True, False), ("created", "TEXT", True, False),
                    ("updated", "TEXT", True, False), ("archived", "TEXT", False, False),
                    ("deleted", "TEXT", False, False), ("guest", "INTEGER", True, False)],
        "foreign_keys": [],
        "indexes": [(("edit_token",), True), (("view_token",), True)],
    },
    "deals": {
        "columns": [("id", "INTEGER", False, True), ("game_id", "INTEGER", True, False),
                    ("seq", "INTEGER", True, False), ("created", "TEXT", True, False)],
        "foreign_keys": [("game_id", "games", "id")],
        "indexes": [(("game_id", "seq"), True)],
    },
    "revisions": {
        "columns": [("id", "INTEGER", False, True), ("deal_id", "INTEGER", True, False),
                    ("rev", "INTEGER", True, False), ("record", "TEXT", False, False),
                    ("note", "TEXT", True, False), ("created", "TEXT", True, False)],
        "foreign_keys": [("deal_id", "deals", "id")],
        "indexes": [(("deal_id", "rev"), True)],
    },
    "totals": {  # derived end totals per version, for the games list (never the truth)
        "columns": [("game_id", "INTEGER", False, True), ("version", "INTEGER", True, False),
                    ("winner", "INTEGER", False, False), ("score", "TEXT", False, False),
                    ("broken", "INTEGER", True, False)],
        "foreign_keys": [("game_id", "games", "id")],
        "indexes": [],
    },
    "submissions": {  # one-time ids of write forms already stored, and the version each left
        "columns": [("game_id", "INTEGER", True, True), ("sid", "TEXT", True, True),
                    ("created", "TEXT", True, False), ("version", "INTEGER", False, False)],
        "foreign_keys": [("game_id", "games", "id")],
        "indexes": [(("game_id", "sid"), True)],
    },
    "players": {  # the club's roster; a merged player stays, pointing at the one it joined
        "columns": [("id", "INTEGER", False, True), ("name", "TEXT", True, False),
                    ("key", "TEXT", True, False), ("created", "TEXT", True, False),
                    ("merged_into", "INTEGER", False, False)],
        "foreign_keys": [("merged_into", "players", "id")],
        "indexes": [(("key",), False)],
    },
    "seat_links": {  # which player sat at a game's seat (the log keeps the name as written)
        "columns": [("game_id", "INTEGER", True, True), ("seat", "INTEGER", True, True),
                    ("player_id", "INTEGER", True, False), ("key", "TEXT", True, False)],
        "foreign_keys": [("game_id", "games", "id"), ("player_id", "players", "id")],
        "indexes": [(("game_id", "seat"), True), (("key",), False), (("player_id",), False)],
    },
    "club_games": {  # the host's choice whether a game counts (no row: the default)
        "columns": [("game_id", "INTEGER", False, True), ("counted", "INTEGER", True, False)],
        "foreign_keys": [("game_id", "games", "id")],
        "indexes": [],
    },
    "club_changes": {  # the history of counts, renames, merges and re-links (undoable)
        "columns": [("id", "INTEGER", False, True), ("kind", "TEXT", True, False),
                    ("data", "TEXT", True, False), ("created", "TEXT", True, False),
                    ("undone", "TEXT", False, False)],
        "foreign_keys": [],
        "indexes": [],
    },
    "club_summaries": {  # derived per-seat figures per game version (never the truth)
        "columns": [("game_id", "INTEGER", False, True), ("version", "INTEGER", True, False),
                    ("data", "TEXT", True, False)],
        "foreign_keys": [("game_id", "games", "id")],
        "indexes": [],
    },
    "seasons": {  # a named date range and its league points
        "columns": [("id", "INTEGER", False, True), ("name", "TEXT", True, False),
                    ("start", "TEXT", True, False), ("end", "TEXT", True, False),
                    ("points", "TEXT", True, False), ("created", "TEXT", True, False)],
        "foreign_keys": [],
        "indexes": [],
    },
    "club_shares": {  # read-only links to a season table or a player's page
        "columns": [("token", "TEXT", False, True), ("kind", "TEXT", True, False),
                    ("ref", "INTEGER", False, False), ("created", "TEXT", True, False)],
        "foreign_keys": [],
        "indexes": [(("kind", "ref"), True), (("token",), True)],
    },
    "agreement_revisions": {  # changes of a game's whole agreement set (m010), undoable
        "columns": [("id", "INTEGER", False, True), ("game_id", "INTEGER", True, False),
                    ("rev", "INTEGER", True, False), ("before", "TEXT", True, False),
                    ("after", "TEXT", True, False), ("note", "TEXT", True, False),
                    ("who", "TEXT", False, False), ("created", "TEXT", True, False)],
        "foreign_keys": [("game_id", "games", "id")],
        "indexes": [(("game_id", "rev"), True)],
    },
    "meta": {  # the database generation, renewed by every migrate (and so by restore)
        "columns": [("key", "TEXT", False, True), ("value", "TEXT", False, False)],
        "foreign_keys": [],
        "indexes": [(("key",), True)],
    },
}


def schema_of(db) -> dict:
    """Every table's columns, foreign keys and indexes, read back from SQLite itself."""
    found = {}
    for name in db.table_names():
        if name.startswith("_sqlite"):
            continue  # sqlite-utils' own bookkeeping, not our schema
        table = db[name]
        found[name] = {
            "columns": [(c.name, c.type, bool(c.notnull), bool(c.is_pk)) for c in table.columns],
            "foreign_keys": sorted((fk.column, fk.other_table, fk.other_column)
                                   for fk in table.foreign_keys),
            "indexes": sorted((tuple(i.columns), bool(i.unique)) for i in table.indexes),
        }
    return found


def test_migrate_blank(tmp_path):
    """An empty file migrated holds exactly the pinned schema."""
    db = connect(tmp_path / "blank.sqlite")
    migrate(db)
    assert schema_of(db) == SCHEMA


def test_migrate_twice_changes_nothing(tmp_path):
    """Migrating an already migrated database is a no-op."""
    db = connect(tmp_path / "blank.sqlite")
    migrate(db)
    migrate(db)
    assert schema_of(db) == SCHEMA
