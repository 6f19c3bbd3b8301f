"""Every kind of page is valid HTML as far as can be checked offline (htmlcheck.py): the
host's browser walks every link of the app from the games list — games with deals, a
deleted and restored deal, a finished game, the club — plus the pages only a post or a
query shows (a refused deal, a preview, a comparison with a refusal, a rule change)."""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from urllib.parse import urljoin, urlsplit

import pytest
from club_web import as_host, store_club
from htmlcheck import problems
from webtable import Table

# Links that are not pages (files, switches) or that would change something.
NOT_PAGES = re.compile(r"\.(pdf|csv|json|svg|png|ico|webmanifest|css|js)$|^/lang/|^/static/")
# A path segment with a digit in it, or a token: a record, not a kind of page.
KIND = re.compile(r"/(?:[^/]*\d[^/]*|[A-Za-z0-9_-]{16,})(?=/|$)")
PER_KIND = 2  # pages of one kind (the same path but for tokens and numbers) checked


def kind(path: str) -> str:
    """A page's kind: its path with tokens and numbers blanked."""
    return KIND.sub("/*", path)


def links(html: str, here: str) -> list[str]:
    """The same-site paths (with their query) the page links to."""
    out = []
    for href in re.findall(r'href="([^"#]+)', html):
        url = urlsplit(urljoin("http://localhost" + here, href.replace("&amp;", "&")))
        if url.netloc == "localhost" and not NOT_PAGES.search(url.path):
            out.append(url.path + (f"?{url.query}" if url.query else ""))
    return out


def walk(client, start: list[str], limit: int = 160) -> dict[str, str]:
    """path -> HTML of every page reachable from ``start`` (PER_KIND of each kind)."""
    seen: dict[str, str] = {}
    kinds: Counter[str] = Counter()
    queue = list(start)
    while queue and len(seen) < limit:
        path = queue.pop(0)
        key = kind(path.split("?")[0]) + ("?" if "?" in path else "")
        if path in seen or kinds[key] >= PER_KIND:
            continue
        r = client.get(path)
        if not r.content_type.startswith("text/html") or r.status_code in (301, 302, 303):
            continue
        kinds[key] += 1
        seen[path] = r.get_data(as_text=True)
        queue += links(seen[path], path)
    return seen


def imported(table: Table, log: dict) -> str:
    """Import a game log; its edit path."""
    r = table.client.post("/import", data={
        "csrf_token": table.token("/"),
        "file": (io.BytesIO(json.dumps(log).encode()), "g.json")},
        content_type="multipart/form-data")
    assert r.status_code == 302, r.get_data(as_text=True)[:500]
    return r.headers["Location"]


@pytest.fixture
def pages(app, client):
    """Every page kind of an app with games, deals, edits and a club, as the host sees it."""
    store_club(app)
    as_host(client)
    table = Table(client)
    game = table.new_game(title="Пятница")
    table.deal(game, declarer="0", contract="100", points_1="20", points_2="0")
    table.deal(game, declarer="1", contract="100", points_0="20", points_2="0", nt_2="1")
    table.deal(game, action="redeal")
    slot = table.slot_ids(game)[0]
    client.post(f"{game}/deal/{slot}/delete", data=table.form(game))
    found = walk(client, ["/", game, f"{game}/deal", f"{game}/deal/{slot}"])
    client.post(f"{game}/deal/{slot}/restore", data=table.form(game))
    found[game + "#restored"] = client.get(game).get_data(as_text=True)
    refused = client.post(f"{game}/deal", data={**table.form(game + "/deal"), "action": "play",
                                                "declarer": "0", "contract": "103",
                                                "points_1": "125"})
    found["refused deal"] = refused.get_data(as_text=True)
    preview = client.post(f"{game}/deal", data={**table.form(game + "/deal"),
                                                "action": "preview", "declarer": "0",
                                                "contract": "100", "points_1": "20",
                                                "points_2": "0"})
    found["preview"] = preview.get_data(as_text=True)
    found["what if"] = client.get(f"{game}/compare?preset=polish").get_data(as_text=True)
    found["rule change"] = client.get(f"{game}/agreements?preset=classic&agreements_shown=1"
                                      "&ag_target=1500").get_data(as_text=True)
    found["404"] = client.get("/g/no-such-game").get_data(as_text=True)
    view = table.view_path(game)
    found.update(walk(app.test_client(), [view]))  # the read-only link, as a watcher
    return found


def test_every_page_kind_is_valid_html(pages):
    """No repeated id (the deal form's id="csrf_token" in each of its forms), no reference
    to a missing id, no stray or unclosed element, on every page kind the walk reaches."""
    assert len(pages) > 30, sorted(pages)
    kinds = {kind(p.split("?")[0]) for p in pages}
    for wanted in ("/", "/new", "/g/*", "/g/*/deal", "/g/*/deal/*", "/g/*/why/*", "/g/*/rules",
                   "/g/*/share", "/club", "/club/players/*", "/club/table", "/v/*"):
        assert wanted in kinds, (wanted, sorted(kinds))
    bad = {path: found for path, html in pages.items() if (found := problems(html))}
    assert not bad, bad


def test_the_checker_finds_what_it_looks_for():
    """The checker itself: a repeated id, a dangling label, a form in a form, a stray end."""
    page = ('<!doctype html><html lang="ru"><body>'
            '<form><input type="hidden" id="csrf_token"></form>'
            '<form><input type="hidden" id="csrf_token"><label for="nowhere">x</label>'
            '<form></form></form><p><div></div></p><a href="#a"><a></a></a></body></html>')
    said = " ".join(problems(page))
    for expected in ("id='csrf_token' is repeated", "points at no id: 'nowhere'",
                     "a form inside a form", "</p> with no <p> open", "<a> inside <a>"):
        assert expected in said, (expected, said)
    assert problems("<html></html>") == ["no <!doctype html>"]
    assert problems('<!doctype html><html><body><svg><path d="M0"/></svg>'
                    '<ul><li>1<li>2</ul></body></html>') == []
