"""The club's cost: a club of 500 finished games of 30–300 card-dealt deals.

Usage: python benchmarks/stats.py [--games 500] [--rounds 300] [--seed 1]

Each game is a prefix (30–300 deals) of one of benchmarks/games.py's card-dealt evening
games of 2, 3 or 4 players, finished by two more records (an adjustment that brings the
leader to the barrel and a made contract from it), re-seated from a club of ten players
and dated over a year. Printed:

- the first look (links every seat by name and summarizes every game);
- the full rebuild after a restore (``Club.rebuild``: every summary forgotten and made
  again, each game replayed once, the summaries stored) against replaying every game
  once (every record read from the file in one query, each game parsed and replayed):
  target ≤ 1.5×, best of ``--repeat`` interleaved runs; the replay from logs already in
  memory is printed beside it;
- the season page and a player page, warm, p99 over ``--rounds`` requests through a
  Flask app's test client: the route builds ``Club(db)`` and answers the page rendered
  (a minimal Jinja template of the figures) once per club state by ``Club.cached``: one
  fingerprint query, the rest from memory. The floor is a bare route of the same app
  returning the same bytes. Target ≤ 3×. The cold render after a change (new figures,
  template rendered) is printed too.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from flask import Flask  # noqa: E402
from games import evening_game  # noqa: E402

from scorer import store  # noqa: E402
from scorer.club import Club  # noqa: E402
from scorer.club.service import _STATES, all_records  # noqa: E402  (benchmark only)
from scorer.engine import RuleError, parse_game, replay  # noqa: E402

CLUB = ("Аня", "Борис", "Вика", "Гоша", "Дина", "Егор", "Женя", "Зоя", "Илья", "Кира")
SEEDS = (1, 2, 3)

SEASON = """<h1>{{ table.season.name }}</h1><table>{% for r in table.rows %}
<tr><td><a href="/p/{{ r.player.id }}">{{ r.player.name }}</a></td><td>{{ r.games.value }}</td>
<td>{{ r.wins.value }}</td><td>{{ r.points.value }}</td><td>{{ r.avg_place.value }}</td>
<td>{{ r.rating }}</td></tr>{% endfor %}</table>
{% for k in ("highest_total", "largest_contract", "most_bolts", "most_falls", "longest_game") %}
{% set rec = records[k] %}<p>{{ k }}: {{ rec.value if rec else "" }}
{{ rec.game_id if rec else "" }}</p>
{% endfor %}"""
PLAYER = """<h1>{{ f.player.name }}</h1><dl>{% for k, v in figures %}
<dt>{{ k }}</dt><dd>{{ v.value }} ({{ v.sources|length }})</dd>{% endfor %}</dl>
<table>{% for h in f.head_to_head %}<tr><td>{{ h.opponent.name }}</td><td>{{ h.above.value }}</td>
<td>{{ h.below.value }}</td></tr>{% endfor %}</table>
<ol>{% for s in f.rating_steps %}<li>{{ s.date }} {{ s.after }} ({{ s.change }})</li>
{% endfor %}</ol>
<ul>{% for g in f.results %}<li><a href="/g/{{ g.game_id }}">{{ g.date }}</a> {{ g.place }}
{{ g.total }}</li>{% endfor %}</ul>"""


def finished(log: dict) -> dict:
    """The log with an adjustment that takes its leader to the barrel and made contracts
    from there until somebody wins."""
    log = {**log, "deals": list(log["deals"])}
    players = len(log["players"])
    for _ in range(12):
        protocol = replay(parse_game(log))
        if protocol.winner is not None:
            return log
        nxt = protocol.next
        assert nxt is not None
        lead = max(nxt.active, key=lambda s: protocol.score[s])
        if protocol.score[lead] < 880 and lead not in {b.seat for b in protocol.barrel}:
            record: dict = {"type": "adjustment", "player": lead,
                            "amount": 880 - protocol.score[lead], "reason": "other"}
        else:
            points: list[int | None] = [0] * players
            if players == 4:
                points[nxt.dealer] = None
            points[lead] = 120
            record = {"type": "play", "declarer": lead, "contract": 120, "points": points}
            if players == 4:
                record["prikup"] = {"points": 0, "marriage": None}
        log["deals"].append(record)
    raise RuleError(None, "game", "game.unfinished")


def club_logs(count: int, seed: int) -> list[dict]:
    """count finished games of 30–300 deals, re-seated and dated over a year."""
    rnd = random.Random(seed)
    bases = {(size, s): evening_game(298, size, s) for size in (2, 3, 4) for s in SEEDS}
    logs = []
    for i in range(count):
        size = rnd.choice((2, 3, 3, 4))
        base = bases[(size, rnd.choice(SEEDS))]
        cut = rnd.randint(28, 298)
        log = finished({**base, "deals": base["deals"][:cut]})
        names = rnd.sample(CLUB, size)
        day = 1 + i * 365 // count
        date = time.strftime("%Y-%m-%d", time.gmtime(1767225600 + day * 86400))
        logs.append({**log, "players": names, "date": date})
    return logs


def stored_club(path: Path, logs: list[dict]) -> store.Store:
    """A migrated store holding the logs as the host's games."""
    db = store.connect(path)
    store.migrate(db)
    st = store.Store(db)
    st.create_games([({k: v for k, v in g.items() if k != "deals"}, g["deals"]) for g in logs])
    return st


