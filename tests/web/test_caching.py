"""Caches, ETags, compression and connections: fast answers that are never stale."""

from __future__ import annotations

import gzip
import json
import re
import sqlite3
import threading

from webtable import csrf_of

from scorer import store
from scorer.cli import main as cli
from scorer.web import db as web_db
from scorer.web.game import versions


def played(table, deals: int = 2) -> str:
    """A game with some redeals and one play; returns its edit path."""
    game = table.new_game()
    table.deal(game, declarer="1", contract="120", points_0="20", points_2="20",
               mar_1=["hearts"])
    for _ in range(deals - 1):
        table.deal(game, action="redeal")
    return game


def live_deals(html: str) -> int:
    """How many protocol rows (each a link to edit its deal) the edit page shows."""
    return len(slots_of(html))


def slots_of(html: str) -> list[str]:
    """The slot ids of the protocol rows on the edit page."""
    return re.findall(r'href="/g/[^"/]+/deal/(\d+)"', html)


def delete(table, game: str, slot: str) -> None:
    """Delete a deal through its edit page's form."""
    data = table.form(f"{game}/deal/{slot}")
    assert table.client.post(f"{game}/deal/{slot}/delete", data=data).status_code == 302


def test_etags_are_opaque_and_the_edit_page_answers_304(table, app):
    """Neither link's ETag names the game or its version; both answer 304 until a change."""
    game = played(table)
    view = table.view_path(game)
    for path in (game, view):
        first = table.client.get(path)
        tag = first.headers["ETag"]
        assert first.status_code == 200
        inner = tag.removeprefix("W/").strip('"')
        assert re.fullmatch(r"[0-9a-f]{32}", inner), tag
        again = table.client.get(path, headers={"If-None-Match": tag})
        assert again.status_code == 304 and again.get_data() == b""
    tags = {p: table.client.get(p).headers["ETag"] for p in (game, view)}
    assert tags[game] != tags[view]
    table.deal(game, action="redeal")
    for path, tag in tags.items():
        changed = table.client.get(path, headers={"If-None-Match": tag})
        assert changed.status_code == 200 and changed.headers["ETag"] != tag


def test_cached_edit_page_carries_a_working_csrf_token_per_browser(app, table):
    """A cached edit page is per browser: another browser gets its own CSRF token,
    and the restore button of a cached page still works."""
    game = played(table, deals=3)
    delete(table, game, slots_of(table.client.get(game).get_data(as_text=True))[1])
    banner = table.client.get(game).get_data(as_text=True)
    assert 'id="changed"' in banner  # shown once, never cached
    first = table.client.get(game).get_data(as_text=True)
    cached = table.client.get(game).get_data(as_text=True)
    assert cached == first and live_deals(cached) == 2
    other = app.test_client()
    other.get(game)  # the same edit link opened on a second phone
    assert csrf_of(other.get(game).get_data(as_text=True)) != csrf_of(cached)
    slot = re.search(r'/deal/(\d+)/restore"', cached).group(1)
    version = re.search(r'name="version" value="(\d+)"', cached).group(1)
    r = table.client.post(f"{game}/deal/{slot}/restore",
                          data={"csrf_token": csrf_of(cached), "version": version})
    assert r.status_code == 302
    assert live_deals(table.client.get(game).get_data(as_text=True)) == 3


