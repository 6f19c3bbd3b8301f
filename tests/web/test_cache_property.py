"""Whatever the caches keep, a served answer is the answer a server with nothing kept gives.

Two apps share one database file: ``served`` keeps its caches through a whole sequence of
requests, ``reference`` has every cache emptied before each request. Each request of the
sequence is asked of both with the very same cookies (the session holds the pending
flash, the CSRF secret and the language's cookie sits beside it), and the answers must be
equal: the game page over language × link × ?rows=all × a pending flash × a second
browser × before and after a deal, and the PDF sheet in each language and option.
"""

from __future__ import annotations

import itertools
import re

import pytest
from flask_wtf.csrf import validate_csrf
from hypothesis import given, settings
from hypothesis import strategies as st
from webtable import Table

from scorer import create_app
from scorer.web.db import get_store
from scorer.web.lru import clear_caches

HEAD = {"format": "thousand-game/1", "players": ["Аня", "Борис", "Вика"],
        "agreements": {"preset": "classic", "overrides": {}}, "first_dealer": 0}
CSRF = re.compile(r'(name="csrf_token" type="hidden" value=")([^"]+)(")')
SID = re.compile(r'(name="sid" value=")([^"]+)(")')


def record(n: int) -> dict:
    """Deal n+1 of the test game: each seat in turn makes 100 or fails 120; every fifth
    deal is a redeal. Scores stay far from the target, so the game never ends."""
    if n % 5 == 4:
        return {"type": "redeal"}
    declarer = n % 3
    points = [5, 5, 5]
    points[declarer] = 110
    return {"type": "play", "declarer": declarer, "contract": 100 if n % 2 else 120,
            "points": points}


def config(tmp_path) -> dict:
    """One instance folder and secret for both apps (a session cookie works in either)."""
    return {"TESTING": True, "INSTANCE_PATH": str(tmp_path / "instance"),
            "SECRET_KEY": "property-secret", "HOST_KEY": "h" * 24}


@pytest.fixture
def apps(tmp_path):
    """(served, reference): two apps on the same database file."""
    return create_app(config(tmp_path)), create_app(config(tmp_path))


def started(app, deals: int) -> tuple[str, str, Table]:
    """A stored game of ``deals`` deals, one of them deleted through its form: returns its
    edit path, its read-only path and the scorekeeper's browser."""
    with app.app_context():
        row = get_store().create_game(HEAD, [record(n) for n in range(deals)])
    keeper = Table(app.test_client())
    game, view = f"/g/{row.edit_token}", f"/v/{row.view_token}"
    slot = deals - 2  # recent enough to show among the newest rows
    data = keeper.form(f"{game}/deal/{slot}")
    assert keeper.client.post(f"{game}/deal/{slot}/delete", data=data).status_code == 302
    keeper.client.get(game)  # the "which totals changed" note, shown once
    return game, view, keeper


def cookies(client) -> dict[str, str]:
    """The browser's cookies by name."""
    found = {}
    for name in ("session", "lang"):
        cookie = client.get_cookie(name)
        if cookie is not None:
            found[name] = cookie.value
    return found


def fresh_answer(app, jar: dict[str, str], path: str):
    """What ``app`` answers with every cache emptied, to a browser holding these cookies."""
    clear_caches(app)
    client = app.test_client()
    for name, value in jar.items():
        client.set_cookie(name, value)
    return client.get(path)


def tokens_belong_to(app, client, html: str) -> None:
    """Every CSRF token on the page is valid for this browser's own session."""
    jar = cookies(client)
    with app.test_request_context(headers={"Cookie": f"session={jar.get('session', '')}"}):
        for _start, token, _end in CSRF.findall(html):
            validate_csrf(token)  # raises if made from another session's secret


def normalised(html: str) -> str:
    """The page without what is fresh on every render: CSRF tokens (time-stamped; checked
    against the session by tokens_belong_to) and the one-time ids of write forms."""
    return SID.sub(r"\1-\3", CSRF.sub(r"\1-\3", html))


def same_page(served_app, reference, client, path: str) -> str:
    """Ask the served app, then the reference with the same cookies; the two must agree."""
    jar = cookies(client)
    served = client.get(path)
    served.close()  # as a server does once the answer is sent
    fresh = fresh_answer(reference, jar, path)
    assert served.status_code == fresh.status_code == 200, path
    assert served.headers.get("ETag") == fresh.headers.get("ETag"), path
    html = served.get_data(as_text=True)
    tokens_belong_to(served_app, client, html)
    assert normalised(html) == normalised(fresh.get_data(as_text=True)), path
    return html


