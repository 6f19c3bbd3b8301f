"""The club's cost: a club of 500 finished games of 30–300 card-dealt deals.

Usage: python benchmarks/stats.py [--games 500] [--rounds 300] [--seed 1] [--repeat 3]
       [--no-settle]

Each game is a prefix (30–300 deals) of one of benchmarks/games.py's card-dealt evening
games of 2, 3 or 4 players, finished by two more records (an adjustment that brings the
leader to the barrel and a made contract from it), re-seated from a club of ten players
and dated over a year. Printed:

- the first look (links every seat by name and summarizes every game);
- the full rebuild after a restore (every kept summary forgotten, then a new club's first
  read, as ``restore`` does: each game replayed once, the summaries stored) against
  replaying every game once (every record read from the file in one query, each game
  parsed and replayed): target ≤ 1.5×, best of ``--repeat`` interleaved runs; the replay
  from logs already in memory is printed beside it;
- the season page (``/club/table?season=``, «Осень 2026») and a player page
  (``/club/players/<id>``), warm, p99 over ``--rounds`` requests: the app's own routes
  (``scorer.create_app`` on a temporary instance holding the club), asked through Flask's
  test client by a host (the session cookie of ``/?key=HOST_KEY``), never sending
  If-None-Match, so each answer is a full 200: the club's fingerprint queries (three or
  four per page) and the page kept once per club state (``Club.cached``). Before they
  are timed the app's club memory is emptied and the heap collected and frozen, as after a
  restart of ``serve`` (``--no-settle``: not frozen). The floor is a bare route registered on the
  same app, returning the same bytes, asked interleaved by the same client. Target ≤ 3×.
  The CPU time of the serving thread (p99, same requests) is printed beside the wall
  clock: on a busy machine the wall clock's tail is mostly waiting for a core.
  The cold answer after a change (club state forgotten: figures and page made again,
  the summaries still stored) is printed too.
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
from flask.testing import FlaskClient  # noqa: E402
from games import evening_game  # noqa: E402

from scorer import create_app, store  # noqa: E402
from scorer.cli.serve import settle_heap  # noqa: E402
from scorer.club import Club  # noqa: E402
from scorer.club_store import ClubStore  # noqa: E402
from scorer.engine import RuleError, parse_game, replay  # noqa: E402
from scorer.web.lru import clear_caches  # noqa: E402

CLUB = ("Аня", "Борис", "Вика", "Гоша", "Дина", "Егор", "Женя", "Зоя", "Илья", "Кира")
SEEDS = (1, 2, 3)

HOST_KEY = "bench-host-key-" + "0" * 16


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


def timed(work, cpu: list[float] | None = None) -> float:
    """Seconds one call of work takes (and, into cpu, the seconds of CPU this thread
    spent: on a loaded machine the wall clock also counts the time it waited for a core)."""
    start, start_cpu = time.perf_counter(), time.thread_time()
    work()
    if cpu is not None:
        cpu.append(time.thread_time() - start_cpu)
    return time.perf_counter() - start


def replay_all(logs: list[dict]) -> None:
    """Replay every game once, from memory."""
    for log in logs:
        replay(parse_game(log))


def replay_stored(st: store.Store) -> None:
    """Replay every stored game once: its head and live records read from the file (all
    records in one query, as the rebuild reads them), parsed and replayed."""
    records = ClubStore(st.db).all_records()
    for row in st.games(None):
        replay(parse_game({**row.head, "deals": records.get(row.id, [])}))


def app_of(instance: Path) -> Flask:
    """The app on an instance folder, with a bare route that answers the bytes it is given
    (registered now: Flask takes no new route after the first request)."""
    app = create_app({"INSTANCE_PATH": str(instance), "SECRET_KEY": "bench",
                      "HOST_KEY": HOST_KEY})
    app.extensions["bench_bare"] = {}

    @app.get("/bench/bare/<name>")
    def bare_page(name: str) -> bytes:
        return app.extensions["bench_bare"][name]  # type: ignore[no-any-return]

    return app


def host_client(app: Flask) -> FlaskClient:
    """A test client whose session cookie holds the host key, as a host's browser does."""
    client = app.test_client()
    # Followed: the «host key» flash is shown and gone, so the pages are kept ones.
    assert client.get(f"/?key={HOST_KEY}", follow_redirects=True).status_code == 200
    return client


def rebuild(st: store.Store) -> int:
    """Forget every kept summary and read the club anew, as a restore does: each counted
    game replayed once, its summary stored; return how many games were summarized."""
    with st.atomic():
        ClubStore(st.db).forget_summaries()
    return len(Club(st.db).state().played)


