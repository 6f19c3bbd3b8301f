"""The club's migrations over an existing database with games, the stats command's JSON,
and a restore that keeps the club's players."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from club_games import add, finished_logs, seated

from scorer import store
from scorer.club import Club

ROOT = Path(__file__).resolve().parents[2]
BEFORE_CLUB = "m006_club_players"


def old_database(path: Path) -> store.Store:
    """A database as the app left it before the club: migrated up to m005, with games."""
    db = store.connect(path)
    store.migrations.apply(db, stop_before=BEFORE_CLUB)
    store.new_generation(db)
    assert "players" not in db.table_names()
    return store.Store(db)


def test_migrating_a_database_with_games_links_the_hosts_seats_by_name(tmp_path):
    """The host's games get players, one per name (names compared as the form does);
    a guest's game is left apart."""
    st = old_database(tmp_path / "old.sqlite")
    log = finished_logs()[2]
    first = add(st, seated(log, ["Аня", "Борис", "Вика"], date="2026-10-01"))
    second = add(st, seated(log, ["Вика", "Aня", "Гоша"], date="2026-10-02"))  # Latin «A»
    guest = add(st, seated(log, ["Аня", "Дина", "Вика"], date="2026-10-03"), guest=True)
    store.migrate(st.db)
    links = dict(((g, s), p) for g, s, p in st.db.execute(
        "select game_id, seat, player_id from seat_links"))
    names = dict(st.db.execute("select id, name from players"))
    assert sorted(names.values()) == ["Аня", "Борис", "Вика", "Гоша"]
    assert links[(first, 0)] == links[(second, 1)]
    assert links[(first, 2)] == links[(second, 0)]
    assert not any(g == guest for g, _ in links)
    club = Club(st.db)
    assert {r.player.name for r in club.season_table().rows} == set(names.values())
    st.db.close()


def run_stats(instance: Path, *args: str) -> subprocess.CompletedProcess:
    """``python -m scorer stats`` of this checkout."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "scorer", "stats", "--instance",
                           str(instance), *args], capture_output=True, text=True, env=env,
                          check=False, timeout=120)


def test_stats_json_has_the_figures_of_every_player(tmp_path):
    """--json prints players with exactly the documented keys; --player and --season
    choose; a season that does not exist is one line on stderr and exit 2."""
    st = store.Store(store.connect(tmp_path / "scorer.sqlite"))
    store.migrate(st.db)
    for day, log in enumerate(finished_logs()):
        names = ["Аня", "Борис", "Вика", "Гоша"][:len(log["players"])]
        add(st, seated(log, names, date=f"2026-10-{day + 1:02d}"))
    Club(st.db).add_season("Октябрь", "2026-10-01", "2026-10-02")
    st.db.close()
    out = run_stats(tmp_path, "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    keys = {"name", "games", "finished", "wins", "contracts_taken", "contracts_made", "raspis",
            "bolts", "barrel_entries", "barrel_falls", "samosvals", "rating"}
    assert data["players"] and all(keys <= set(p) for p in data["players"])
    anya = next(p for p in data["players"] if p["name"] == "Аня")
    assert anya["games"] == anya["finished"] == 4 and anya["rating"] is None
    assert {"table", "records", "season", "unfinished"} <= set(data)
    one = json.loads(run_stats(tmp_path, "--json", "--player", "Аня",
                               "--season", "Октябрь").stdout)
    assert [p["name"] for p in one["players"]] == ["Аня"] and one["players"][0]["games"] == 2
    assert one["player"]["bolts"]["value"] == one["players"][0]["bolts"]
    text = run_stats(tmp_path, "--lang", "en")
    assert text.returncode == 0 and "League table" in text.stdout
    bad = run_stats(tmp_path, "--season", "Весна")
    assert bad.returncode == 2 and bad.stderr.startswith("stats: --season:")


def test_a_restore_keeps_players_and_links_and_remakes_summaries(tmp_path):
    """Players, merges and seasons survive backup and restore; summaries are remade."""
    instance = tmp_path / "inst"
    instance.mkdir()
    st = store.Store(store.connect(instance / "scorer.sqlite"))
    store.migrate(st.db)
    log = finished_logs()[2]
    add(st, seated(log, ["Аня", "Борис", "Вика"], date="2026-10-01"))
    add(st, seated(log, ["Анна", "Борис", "Вика"], date="2026-10-02"))
    club = Club(st.db)
    ids = {p.name: p.id for p in club.roster()}
    club.merge(ids["Аня"], ids["Анна"])
    before = club.player(ids["Аня"]).counts()
    st.db.close()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    backup = tmp_path / "b.sqlite"
    for args in (["backup", str(backup)], ["restore", str(backup)]):
        done = subprocess.run([sys.executable, "-m", "scorer", *args, "--instance",
                               str(instance)], capture_output=True, text=True, env=env,
                              check=False, timeout=120)
        assert done.returncode == 0, done.stderr
    db = store.connect(instance / "scorer.sqlite")
    assert db.execute("select count(*) from club_summaries").fetchone()[0] == 2
    assert Club(db).player(ids["Аня"]).counts() == before
    db.close()