def test_a_served_game_page_is_the_page_nothing_kept_gives(apps):
    """Over language × link × ?rows=all × a pending flash × a second browser, before and
    after a deal, the served page is the page the reference renders from nothing."""
    served_app, reference = apps
    game, view, keeper = started(served_app, deals=26)
    browsers = [keeper.client, served_app.test_client()]
    # The second browser opens the link once first: a session's first page makes its CSRF
    # secret at random, which no second server could repeat.
    browsers[1].get(game)
    seen = set()
    for stage in ("before", "after"):
        if stage == "after":
            keeper.deal(game, action="redeal")
        for code, link, every, flash, who in itertools.product(
                ("ru", "en"), (game, view), (False, True), (False, True), (0, 1)):
            client = browsers[who]
            client.set_cookie("lang", code)
            if flash:
                with client.session_transaction() as session:
                    session["_flashes"] = [("message", "Kept for one page only")]
            html = same_page(served_app, reference, client, link + ("?rows=all" if every else ""))
            assert ("Kept for one page only" in html) == flash
            assert f'<html lang="{code}">' in html
            assert "<style>" not in html
            seen.add((stage, html.count('<tr id="row-'), '/restore"' in html))
    # The combinations showed what they should: 20 rows or all 25 (then 26) live ones,
    # the restore form on the edit link only.
    assert seen == {(stage, rows, restore) for stage, rows in (("before", 20), ("before", 25),
                                                              ("after", 20), ("after", 26))
                    for restore in (False, True)}


def test_a_served_sheet_is_the_sheet_nothing_kept_gives(apps):
    """In each language and option (landscape, appendix) and on both links, the served PDF
    is byte for byte the one the reference renders from nothing."""
    served_app, reference = apps
    game, view, keeper = started(served_app, deals=8)
    client = keeper.client
    answers = set()
    for code, landscape, appendix, link in itertools.product(
            ("ru", "en"), ("0", "1"), ("0", "1"), (game, view)):
        client.set_cookie("lang", code)
        path = f"{link}/sheet.pdf?landscape={landscape}&appendix={appendix}"
        jar = cookies(client)
        served = client.get(path)
        fresh = fresh_answer(reference, jar, path)
        assert served.status_code == fresh.status_code == 200, path
        assert served.mimetype == "application/pdf"
        assert served.get_data() == fresh.get_data(), path
        answers.add(served.get_data())
    assert len(answers) == 8  # each language and option is a sheet of its own


STEPS = st.lists(st.tuples(st.sampled_from(["deal", "redeal", "edit", "delete", "restore"]),
                           st.integers(0, 25), st.sampled_from(["ru", "uk", "pl", "en"]),
                           st.booleans()), min_size=1, max_size=8)


@settings(max_examples=12)
@given(steps=STEPS)
def test_rows_carried_from_the_version_before_are_the_rows_written_afresh(tmp_path_factory,
                                                                          steps):
    """A version shows the rows its predecessor wrote again (protocol_rows.Kept): after
    deals, edits, deletes and restores anywhere in the sheet, in any language, with
    ?rows=all or not, both links' pages equal those of a server with nothing kept."""
    folder = tmp_path_factory.mktemp("rows")
    served_app, reference = create_app(config(folder)), create_app(config(folder))
    game, view, keeper = started(served_app, deals=24)
    client, made = keeper.client, 24
    for action, pick, code, every in steps:
        slots = [int(s) for s in re.findall(r'href="/g/[^"/]+/deal/(\d+)"',
                                            client.get(game + "?rows=all").get_data(as_text=True))]
        gone = [int(s) for s in re.findall(r'/deal/(\d+)/restore"',
                                           client.get(game).get_data(as_text=True))]
        slot = slots[pick % len(slots)]
        if action in ("deal", "redeal"):
            n = made if action == "deal" else 4  # record(4) is a redeal
            made += action == "deal"
            fields = fields_of(record(n))
            keeper.deal(game, **fields)
        elif action == "edit":  # a play becomes a redeal and a redeal a play
            data = {**keeper.form(f"{game}/deal/{slot}"), **fields_of(record(pick))}
            client.post(f"{game}/deal/{slot}", data=data)  # refused is fine: nothing stored
        elif action == "delete":
            client.post(f"{game}/deal/{slot}/delete", data=keeper.form(f"{game}/deal/{slot}"))
        elif gone:
            data = keeper.form(game)
            client.post(f"{game}/deal/{gone[pick % len(gone)]}/restore", data=data)
        client.set_cookie("lang", code)
        for link in (game, view):
            same_page(served_app, reference, client, link + ("?rows=all" if every else ""))
        client.set_cookie("lang", "ru")


def fields_of(deal: dict) -> dict[str, str]:
    """The deal form's fields for a record of record()."""
    if deal["type"] == "redeal":
        return {"action": "redeal"}
    return {"action": "play", "declarer": str(deal["declarer"]),
            "contract": str(deal["contract"]),
            **{f"points_{s}": str(p) for s, p in enumerate(deal["points"])}}