def test_pages_are_gzipped_when_the_client_accepts_it(table):
    """A gzip-accepting client gets the same page gzipped; others get it plain."""
    game = played(table)
    plain = table.client.get(game)
    assert "Content-Encoding" not in plain.headers
    packed = table.client.get(game, headers={"Accept-Encoding": "br, gzip"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert gzip.decompress(packed.get_data()) == plain.get_data()
    listed = table.client.get("/", headers={"Accept-Encoding": "gzip"})
    assert b"<html" in gzip.decompress(listed.get_data())


def test_after_a_restore_no_page_etag_or_export_is_stale(app, table, tmp_path):
    """Back up, add a deal, restore, delete: the same game id and version now mean other
    deals, and the pages, ETags and export show the restored state (no 500)."""
    game = played(table, deals=2)
    view = table.view_path(game)
    instance = app.instance_path
    assert cli(["backup", str(tmp_path / "b.sqlite"), "--instance", instance]) == 0
    table.deal(game, action="redeal")  # version 4, three deals: pages and replay cached
    old_page = table.client.get(game)
    old_tags = [old_page.headers["ETag"], table.client.get(view).headers["ETag"]]
    assert live_deals(old_page.get_data(as_text=True)) == 3
    assert cli(["restore", str(tmp_path / "b.sqlite"), "--instance", instance]) == 0
    page = table.client.get(game, headers={"If-None-Match": old_tags[0]}).get_data(as_text=True)
    assert live_deals(page) == 2
    delete(table, game, slots_of(page)[-1])  # version 4 again, but of the restored file
    after = table.client.get(game, headers={"If-None-Match": old_tags[0]})
    assert after.status_code == 200 and live_deals(after.get_data(as_text=True)) == 1
    ro = table.client.get(view, headers={"If-None-Match": old_tags[1]})
    assert ro.status_code == 200 and ro.headers["ETag"] not in old_tags
    exported = json.loads(table.client.get(game + "/export.json").get_data())
    assert len(exported["deals"]) == 1


def test_a_worker_thread_keeps_one_connection_and_apps_keep_their_own(app, tmp_path,
                                                                      monkeypatch):
    """Requests on one thread share one connection; threads and apps never share one."""
    from scorer import create_app

    opened = []
    real = store.connect
    monkeypatch.setattr(store, "connect", lambda path: opened.append(path) or real(path))
    client = app.test_client()
    for _ in range(5):
        assert client.get("/").status_code == 200
    assert len(opened) == 1
    seen = []

    def visit():
        """One request on another thread."""
        with app.app_context():
            seen.append(web_db.get_store())
    worker = threading.Thread(target=visit)
    worker.start()
    worker.join()
    with app.app_context():
        mine = web_db.get_store()
    assert seen[0] is not mine and len(opened) == 2
    other = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "other"),
                        "SECRET_KEY": "s", "HOST_KEY": "h" * 24})
    with other.app_context():
        theirs = web_db.get_store()
    assert theirs is not mine and theirs.db.conn is not mine.db.conn
    with app.app_context(), other.app_context():
        assert web_db.get_store() is theirs


def test_a_connection_follows_a_file_renamed_into_place(app, tmp_path):
    """If the database file is replaced by a rename, the thread opens the new file."""
    path = app.config["DATABASE"]
    with app.app_context():
        web_db.get_store().create_game({"format": "thousand-game/1", "players": ["A", "B"],
                                        "agreements": {"preset": "two-players",
                                                       "overrides": {}},
                                        "first_dealer": 0})
        assert len(web_db.get_store().games(None)) == 1
        web_db.get_store().db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    fresh = tmp_path / "fresh.sqlite"
    db = store.connect(fresh)
    store.migrate(db)
    db.close()
    fresh.replace(path)
    with app.app_context():
        assert web_db.get_store().games(None) == []


def test_games_list_does_not_replay_games_it_has_totals_for(table, monkeypatch):
    """The list replays a game once per version; later views read the stored totals."""
    game = played(table)
    first = table.client.get("/").get_data(as_text=True)
    score = re.search(r'class="list-score">[^<]*<', first).group(0)
    calls = []
    real = versions.made
    monkeypatch.setattr(versions, "made", lambda *a: calls.append(1) or real(*a))
    kept = table.client.application.extensions["scorer_versions"]
    kept.clear()  # as after a server restart
    html = table.client.get("/").get_data(as_text=True)
    assert calls == [] and score in html  # the totals, from the stored row
    table.deal(game, action="redeal")
    kept.clear()
    calls.clear()
    table.client.get("/")
    table.client.get("/")
    assert len(calls) == 1  # the new version, once


def forget_pages(app) -> None:
    """Drop the rendered pages kept on every version (the versions stay)."""
    for entry, _weight in app.extensions["scorer_versions"].items.values():
        entry.pages.clear()


def statements(app, action) -> list[str]:
    """The SQL statements the app's connection on this thread runs during action()."""
    with app.app_context():
        conn = web_db.get_store().db.conn
    seen: list[str] = []
    conn.set_trace_callback(seen.append)
    try:
        action()
    finally:
        conn.set_trace_callback(None)
    return seen


