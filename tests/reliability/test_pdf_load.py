"""PDF sheets under load: cached by content, at most MAX_RENDERS at once (others 503 with
Retry-After), other games' pages answer while renders run, and a capped appendix."""

from __future__ import annotations

import threading

from reliability_rig import HEAD, Phone, pattern

from scorer import sheet
from scorer.engine import parse_game, replay
from scorer.web.game import downloads
from scorer.web.turns import Turns


def slow_renders(monkeypatch):
    """Renders that wait until released; returns (started events list, release, calls)."""
    release = threading.Event()
    started: list[threading.Event] = [threading.Event() for _ in range(8)]
    calls: list[int] = []
    lock = threading.Lock()

    def hook() -> None:
        """Signal that a render holds a slot, then wait for the test to let it go."""
        with lock:
            started[len(calls)].set()
            calls.append(1)
        assert release.wait(60)

    monkeypatch.setattr(downloads, "render_hook", hook)
    monkeypatch.setattr(downloads, "_turns", Turns(shared=2, host=1, wait=0.2))
    return started, release, calls


def fetch(client, path: str, into: dict) -> threading.Thread:
    """GET path in a thread; the response lands in into[path]."""
    def run() -> None:
        """Fetch."""
        into[path] = client.get(path)
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_other_pages_answer_while_renders_run_and_a_third_render_waits_its_turn(
        app, monkeypatch):
    """Two renders in progress (held by a hook): another game's page answers, a third sheet
    gets 503 with Retry-After; then both renders finish and a repeat comes from the cache."""
    started, release, calls = slow_renders(monkeypatch)
    phones = [Phone(app) for _ in range(3)]
    for n, phone in enumerate(phones):  # three devices: one render at a time per address
        phone.client.environ_base["REMOTE_ADDR"] = f"10.0.0.{n + 1}"
    games = [p.new_game() for p in phones]
    for phone, game in zip(phones, games, strict=True):
        phone.deal(game, action="redeal")
    answers: dict = {}
    first = fetch(phones[0].client, games[0] + "/sheet.pdf", answers)
    assert started[0].wait(30)
    second = fetch(phones[1].client, games[1] + "/sheet.pdf", answers)
    assert started[1].wait(30)
    # Both slots are taken by renders that are known to be running right now.
    assert first.is_alive() and second.is_alive() and not release.is_set()
    page = phones[2].client.get(games[2])
    assert page.status_code == 200 and "Аня" in page.get_data(as_text=True)
    busy = phones[2].client.get(games[2] + "/sheet.pdf")
    assert busy.status_code == 503
    assert int(busy.headers["Retry-After"]) > 0
    assert first.is_alive() and second.is_alive()
    release.set()
    first.join(60)
    second.join(60)
    for game in games[:2]:
        r = answers[game + "/sheet.pdf"]
        assert r.status_code == 200 and r.data.startswith(b"%PDF")
    assert len(calls) == 2
    again = phones[0].client.get(games[0] + "/sheet.pdf")
    assert again.data == answers[games[0] + "/sheet.pdf"].data and len(calls) == 2
    # Another deal, another language or other options: another sheet.
    phones[0].deal(games[0], action="redeal")
    assert phones[0].client.get(games[0] + "/sheet.pdf").status_code == 200
    assert len(calls) == 3
    assert phones[0].client.get(games[0] + "/sheet.pdf?landscape=1").status_code == 200
    assert len(calls) == 4


def test_the_appendix_explains_the_last_deals_only():
    """A long game's appendix holds MAX_APPENDIX deals, the latest, and says so."""
    n = sheet.MAX_APPENDIX + 50
    game = parse_game({**HEAD, "deals": [pattern(i) for i in range(n)]})
    context = sheet.sheet_context(game, replay(game), appendix=True)
    assert [a["n"] for a in context["appendix"]] == list(range(51, n + 1))
    assert str(sheet.MAX_APPENDIX) in context["appendix_cut"]
    short = parse_game({**HEAD, "deals": [pattern(i) for i in range(10)]})
    assert sheet.sheet_context(short, replay(short), appendix=True)["appendix_cut"] == ""
    html = sheet.sheet_html(game, appendix=True)
    assert context["appendix_cut"] in html
