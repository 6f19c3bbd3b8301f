"""Numbers in routes, queries and forms beyond what SQLite holds answer 404, never 500.

The walk is made from the app's own url_map: every route, every method, each int path
argument and each number a query or a form carries (the forms as the pages render them,
so a POST reaches the code behind its checks) replaced by 0, −1, 2**63, a 5000-digit
number and «²» (a digit to str.isdigit, not to int). Nothing may answer 5xx, and nothing
may be logged but single lines without the long numbers.
"""

from __future__ import annotations

import logging
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from reliability_rig import csrf_of

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from club_web import as_host, store_club  # noqa: E402
from test_rule_change import query  # noqa: E402

from scorer.club import Club  # noqa: E402
from scorer.web.db import get_store  # noqa: E402

HUGE = "9" * 5000
BAD = ("0", "-1", str(2**63), HUGE, "\u00b2")
# Every number the app reads from a query string (checked against the code below).
QUERY_INTS = ("page", "season", "slot", "history", "edit", "ref", "version", "rev", "after",
              "player", "keep", "gone", "seat", "change", "game")


class Forms(HTMLParser):
    """Every <form> of a page: (method, action, {field: value}) as a browser would send it."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str, dict[str, str]]] = []
        self._open: tuple[str, str, dict[str, str]] | None = None
        self._select: str | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self._open = (a.get("method", "get").upper(), a.get("action", ""), {})
        elif self._open is None:
            return
        elif tag == "input" and a.get("name") and a.get("type") not in ("file", "submit"):
            if a.get("type") in ("radio", "checkbox") and "checked" not in a:
                self._open[2].setdefault(a["name"], "")
                if a.get("type") == "radio" and not self._open[2][a["name"]]:
                    self._open[2][a["name"]] = a.get("value", "")
                return
            self._open[2][a["name"]] = a.get("value", "")
        elif tag == "select" and a.get("name"):
            self._select = a["name"]
        elif tag == "option" and self._select:
            if self._select not in self._open[2] or "selected" in a:
                self._open[2][self._select] = a.get("value", "")
        elif tag == "button" and a.get("name"):
            self._open[2].setdefault(a["name"], a.get("value", ""))

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "form" and self._open is not None:
            self.found.append(self._open)
            self._open = None


def forms_of(html: str) -> list[tuple[str, str, dict[str, str]]]:
    """The forms of a page."""
    parser = Forms()
    parser.feed(html)
    return parser.found


HEAD = {"format": "thousand-game/1", "players": ["Аня", "Борис", "Вика"],
        "agreements": {"preset": "classic"}}
DEALS = [{"type": "raspis", "declarer": 0, "contract": 160},
         {"type": "play", "declarer": 2, "contract": 100, "points": [20, 0, 100],
          "no_tricks": [1]},
         {"type": "redeal"}]


@pytest.fixture
def walked(app):
    """A host browser on a club of finished games with a season, a rename and a share
    link, and a running game with a deleted deal and a rule change from the start: every
    form of the app is on some page, with something to act on."""
    ids = store_club(app)
    client = app.test_client()
    as_host(client)
    client.get("/club")  # links the seats of the host's games to players
    with app.app_context():
        st = get_store()
        club = Club(st.db)
        season = club.add_season("Осень", "2026-09-01", "2026-11-30")
        player = club.roster()[0].id
        club.rename(player, "Анна")
        share = club.share_token("season", season.id)
        finished = st.game(ids["Аня"]).edit_token
        row = st.create_game(dict(HEAD), [dict(d) for d in DEALS])
        slots = [s for (s,) in st.db.execute(
            "select seq from deals where game_id = ? order by seq", [row.id])]
        with st.writing():
            st.revise_deal(row.id, slots[-1], None, "delete")
    edit = row.edit_token
    page = client.get(f"/g/{edit}/agreements?" + query("start", penalty=100)
                      ).get_data(as_text=True)
    posted = [client.post(action, data=fields).status_code
              for method, action, fields in forms_of(page)
              if method == "POST" and action.endswith("/agreements")]
    assert posted == [302]  # the change from the start: its undo is on the form now
    return {"client": client, "row": row, "ids": ids, "season": season.id, "share": share,
            "slot": slots[0], "deleted": slots[-1], "player": player,
            "finished": finished}


def pages(w) -> list[str]:
    """The pages whose forms the walk takes its bodies from."""
    edit, view, slot = w["row"].edit_token, w["row"].view_token, w["slot"]
    return ["/", "/new", "/club", "/club/history", "/club/seasons",
            f"/club/games/{w['ids']['Аня']}", "/club/share?kind=season",
            f"/club/share?kind=player&ref={w['player']}", f"/g/{edit}", f"/g/{edit}/deal",
            f"/g/{edit}/deal/{slot}", f"/g/{edit}/share", f"/g/{edit}/agreements",
            f"/g/{edit}/agreements?" + query("next", raspis_payout="sixty"),
            f"/v/{view}", f"/s/{w['share']}", f"/g/{w['finished']}"]


def path_values(w, rule) -> dict[str, str]:
    """Valid values of a route's arguments: this game's tokens and ids."""
    row = w["row"]
    token = {"/g/": row.edit_token, "/v/": row.view_token, "/s/": w["share"]}
    out = {}
    for name in rule.arguments:
        if name == "token":
            # «Play again» is on a finished game's page only.
            out[name] = (w["finished"] if rule.rule.endswith("/again")
                         else token[rule.rule[:3]])
        elif name == "what":
            out[name] = "table" if rule.rule.endswith(".csv") else f"p{w['player']}.games"
        elif name == "code":
            out[name] = "ru"
        elif name == "filename":
            out[name] = "app.css"
        else:
            slot = w["deleted"] if rule.rule.endswith("/restore") else w["slot"]
            out[name] = str({"slot_id": slot, "n": 1, "game_id": w["ids"]["Аня"],
                             "player_id": w["player"], "season_id": w["season"]}[name])
    return out


def build(rule, values: dict[str, str]) -> str:
    """A rule's path with these argument values."""
    path = rule.rule
    for name, value in values.items():
        path = re.sub(rf"<(?:[^:>]+:)?{name}>", value, path)
    return path.replace("<any(table, results):what>", values.get("what", "table"))


