"""Against a real `serve`: numbers beyond SQLite answer 404 and log
nothing, the CSVs (the share link's too) hold formula-like names inert, and a season
named with U+202E is refused beside the field."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from reliability_rig import Browser, csrf_of, serve_with

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "club"))
from club_games import add, finished_log, seated  # noqa: E402

from scorer import store  # noqa: E402
from scorer.club import Club  # noqa: E402

HUGE = "9" * 5000


def test_a_real_server_keeps_numbers_csv_cells_and_season_names_in_bounds(tmp_path):
    """404 for 2**63 and 5000 digits in a page, an id, a figure's key and a deal slot;
    «'=A1+Б» in the host's and the share link's CSV; 422 for a season named with U+202E;
    and a log with no traceback and no long number."""
    server = serve_with(tmp_path / "instance")
    try:
        db = store.connect(tmp_path / "instance" / "scorer.sqlite")
        st = store.Store(db)
        add(st, seated(finished_log(3, 7), ["=A1+Б", "+Вова", "@Гена"], "2026-09-05"))
        game = st.create_game({"format": "thousand-game/1", "players": ["Аня", "Борис"],
                               "agreements": {"preset": "two-players"}})
        host = Browser(server.base)
        assert host.request("/?key=" + "h" * 32)[0] == 302
        assert host.request("/club")[0] == 200  # links the seats to players
        share = Club(db).share_token("season", None)
        db.close()
        for path in (f"/?page={2**63}", f"/club/games/{2**63}", f"/club/games/{HUGE}",
                     f"/club/sources/p{HUGE}.games", f"/g/{game.edit_token}/deal/{HUGE}",
                     f"/g/{game.edit_token}/deal/{2**63}", f"/club/share?kind=player&ref={2**63}"):
            assert host.request(path)[0] == 404, path[:60]
        for path, who in (("/club/table.csv", host), ("/club/results.csv", host),
                          (f"/s/{share}/table.csv", Browser(server.base)),
                          (f"/s/{share}/results.csv", Browser(server.base))):
            status, body, _headers = who.request(path)
            assert status == 200 and "'=A1+Б" in body and "'+Вова" in body, path
            assert not re.search(r"(^|,)[=+@]", body, re.M), path
        page = host.request("/club/seasons")[1]
        status, body, _headers = host.request("/club/seasons", {
            "csrf_token": csrf_of(page), "name": "Ос\u202eень", "start": "2026-09-01",
            "end": "2026-11-30"})
        assert status == 422 and 'id="season-name-error"' in body and "U+202E" in body
    finally:
        server.kill()
    log = (tmp_path / "serve-0.log").read_text(encoding="utf-8")
    assert "Traceback" not in log and not re.search(r"[0-9]{20}", log), log[-2000:]
