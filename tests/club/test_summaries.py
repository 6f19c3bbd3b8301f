"""Summaries are derived data per game version: a new deal remakes one game's summary,
and the figures never replay the other games."""

from __future__ import annotations

import json

from club_games import add, finished_logs, seated

from scorer.club import Club, Summary, service
from scorer.club.figures import SHAPE
from scorer.club_store import ClubStore


def test_a_new_deal_remakes_only_that_games_summary(st, monkeypatch):
    """After a deal is added to one game, the next read replays that game alone and
    stores its summary under the game's new version."""
    log = finished_logs()[2]
    ids = [add(st, seated(log, ["Аня", "Борис", "Вика"], date=f"2026-10-0{i + 1}", cut=20))
           for i in range(5)]
    club = Club(st.db)
    assert club.player(club.roster()[0].id)["games"].value == 5
    made = []
    real = service.summary_from
    monkeypatch.setattr(service, "summary_from",
                        lambda row, *a: made.append(row.id) or real(row, *a))
    version = st.add_deal(ids[2], log["deals"][20])
    figures = club.player(club.roster()[0].id)
    assert made == [ids[2]]
    stored = st.db.execute("select version from club_summaries where game_id = ?",
                           [ids[2]]).fetchone()[0]
    assert stored == version
    club.season_table()
    club.records()
    assert made == [ids[2]]  # the same state: from memory
    assert figures["games"].value == 5


def test_a_club_without_summaries_replays_each_game_once(st, monkeypatch):
    """With every kept summary gone (as in a restored file), the next read makes every
    counted game's summary, each once, from one read of every record, and stores them."""
    log = finished_logs()[2]
    ids = [add(st, seated(log, ["Аня", "Борис", "Вика"], date=f"2026-10-{i + 1:02d}"))
           for i in range(25)]
    before = Club(st.db).season_table()
    with st.atomic():
        ClubStore(st.db).forget_summaries()
    made = []
    real = service.summary_from
    monkeypatch.setattr(service, "summary_from",
                        lambda row, *a: made.append(row.id) or real(row, *a))
    after = Club(st.db).season_table()
    assert sorted(made) == ids
    assert st.db.execute("select count(*) from club_summaries").fetchone()[0] == 25
    assert [(r.player.id, r.points.value) for r in after.rows] == \
        [(r.player.id, r.points.value) for r in before.rows]


def test_a_cached_page_is_made_again_only_after_a_change(st):
    """Club.cached makes a value once per club state; a deal or a rename makes it anew,
    and the etag changes with it."""
    log = finished_logs()[2]
    game = add(st, seated(log, ["Аня", "Борис", "Вика"], date="2026-10-01", cut=20))
    club = Club(st.db)
    made = []
    page = lambda: made.append(1) or len(made)  # noqa: E731
    tag = club.etag()
    assert club.cached("season", page) == club.cached("season", page) == 1
    st.add_deal(game, log["deals"][20])
    assert club.cached("season", page) == 2 and club.etag() != tag
    tag = club.etag()
    club.rename(club.roster()[0].id, "Анна")
    assert club.cached("season", page) == 3 and club.etag() != tag


def test_a_read_request_asks_for_the_clubs_state_once(st, monkeypatch):
    """A Reading (one read-only request) queries the fingerprint once for its table,
    records and ETag; a plain Club asks each time; a write through a Reading asks again."""
    log = finished_logs()[2]
    for i in range(3):
        add(st, seated(log, ["Аня", "Борис", "Вика"], date=f"2026-10-0{i + 1}", cut=20))
    Club(st.db).season_table()  # links the host's games and builds the state
    asked = []
    real = Club.fingerprint
    monkeypatch.setattr(Club, "fingerprint", lambda self: asked.append(1) or real(self))
    reading = service.Reading(st.db)
    table = reading.season_table()
    reading.records()
    reading.etag()
    assert len(asked) == 1
    assert [r.player.name for r in table.rows] == [
        r.player.name for r in Club(st.db).season_table().rows]
    asked.clear()
    plain = Club(st.db)
    plain.season_table()
    plain.etag()
    assert len(asked) == 2
    asked.clear()
    with reading.changing():
        pass
    reading.etag()
    assert len(asked) == 1


def test_a_stored_summary_of_another_shape_is_made_again(st):
    """A kept summary of an older shape, one that does not read, or a row that is not JSON
    at all: the next read makes each again from its log (never an error), stores it in
    the current shape, and the figures are those of fresh summaries."""
    log = finished_logs()[2]
    ids = [add(st, seated(log, ["Аня", "Борис", "Вика"], date=f"2026-10-0{i + 1}"))
           for i in range(4)]
    fresh = Club(st.db).season_table()
    old = {"players": ["Аня", "Борис", "Вика"], "finished": True, "winner": 0,
           "score": [1000, 0, 0], "places": [1, 2, 3], "seats": [], "deals": 1,
           "date": "2026-10-01", "ended": ""}
    kept = [json.dumps({**old, "shape": 1}),  # shape 1: before the start time was kept
            json.dumps({**old, "shape": SHAPE, "seats": [{"bolts": "x"}]}),
            "not json", json.dumps([1, 2])]
    with st.atomic():
        for game_id, data in zip(ids, kept, strict=True):
            st.db.execute("update club_summaries set data = ? where game_id = ?",
                          [data, game_id])
    again = Club(st.db).season_table()
    assert [(r.player.id, r.points.value, r.wins.value) for r in again.rows] == \
        [(r.player.id, r.points.value, r.wins.value) for r in fresh.rows]
    for (data,) in st.db.execute("select data from club_summaries"):
        assert Summary.read(json.loads(data)) is not None
