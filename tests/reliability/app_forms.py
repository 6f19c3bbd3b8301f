"""An app with something on every form, and the forms of its pages as a browser sends
them: shared by the tests that walk every route or every form field."""

from __future__ import annotations

import sys
from html.parser import HTMLParser
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from club_web import as_host, store_club  # noqa: E402
from test_rule_change import query  # noqa: E402

from scorer.club import Club  # noqa: E402
from scorer.web.db import get_store  # noqa: E402

# Input types a person types free text into (a date picker falls back to text).
TYPED = ("text", "search", "email", "url", "tel", "date", "")


class Forms(HTMLParser):
    """Every <form> of a page: (method, action, {field: value}) as a browser would send it."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str, dict[str, str]]] = []
        # (method, action, field, input id, its form's fields) of every input a person
        # types into.
        self.typed: list[tuple[str, str, str, str, dict[str, str]]] = []
        self._open: tuple[str, str, dict[str, str]] | None = None
        self._select: str | None = None
        self._button = False

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self._open = (a.get("method", "get").upper(), a.get("action", ""), {})
            self._button = False
        elif self._open is None:
            return
        elif tag == "textarea" and a.get("name"):
            self._open[2][a["name"]] = ""
            self.typed.append((*self._open[:2], a["name"], a.get("id", ""), self._open[2]))
        elif tag == "input" and a.get("name") and a.get("type") not in ("file", "submit"):
            if a.get("type", "text") in TYPED and "readonly" not in a:
                self.typed.append((*self._open[:2], a["name"], a.get("id", ""), self._open[2]))
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
        elif tag == "button" and a.get("name") and not self._button:
            # A browser sends the button pressed: Enter presses the first one.
            self._button = True
            self._open[2].setdefault(a["name"], a.get("value", ""))

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "form" and self._open is not None:
            self.found.append(self._open)
            self._open = None


def typed_inputs(html: str) -> list[tuple[str, str, str, str, dict[str, str]]]:
    """(method, action, field, input id, its form's fields as sent) of every input of a
    page a person types into."""
    parser = Forms()
    parser.feed(html)
    return parser.typed


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


def walk_app(app):
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
            f"/v/{view}", f"/s/{w['share']}", f"/g/{w['finished']}",
            f"/club/players/{w['player']}", "/club/table"]