def test_every_route_answers_numbers_beyond_sqlite_without_a_500(app, walked, caplog):
    """0, −1, 2**63, 5000 digits and «²» in every int argument, query number and form
    number of every route: 4xx or a page, never 5xx; the log holds no traceback and no
    long number."""
    app.config["PROPAGATE_EXCEPTIONS"] = False  # a 500 is answered (and logged), as served
    w, client = walked, walked["client"]
    bodies: dict[str, list[dict[str, str]]] = {}
    for page in pages(w):
        html = client.get(page).get_data(as_text=True)
        for method, action, fields in forms_of(html):
            known = bodies.setdefault(urlsplit(action).path, [])
            # One body per set of fields: the host list's archive buttons differ only in
            # their game.
            if method == "POST" and all(set(b) != set(fields) for b in known):
                known.append(fields)
    caplog.set_level(logging.INFO)
    failures, unreached, sent = [], [], 0
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        good = path_values(w, rule)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            base = bodies.get(build(rule, good)) if method == "POST" else [{}]
            if base is None:
                unreached.append(f"{method} {rule.rule}")
                base = [{"csrf_token": csrf_of(client.get("/club").get_data(as_text=True))}]
            tries: list[tuple[str, dict[str, str]]] = []
            for value in BAD:
                for name in rule.arguments & {a for a, c in rule._converters.items()
                                              if type(c).__name__ != "UnicodeConverter"
                                              and a not in ("filename", "what")}:
                    tries.append((build(rule, {**good, name: value}), base[0]))
                if "what" in rule.arguments and "sources" in rule.rule:
                    tries.append((build(rule, {**good, "what": f"p{value}.games"}), base[0]))
                if method == "GET":
                    tries.append((build(rule, good), dict.fromkeys(QUERY_INTS, value)))
                    if value == str(2**63):
                        tries += [(build(rule, good), {n: value}) for n in QUERY_INTS]
                    continue
                for body in base:
                    names = {
                        k for k, v in body.items() if re.fullmatch(r"-?[0-9]+", v)} | {
                        k for k in QUERY_INTS if k in body}
                    for name in sorted(names):
                        tries.append((build(rule, good), {**body, name: value}))
            for path, body in tries:
                sent += 1
                if method == "GET":
                    r = client.get(path, query_string=body)
                else:
                    r = client.post(path, data=body)
                if r.status_code >= 500:
                    shown = {k: (v[:12] + "…" if len(v) > 12 else v) for k, v in body.items()
                             if k != "csrf_token"}
                    failures.append(f"{method} {path[:70]} {shown} → {r.status_code}")
    print(f"\nroute params: {sent} requests over {len(list(app.url_map.iter_rules()))} rules")
    assert not failures, "\n".join(failures[:40])
    # Every POST route was walked with a body a page of the app renders for it.
    assert unreached == [], unreached
    for record in caplog.records:
        text = record.getMessage()
        assert "\n" not in text and record.exc_info is None and not record.exc_text, text[:300]
        assert not re.search(r"[0-9]{20}", text), text[:300]


def test_a_500_log_line_holds_no_long_number(app, caplog):
    """Whatever still fails is logged with its path cut: no number of 20 digits or more."""
    from scorer.web.app import redacted

    line = redacted(f"Exception on /club/sources/p{HUGE}.games [GET]")
    assert HUGE not in line and not re.search(r"[0-9]{20}", line)
    assert "5000 digits" in line