def forget_states(app: Flask) -> None:
    """Forget the club's states the app keeps (the summaries stay stored and parsed)."""
    app.extensions["scorer_club_states"].clear()


def restarted(app: Flask, settle: bool) -> None:
    """Memory as after a restart of ``python -m scorer serve``: no club state or parsed
    summary kept (every cache of the app emptied), and (settle) the heap collected and
    frozen as the server does before it serves; the club state the first request makes
    is young, as a server's is."""
    clear_caches(app)
    if settle:
        settle_heap()


def p99(values: list[float]) -> float:
    """The 99th percentile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def pages(app: Flask, urls: dict[str, str], rounds: int, settle: bool
          ) -> dict[str, tuple[float, float, float, float, int]]:
    """{page: (p99, median, bare p99, bare median in ms, bytes)} over interleaved warm
    requests of the host's client, never sending If-None-Match: each is a full 200 answer
    of the kept page."""
    restarted(app, settle)
    client = host_client(app)
    bare = app.extensions["bench_bare"]
    out = {}
    for name, url in urls.items():
        first = client.get(url)
        assert first.status_code == 200, (url, first.status_code)
        bare[name] = first.data
        real, floor, cpu, cpu_floor = [], [], [], []
        for _ in range(rounds):
            real.append(timed(lambda u=url: client.get(u), cpu))
            floor.append(timed(lambda n=name: client.get(f"/bench/bare/{n}"), cpu_floor))
        again = client.get(url)
        assert again.status_code == 200 and again.data == bare[name]
        assert client.get(f"/bench/bare/{name}").data == bare[name]
        forget_states(app)
        cold = timed(lambda u=url: client.get(u)) * 1000
        print(f"{name} page after a change (figures and page made again): {cold:.1f} ms")
        print(f"{name} page warm CPU of this thread, p99: {p99(cpu) * 1000:.2f} ms; bare "
              f"route: {p99(cpu_floor) * 1000:.2f} ms; ratio {p99(cpu) / p99(cpu_floor):.2f}")
        out[name] = (p99(real) * 1000, statistics.median(real) * 1000, p99(floor) * 1000,
                     statistics.median(floor) * 1000, len(bare[name]))
    return out


def main(argv: list[str] | None = None) -> int:
    """Build the club, time it, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="rebuilds and replays timed")
    parser.add_argument("--no-settle", action="store_true",
                        help="time the pages without the server's frozen heap")
    args = parser.parse_args(argv)
    logs = club_logs(args.games, args.seed)
    deals = [len(g["deals"]) for g in logs]
    print(f"club: {len(logs)} finished games, {min(deals)}–{max(deals)} deals "
          f"(mean {statistics.mean(deals):.0f}), {len(CLUB)} players")
    with tempfile.TemporaryDirectory() as folder:
        app = app_of(Path(folder) / "instance")
        st = stored_club(Path(app.config["DATABASE"]), logs)
        club = Club(st.db)
        first = timed(club.state)
        print(f"first look (link by name + summarize every game): {first:.2f} s")
        memory, replays, rebuilds = [], [], []
        for _ in range(args.repeat):  # interleaved: a busy machine slows all three alike
            memory.append(timed(lambda: replay_all(logs)))
            replays.append(timed(lambda: replay_stored(st)))
            rebuilds.append(timed(lambda: rebuild(st)))
        ratio = min(rebuilds) / min(replays)
        print(f"replay every game once: {min(replays):.2f} s read from the file "
              f"({min(memory):.2f} s from memory); full rebuild: {min(rebuilds):.2f} s; "
              f"ratio {ratio:.2f} (target ≤ 1.5)")
        season = club.add_season("Осень 2026", "2026-09-01", "2026-11-30").id
        player = club.roster()[0].id
        assert season is not None
        urls = {"season": f"/club/table?season={season}", "player": f"/club/players/{player}"}
        results = pages(app, urls, args.rounds, not args.no_settle)
        worst = 0.0
        for name, (real, mid, floor, floor_mid, size) in results.items():
            worst = max(worst, real / floor)
            print(f"{name} page warm p99: {real:.2f} ms (median {mid:.2f}); bare route, "
                  f"same {size} bytes: {floor:.2f} ms (median {floor_mid:.2f}); "
                  f"ratio {real / floor:.2f} (target ≤ 3)")
        st.db.close()
    met = "met" if ratio <= 1.5 and worst <= 3 else "MISSED"
    print(f"goals (rebuild ≤ 1.5x, pages ≤ 3x): {met}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
