"""The SQLite store: pragmas, migrations, revisions, limits, foreign keys."""

import sqlite3

import pytest

from scorer import store
from scorer.engine import RuleError, records


@pytest.fixture
def st(tmp_path):
    """A migrated store on a real file."""
    db = store.connect(tmp_path / "s.sqlite")
    store.migrate(db)
    yield store.Store(db)
    db.close()


HEAD = {"format": "thousand-game/1", "players": ["A", "B", "C"],
        "agreements": {"preset": "classic", "overrides": {}}, "first_dealer": 0}


def test_every_connection_has_wal_foreign_keys_and_full_sync(st):
    """A store connection uses WAL, foreign keys and synchronous=FULL."""
    pragma = lambda name: next(st.db.query(f"PRAGMA {name}"))[name]  # noqa: E731
    assert pragma("journal_mode") == "wal"
    assert pragma("foreign_keys") == 1
    assert pragma("synchronous") == 2  # FULL


def test_migrations_are_recorded_and_idempotent(tmp_path):
    """Migrations are recorded once, however often they run."""
    db = store.connect(tmp_path / "m.sqlite")
    store.migrate(db)
    store.migrate(db)
    names = [r["name"] for r in db.query("select name from _sqlite_migrations")]
    assert names == ["m001_games_and_deals", "m002_totals_cache", "m003_submission_ids",
                     "m004_archive_delete_guests", "m005_submission_versions",
                     "m006_club_players", "m007_club_history", "m008_club_summaries",
                     "m009_club_seasons_and_shares", "m010_agreement_revisions"]
    db.close()


def test_edit_and_delete_add_revisions_and_restore_brings_back(st):
    """Edit and delete add revisions; restore brings the last record back."""
    game = st.create_game(HEAD)
    with st.writing():
        assert st.add_deal(game.id, {"type": "redeal"}) == game.version + 1
    deal = st.slots(game.id)[-1].id
    assert st.revise_deal(game.id, deal, {"type": "adjustment", "player": 0, "amount": 5,
                                   "reason": "other"}, "edit") == game.version + 2
    st.revise_deal(game.id, deal, None, "delete")
    assert st.records(game.id) == []
    assert st.last_record(game.id, deal)["type"] == "adjustment"
    st.revise_deal(game.id, deal, st.last_record(game.id, deal), "restore")
    history = st.history(game.id, deal)
    assert [h["note"] for h in history] == ["add", "edit", "delete", "restore"]
    assert history[0]["record"] == {"type": "redeal"}
    assert st.game(game.id).version == 5


def test_tokens_are_unique_and_open_the_right_game(st):
    """Tokens are unique and each opens its own game with the right rights."""
    a, b = st.create_game(HEAD), st.create_game(HEAD)
    assert len({a.edit_token, a.view_token, b.edit_token, b.view_token}) == 4
    assert st.game_by_token(a.edit_token) == (st.game(a.id), True)
    assert st.game_by_token(a.view_token)[1] is False
    assert st.game_by_token("nope") is None
    assert [g.id for g in st.games([b.view_token])] == [b.id]
    assert st.games([]) == []
    assert {g.id for g in st.games(None)} == {a.id, b.id}


def test_revision_of_another_games_deal_is_refused(st):
    """A deal of another game cannot be revised."""
    a, b = st.create_game(HEAD), st.create_game(HEAD)
    st.add_deal(a.id, {"type": "redeal"})
    deal = st.slots(a.id)[-1].id
    with pytest.raises(KeyError):
        st.revise_deal(b.id, deal, None, "delete")


def test_foreign_keys_are_enforced(st):
    """SQLite refuses a deal of a game that does not exist."""
    with pytest.raises(sqlite3.IntegrityError):
        st.db["deals"].insert({"game_id": 999, "seq": 1, "created": "x"})


def test_deal_limit(monkeypatch, st):
    """The store refuses a deal beyond the engine's MAX_DEALS, by the engine's check."""
    monkeypatch.setattr(records, "MAX_DEALS", 1)
    game = st.create_game(HEAD)
    st.add_deal(game.id, {"type": "redeal"})
    with pytest.raises(RuleError) as refused:
        st.add_deal(game.id, {"type": "redeal"})
    assert refused.value.rule == "deals.limit" and len(st.records(game.id)) == 1


def test_a_failed_write_rolls_back(st):
    """A write that fails halfway leaves nothing behind."""
    game = st.create_game(HEAD)
    with pytest.raises(RuntimeError), st.writing():
        st.add_deal(game.id, {"type": "redeal"})
        raise RuntimeError("refused")
    assert st.records(game.id) == []


def test_init_db_command(runner, app):
    """flask init-db creates the tables."""
    result = runner.invoke(args=["init-db"])
    assert "Initialized the database." in result.output
    db = store.connect(app.config["DATABASE"])
    assert {"games", "deals", "revisions"} <= set(db.table_names())
    db.close()


def test_first_start_writes_config_with_fresh_keys(tmp_path, monkeypatch):
    """The first start writes config.py with keys that later starts keep."""
    from scorer import create_app

    monkeypatch.setenv("SCORER_INSTANCE", str(tmp_path / "fresh"))
    first = create_app()
    again = create_app()
    config = (tmp_path / "fresh" / "config.py").read_text()
    assert first.config["SECRET_KEY"] == again.config["SECRET_KEY"]
    assert len(first.config["SECRET_KEY"]) >= 32 and first.config["HOST_KEY"] in config
    assert oct((tmp_path / "fresh" / "config.py").stat().st_mode)[-3:] == "600"
    other = tmp_path / "other"
    monkeypatch.setenv("SCORER_INSTANCE", str(other))
    assert create_app().config["SECRET_KEY"] != first.config["SECRET_KEY"]


def test_a_write_based_on_an_old_version_stores_nothing(st):
    """The version check and the bump are one UPDATE: a stale write changes nothing."""
    game = st.create_game(HEAD)
    st.add_deal(game.id, {"type": "redeal"}, based_on=game.version)
    slot = st.slots(game.id)[-1].id
    with pytest.raises(store.StaleError) as refused:
        st.add_deal(game.id, {"type": "redeal"}, based_on=game.version)
    assert (refused.value.based_on, refused.value.current) == (game.version, game.version + 1)
    with pytest.raises(store.StaleError):
        st.revise_deal(game.id, slot, None, "delete", based_on=game.version)
    assert st.version(game.id) == game.version + 1
    assert [s.record for s in st.slots(game.id)] == [{"type": "redeal"}]


def test_a_deal_written_outside_a_transaction_is_stored_whole(st, tmp_path):
    """add_deal and revise_deal take their own transaction when the caller has none: the
    deal, its revision and the version bump reach the file together."""
    game = st.create_game(HEAD)
    st.add_deal(game.id, {"type": "redeal"})
    st.revise_deal(game.id, st.slots(game.id)[-1].id, None, "delete")
    assert not st.db.conn.in_transaction
    other = store.Store(store.connect(tmp_path / "s.sqlite"))
    assert other.version(game.id) == game.version + 2
    assert [s.record for s in other.slots(game.id)] == [None]
    assert [h["rev"] for h in other.history(game.id, 1)] == [1, 2]
    other.db.close()
