"""A test client that plays at the table: starts games and posts deals through the forms."""

from __future__ import annotations

import re


def csrf_of(html: str) -> str:
    """The CSRF token in a rendered form."""
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html)
    assert found, "no CSRF token on the page"
    return found.group(1)


def version_of(html: str) -> str:
    """The game version a rendered form was filled in for (its hidden field)."""
    found = re.search(r'name="version" value="(\d+)"', html)
    assert found, "no version field in the form"
    return found.group(1)


class Table:
    """Drives one browser's test client through the app's forms."""

    def __init__(self, client):
        """Drive this test client."""
        self.client = client

    def token(self, path: str = "/new") -> str:
        """A CSRF token from a page with a form."""
        return csrf_of(self.client.get(path).get_data(as_text=True))

    def new_game(self, names=("Аня", "Борис", "Вика"), dealer=0, preset="classic",
                 title: str | None = None, **ag):
        """Create a game through the form; return its edit path."""
        data = {"csrf_token": self.token(), "first_dealer": str(dealer), "preset": preset,
                "action": "start"}
        if title:
            data["title"] = title
        for i, name in enumerate(names):
            data[f"name{i}"] = name
        if ag:
            data["agreements_shown"] = "1"
            page = self.client.get(f"/new?preset={preset}").get_data(as_text=True)
            data.update(current_agreements(page))
            for key, value in ag.items():
                if value is False:
                    data.pop(f"ag_{key}", None)
                else:
                    data[f"ag_{key}"] = "1" if value is True else str(value)
        r = self.client.post("/new", data=data)
        assert r.status_code == 302, r.get_data(as_text=True)[:2000]
        return r.headers["Location"]

    def form(self, path: str) -> dict[str, str]:
        """The hidden fields every write carries: the CSRF token and the game version."""
        html = self.client.get(path).get_data(as_text=True)
        return {"csrf_token": csrf_of(html), "version": version_of(html)}

    def deal(self, game: str, expect=302, **fields):
        """Post the deal form with these fields (action defaults to play)."""
        data = {**self.form(game + "/deal"), "action": "play"}
        data.update({k: v for k, v in fields.items() if not isinstance(v, list)})
        lists = {k: v for k, v in fields.items() if isinstance(v, list)}
        r = self.client.post(game + "/deal", data={**data, **lists})
        assert r.status_code == expect, r.get_data(as_text=True)[:3000]
        return r

    def view_path(self, game: str) -> str:
        """The read-only path of a game, read from its share page."""
        html = self.client.get(game + "/share").get_data(as_text=True)
        return re.search(r'value="http://localhost(/v/[^"]+)" id="view-url"',
                         html).group(1)

    def totals(self, path: str) -> list[int]:
        """The big totals on a game page."""
        html = self.client.get(path).get_data(as_text=True)
        found = re.findall(r'class="score" data-seat="\d">(\u2212?\d+)<', html)
        return [int(x.replace("\u2212", "-")) for x in found]

    def slot_ids(self, game: str) -> list[int]:
        """The edit links of the protocol rows, in protocol order (the page shows newest first)."""
        html = self.client.get(game + "?rows=all").get_data(as_text=True)
        return [int(x) for x in re.findall(re.escape(game) + r"/deal/(\d+)\"", html)][::-1]


def current_agreements(html: str) -> dict[str, str]:
    """The agreement values a new-game page shows (as a browser would submit them)."""
    data = {}
    for name, checked in re.findall(r'name="(ag_\w+)" value="1" (checked)?', html):
        if checked:
            data[name] = "1"
    for name in re.findall(r'<select id="(ag_\w+)"', html):
        block = html.split(f'<select id="{name}"', 1)[1].split("</select>", 1)[0]
        data[name] = re.search(r'<option value="([^"]*)" selected', block).group(1)
    for name, value in re.findall(r'inputmode="numeric" id="(ag_\w+)" name="ag_\w+" '
                                  r'data-ag="\w+"\s+value="([^"]*)"', html):
        data[name] = value
    return data