def timed(work) -> float:
    """Seconds one call of work takes."""
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def replay_all(logs: list[dict]) -> None:
    """Replay every game once, from memory."""
    for log in logs:
        replay(parse_game(log))


def replay_stored(st: store.Store) -> None:
    """Replay every stored game once: its head and live records read from the file (all
    records in one query, as the rebuild reads them), parsed and replayed."""
    records = all_records(st.db)
    for row in st.games(None):
        replay(parse_game({**row.head, "deals": records.get(row.id, [])}))


def app_of(db_path: Path, season: int, player: int) -> Flask:
    """A tiny app: the season page, a player page, and bare routes with the same bytes."""
    app = Flask(__name__)
    bare: dict[str, bytes] = {}
    conn = store.connect(db_path)
    # Compiled once, as Flask's template loader would keep a template file.
    season_template = app.jinja_env.from_string(SEASON)
    player_template = app.jinja_env.from_string(PLAYER)

    def season_html(club: Club) -> str:
        board = club.records(season)
        records = {k: getattr(board, k) for k in ("highest_total", "largest_contract",
                                                  "most_bolts", "most_falls", "longest_game")}
        return season_template.render(table=club.season_table(season), records=records)

    def player_html(club: Club) -> str:
        f = club.player(player)
        figures = [(k, v) for k, v in vars(f).items() if hasattr(v, "sources")]
        return player_template.render(f=f, figures=figures)

    # Each page is rendered once per club state (Club.cached), as the game pages are
    # once per game version: a warm request is the fingerprint query and a lookup.
    @app.get("/season")
    def season_page() -> str:
        club = Club(conn)
        return club.cached(("season", season), lambda: season_html(club))

    @app.get("/player")
    def player_page() -> str:
        club = Club(conn)
        return club.cached(("player", player), lambda: player_html(club))

    @app.get("/bare/<name>")
    def bare_page(name: str) -> bytes:
        return bare[name]

    client = app.test_client()
    for name in ("season", "player"):
        bare[name] = client.get(f"/{name}").data
    return app


def forget_states() -> None:
    """Forget the club's states kept in memory (the summaries stay stored)."""
    _STATES.clear()


def p99(values: list[float]) -> float:
    """The 99th percentile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def pages(app: Flask, rounds: int) -> dict[str, tuple[float, float, int]]:
    """{page: (p99 ms, bare p99 ms, bytes)} over interleaved warm requests."""
    client = app.test_client()
    out = {}
    for name in ("season", "player"):
        real, floor = [], []
        for _ in range(rounds):
            real.append(timed(lambda n=name: client.get(f"/{n}")))
            floor.append(timed(lambda n=name: client.get(f"/bare/{n}")))
        body = client.get(f"/{name}").data
        forget_states()
        cold = timed(lambda n=name: client.get(f"/{n}")) * 1000
        print(f"{name} page after a change (figures and page made again): {cold:.1f} ms")
        assert body == client.get(f"/bare/{name}").data
        out[name] = (p99(real) * 1000, p99(floor) * 1000, len(body))
    return out


def main(argv: list[str] | None = None) -> int:
    """Build the club, time it, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="rebuilds and replays timed")
    args = parser.parse_args(argv)
    logs = club_logs(args.games, args.seed)
    deals = [len(g["deals"]) for g in logs]
    print(f"club: {len(logs)} finished games, {min(deals)}–{max(deals)} deals "
          f"(mean {statistics.mean(deals):.0f}), {len(CLUB)} players")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "club.sqlite"
        st = stored_club(path, logs)
        club = Club(st.db)
        first = timed(club.state)
        print(f"first look (link by name + summarize every game): {first:.2f} s")
        memory, replays, rebuilds = [], [], []
        for _ in range(args.repeat):  # interleaved: a busy machine slows all three alike
            memory.append(timed(lambda: replay_all(logs)))
            replays.append(timed(lambda: replay_stored(st)))
            rebuilds.append(timed(club.rebuild))
        ratio = min(rebuilds) / min(replays)
        print(f"replay every game once: {min(replays):.2f} s read from the file "
              f"({min(memory):.2f} s from memory); full rebuild: {min(rebuilds):.2f} s; "
              f"ratio {ratio:.2f} (target ≤ 1.5)")
        season = club.add_season("Осень 2026", "2026-09-01", "2026-11-30").id
        player = club.roster()[0].id
        assert season is not None
        results = pages(app_of(path, season, player), args.rounds)
        worst = 0.0
        for name, (real, floor, size) in results.items():
            worst = max(worst, real / floor)
            print(f"{name} page warm p99: {real:.2f} ms; bare route, same {size} bytes: "
                  f"{floor:.2f} ms; ratio {real / floor:.2f} (target ≤ 3)")
        st.db.close()
    met = "met" if ratio <= 1.5 and worst <= 3 else "MISSED"
    print(f"goals (rebuild ≤ 1.5x, pages ≤ 3x): {met}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
