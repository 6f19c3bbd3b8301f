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


def direct_more(logs: list[dict], name: str) -> dict:
    """The other deal figures, counted straight off the finished games' protocols and
    the records behind their rows."""
    out: dict = {"dark": [0, 0], "golden": [0, 0], "bolt_penalties": 0, "falls": {},
                 "marriages": {}, "barrel_wins": 0, "totals": []}
    for log in logs:
        if name not in log["players"]:
            continue
        seat = log["players"].index(name)
        protocol = replay(parse_game(log))
        if protocol.winner is None:
            continue
        out["totals"].append(protocol.score[seat])
        on_barrel: set = set()
        for row, record in zip(protocol.rows, log["deals"], strict=True):
            if row.type == "play" and row.declarer == seat:
                for key, flag in (("dark", row.dark), ("golden", row.golden)):
                    out[key][0] += flag
                    out[key][1] += flag and row.result == "made"
            if record["type"] == "play":
                for suit in record.get("marriages", {}).get(str(seat), []):
                    out["marriages"][suit] = out["marriages"].get(suit, 0) + 1
            for event in row.events:
                if event.seat != seat:
                    continue
                if event.kind == "bolt_penalty":
                    out["bolt_penalties"] += 1
                if event.kind == "barrel_fall":
                    cause = event.extra["cause"]
                    out["falls"][cause] = out["falls"].get(cause, 0) + 1
                if event.kind == "win" and seat in on_barrel:
                    out["barrel_wins"] += 1
            on_barrel = {b.seat for b in row.barrel}
    return out


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
                assert len(figures["bolts"].sources) == expected["bolts"]
                assert set(figures["games"].games) <= set(ids)
                assert len(figures.results) == expected["finished"]
                assert len(figures.unfinished) == expected["games"] - expected["finished"]
                more = direct_more(logs, player.name)
                assert [figures["dark_taken"].value, figures["dark_made"].value] == more["dark"]
                assert [figures["golden_taken"].value,
                        figures["golden_made"].value] == more["golden"]
                assert figures["bolt_penalties"].value == more["bolt_penalties"]
                assert {c: f.value for c, f in figures.falls_by_cause.items() if f.value} == \
                    more["falls"]
                assert {s: f.value for s, f in figures.marriages.items()} == more["marriages"]
                assert figures["barrel_wins"].value == more["barrel_wins"]
                assert figures["best_total"].value == (max(more["totals"]) if more["totals"]
                                                    else None)
            sat = {n for log in logs for n in log["players"]}
            assert {p.name for p in club.roster()} == sat
        finally:
            st.db.close()
