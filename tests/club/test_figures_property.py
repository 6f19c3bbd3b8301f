"""Every per-player figure equals a direct count over the replayed protocols (hypothesis)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from club_games import CLUB, add, finished_logs, new_store, seated
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import generated_games

from scorer.club import Club
from scorer.engine import parse_game, replay


@st.composite
def club_evenings(draw) -> list[dict]:
    """A few games of the club: finished card-dealt games re-seated (some cut short, so
    unfinished) and random card-dealt games under random agreements."""
    pool = finished_logs()
    logs = []
    for _ in range(draw(st.integers(1, 6))):
        if draw(st.integers(0, 3)) == 0:
            log = draw(generated_games(max_deals=24)).log
        else:
            log = draw(st.sampled_from(pool))
        names = draw(st.permutations(CLUB))[:len(log["players"])]
        cut = draw(st.one_of(st.none(), st.integers(0, len(log["deals"]))))
        logs.append(seated(log, list(names), cut=cut))
    return logs


def direct(logs: list[dict], name: str) -> dict:
    """The figures of ``stats --json`` counted straight off each game's protocol."""
    out = dict.fromkeys(("games", "finished", "wins", "contracts_taken", "contracts_made",
                         "raspis", "bolts", "barrel_entries", "barrel_falls", "samosvals"), 0)
    for log in logs:
        if name not in log["players"]:
            continue
        seat = log["players"].index(name)
        protocol = replay(parse_game(log))
        out["games"] += 1
        if protocol.winner is None:
            continue  # unfinished games count nowhere but in «games»
        out["finished"] += 1
        out["wins"] += protocol.winner == seat
        for row in protocol.rows:
            if row.declarer == seat and row.type == "play":
                out["contracts_taken"] += 1
                out["contracts_made"] += row.result == "made"
            if row.declarer == seat and row.type == "raspis":
                out["raspis"] += 1
            for event in row.events:
                if event.seat == seat:
                    key = {"bolt": "bolts", "barrel_enter": "barrel_entries",
                           "barrel_fall": "barrel_falls", "samosval": "samosvals"}.get(event.kind)
                    if key:
                        out[key] += 1
    return out


@settings(max_examples=25)
@given(club_evenings())
def test_every_figure_is_a_direct_count_over_the_protocols(logs):
    """games, finished, wins, contracts, raspis, bolts, barrel entries and falls and
    samosvals of every player equal a count over the replayed protocols; each figure's
    sources name exactly the deals counted."""
    with tempfile.TemporaryDirectory() as folder:
        st = new_store(Path(folder) / "club.sqlite")
        try:
            ids = [add(st, log) for log in logs]
            club = Club(st.db)
            for player in club.roster():
                figures = club.player(player.id)
                counts = figures.counts()
                expected = direct(logs, player.name)
                assert {k: counts[k] for k in expected} == expected, player.name
                assert len(figures.bolts.sources) == expected["bolts"]
                assert set(figures.games.games) <= set(ids)
                assert len(figures.results) == expected["finished"]
                assert len(figures.unfinished) == expected["games"] - expected["finished"]
            sat = {n for log in logs for n in log["players"]}
            assert {p.name for p in club.roster()} == sat
        finally:
            st.db.close()