def test_a_deal_post_runs_few_statements_and_no_schema_lookups(app, table):
    """Saving a deal reads and writes what it needs: no table introspection."""
    game = played(table)
    data = {**table.form(game + "/deal"), "action": "redeal"}
    sql = statements(app, lambda: table.client.post(game + "/deal", data=data))
    text = "\n".join(sql).lower()
    assert "sqlite_master" not in text and "pragma" not in text
    assert "returning" in text
    # The game row, (generation, version) in one read, then BEGIN IMMEDIATE, the version
    # checked and bumped in one UPDATE, the slot's number, the deal, its revision, the
    # form's one-time id and COMMIT; nothing walks every deal of the game.
    assert len(sql) <= 10, sql
    assert "count(" not in text and "expect" not in text


def test_a_page_view_reads_the_game_and_its_version_in_two_statements(app, table):
    """A cached game's page reads its row and one (generation, version) pair: no
    transaction around single reads, and nothing read twice."""
    game = played(table, deals=3)
    table.client.get(game)
    forget_pages(app)  # render it again
    sql = statements(app, lambda: table.client.get(game))
    assert len(sql) == 2, sql
    assert "generation" in sql[1] and "version" in sql[1]


def test_deleted_slots_are_read_in_one_query(app, table):
    """The edit page reads the records of all deleted deals at once (no query per slot)."""
    game = played(table, deals=5)
    page = table.client.get(game).get_data(as_text=True)
    for slot in slots_of(page)[1:]:
        delete(table, game, slot)
    forget_pages(app)
    seen = {}
    sql = statements(app, lambda: seen.setdefault("html", table.client.get(game).get_data(
        as_text=True)))
    per_slot = [s for s in sql if "record is not null" in s.lower()]
    assert len(per_slot) == 1, sql
    assert seen["html"].count('/restore"') == 4 and live_deals(seen["html"]) == 1


def test_store_totals_are_kept_only_for_the_current_version(tmp_path):
    """A totals row for an old version is never written (derived data stays honest)."""
    db = store.connect(tmp_path / "t.sqlite")
    store.migrate(db)
    st = store.Store(db)
    row = st.create_game({"format": "thousand-game/1", "players": ["A", "B"],
                          "agreements": {"preset": "two-players", "overrides": {}},
                          "first_dealer": 0})
    st.put_many_totals([(row.id, row.version + 1, None, [1, 2])])
    assert st.cached_totals([row.id]) == {}
    st.put_many_totals([(row.id, row.version, None, [0, 0])])
    assert st.cached_totals([row.id]) == {row.id: (row.version, None, [0, 0])}
    generation = st.generation()
    store.migrate(db)
    assert st.generation() != generation and len(generation) == 16
    with sqlite3.connect(tmp_path / "t.sqlite") as raw:
        assert raw.execute("select count(*) from meta").fetchone()[0] == 1
    db.close()


def test_the_page_after_a_write_reads_no_deals(app, table):
    """A save, an edit, a delete and a restore leave the new version's slots in the replay
    cache, exactly as the store would read them back, so the page the phone is sent to
    next reads no deal rows (the cost of that GET does not grow with the game)."""
    game = played(table, deals=3)

    def cached_slots_match_the_store() -> None:
        """The newest cached entry holds the slots the store reads for that version."""
        with app.app_context():
            newest = list(versions.versions().items.items())[-1]
            (_generation, game_id, version), (entry, _weight) = newest
            st = web_db.get_store()
            assert st.version(game_id) == version
            slots = st.slots(game_id)
            assert entry.slots == versions.Slots.of(slots)
            assert list(entry.slots.live) == [s for s in slots if s.record is not None]

    table.deal(game, action="redeal")
    cached_slots_match_the_store()
    first = slots_of(table.client.get(game).get_data(as_text=True))[-1]
    edit = {**table.form(f"{game}/deal/{first}"), "action": "redeal"}
    assert table.client.post(f"{game}/deal/{first}", data=edit).status_code == 302
    cached_slots_match_the_store()
    delete(table, game, first)
    cached_slots_match_the_store()
    data = table.form(game)  # the restore button sits on the game page, where the deal was
    assert table.client.post(f"{game}/deal/{first}/restore", data=data).status_code == 302
    cached_slots_match_the_store()
    forget_pages(app)
    sql = statements(app, lambda: table.client.get(game))
    assert not [s for s in sql if "from deals" in s.lower()], sql


def test_the_versions_kept_are_bounded_by_their_deals(app):
    """The cache of versions weighs each by its deals: a long game takes the room of many
    short ones, and the newest version is kept even when it alone is over the budget."""
    from types import SimpleNamespace

    from scorer.store import DealSlot
    from scorer.web.lru import Lru

    def version(deals: int) -> SimpleNamespace:
        """A stand-in version with this many deals (the weight reads only its slots)."""
        return SimpleNamespace(slots=versions.Slots.of(
            DealSlot(i, i, {"type": "redeal"}) for i in range(1, deals + 1)))

    assert versions.weight(version(2000)) - versions.weight(version(1)) == 1999
    kept = Lru(1000, versions.weight)
    for n in range(10):
        kept.put(("g", n, 1), version(1))
    assert len(kept.items) == 10 and kept.total == 10 * versions.weight(version(1))
    kept.put(("g", 99, 1), version(900))  # room for the long one: the short ones go
    assert list(kept.items) == [("g", 99, 1)] and kept.total <= kept.budget
    kept.put(("g", 100, 1), version(2000))
    assert list(kept.items) == [("g", 100, 1)]
    assert app.extensions["scorer_versions"].budget == versions.DEALS_KEPT


def test_a_new_version_works_on_from_the_chart_and_tallies_of_the_one_before(app, table):
    """A deal's page thins only the chart's new points, counts only the new row's tallies
    and words only the new row (the version before lends its own: a deal costs the same at
    1000 deals as at 200), and what it shows equals what the version works out from
    nothing; an edit in the middle starts afresh, and is equal too."""
    from scorer import chart, marks
    from scorer.web.game import page_model
    from scorer.web.game.protocol_rows import KEPT_ROWS

    records = [{"type": "play", "declarer": n % 3, "contract": 100,
                "points": [110 if s == n % 3 else 5 for s in range(3)]} if n % 4 else
               {"type": "redeal"} for n in range(330)]  # past the phone chart's width
    with app.app_context():
        row = web_db.get_store().create_game(
            {"format": "thousand-game/1", "players": ["А", "Б", "В"],
             "agreements": {"preset": "classic", "overrides": {}}, "first_dealer": 0},
            records)
    game = f"/g/{row.edit_token}"

    def newest() -> versions.Loaded:
        """The newest version kept, its page shown."""
        assert table.client.get(game).status_code == 200
        entries = list(app.extensions["scorer_versions"].items.values())
        entry = entries[-1][0]
        assert isinstance(entry, versions.Loaded)
        return entry

    def fresh(entry: versions.Loaded) -> None:
        """What the version keeps is what it works out afresh, and its chart is drawn so."""
        rows, width = entry.protocol.rows, chart.plot_width(chart.PHONE)
        assert entry.worked["lines"] == chart.lines_of(rows, 3, width)
        assert entry.worked["tallies"] == marks.counted(rows, 3)
        with app.test_request_context(headers={"Cookie": "lang=ru"}):
            assert entry.worked[("chart", "ru")] == chart.totals_svg(
                entry.game, entry.protocol, "ru", chart.PHONE)
            assert page_model.tallies(entry) == marks.tallies(entry.protocol)

    before = newest()
    table.deal(game, action="redeal")
    after = newest()
    fresh(after)
    assert after.prior is before.worked
    # The rows shown before are shown again as they were worded (and written) then.
    rows_before, rows_after = before.worked[("rows", "ru")], after.worked[("rows", "ru")]
    assert len(rows_after) == len(rows_before) + 1
    assert all(rows_after[slot][2] is shown for slot, (_r, _rec, shown) in rows_before.items())
    assert all(a is b for a, b in zip(after.worked["lines"].whole[0],
                                      before.worked["lines"].whole[0], strict=False))
    second = slots_of(table.client.get(game + "?rows=all").get_data(as_text=True))[-2]
    # The older rows of ?rows=all were worded for that page only: a version keeps its newest.
    assert sorted(rows_after) == [s.id for s in after.slots.live[-KEPT_ROWS:]]
    edit = {**table.form(f"{game}/deal/{second}"), "action": "redeal"}  # was a play
    assert table.client.post(f"{game}/deal/{second}", data=edit).status_code == 302
    edited = newest()
    fresh(edited)
    assert edited.worked["lines"].kept != after.worked["lines"].kept
    # The rows after the edited one, which the page shows, are worded afresh.
    shown_now = {id(r) for r in edited.protocol.rows[-20:]}
    rows_edited = edited.worked[("rows", "ru")]
    fresh_rows = [s for s, (r, _rec, _shown) in rows_edited.items() if id(r) in shown_now]
    assert len(fresh_rows) == 20
    assert not any(rows_edited[s][2] is rows_after[s][2] for s in fresh_rows)
