"""Changing the rules of a running game on the edit link: from the next deal, from the start."""

from __future__ import annotations

import html as html_lib
import io
import json
import re
from urllib.parse import urlencode

import pytest
from webtable import csrf_of

from scorer import store
from scorer.engine import resolve_agreements

HEAD = {"format": "thousand-game/1", "players": ["Аня", "Борис", "Вика"],
        "agreements": {"preset": "classic"}}
DEALS = [
    {"type": "raspis", "declarer": 0, "contract": 160},
    {"type": "play", "declarer": 2, "contract": 100, "points": [20, 0, 100],
     "no_tricks": [1]},
]


def stored(app, deals=DEALS):
    """A game in the app's real SQLite file, and the store to read it back."""
    st = store.Store(store.connect(app.config["DATABASE"]))
    return st.create_game(dict(HEAD), [dict(d) for d in deals]), st


@pytest.fixture
def game(app):
    """The stored game row."""
    row, st = stored(app)
    st.db.close()
    return row


def query(when: str, base: dict | None = None, **changes) -> str:
    """The change form's query: every agreement of ``base`` (classic) with some changed."""
    values = {**(base or dict(resolve_agreements())), **changes}
    fields = {"agreements_shown": "1", "when": when, "action": "compare"}
    for key, value in values.items():
        if value is True:
            fields[f"ag_{key}"] = "1"
        elif value is not False:
            fields[f"ag_{key}"] = "" if value is None else str(value)
    return urlencode(fields)


def confirm_fields(html: str) -> dict[str, str]:
    """The hidden fields of the confirm form, as the browser would post them."""
    form = html[html.index('id="confirm-change"'):]
    form = form[:form.index("</form>")]
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form))
    fields = {k: html_lib.unescape(v) for k, v in fields.items()}
    fields["csrf_token"] = csrf_of(html)
    return fields


def scores(client, token: str) -> str:
    """The game page's text."""
    return client.get(f"/g/{token}").get_data(as_text=True)


def test_the_game_page_and_rules_sheet_link_to_it_on_the_edit_link_only(client, game):
    """The edit link's pages carry the link; the read-only link's do not, and 404 there."""
    for path in (f"/g/{game.edit_token}", f"/g/{game.edit_token}/rules"):
        assert 'id="rule-change-link"' in client.get(path).get_data(as_text=True)
    for path in (f"/v/{game.view_token}", f"/v/{game.view_token}/rules"):
        assert 'id="rule-change-link"' not in client.get(path).get_data(as_text=True)
    assert client.get(f"/g/{game.view_token}/agreements").status_code == 404
    assert client.post(f"/g/{game.view_token}/agreements", data={}).status_code in (400, 404)


def test_from_the_next_deal_shows_the_comparison_then_adds_a_row(client, game, app):
    """The form shows what changes and the comparison; only confirm adds the record."""
    page = client.get(f"/g/{game.edit_token}/agreements?" + query(
        "next", raspis_payout="sixty")).get_data(as_text=True)
    assert 'id="rule-changes"' in page and 'id="totals"' in page
    assert 'id="confirm-button"' in page
    st = store.Store(store.connect(app.config["DATABASE"]))
    assert len(st.records(game.id)) == 2  # shown, not saved
    answer = client.post(f"/g/{game.edit_token}/agreements", data=confirm_fields(page))
    assert answer.status_code == 302
    records = st.records(game.id)
    assert records[-1] == {"type": "agreements", "changes": {"raspis_payout": "sixty"}}
    assert st.log(game.id)["format"] == "thousand-game/2"
    text = scores(client, game.edit_token)
    assert "договорённости изменены" in text and "→" in text
    view = client.get(f"/v/{game.view_token}").get_data(as_text=True)
    assert "договорённости изменены" in view
    why = client.get(f"/v/{game.view_token}/why/3")
    assert why.status_code == 200 and "ничего не записывается" in why.get_data(as_text=True)
    st.db.close()


def test_a_stale_confirm_is_refused_and_changes_nothing(client, game, app):
    """A deal added after the comparison was shown makes its confirm stale."""
    page = client.get(f"/g/{game.edit_token}/agreements?" + query(
        "next", penalty=100)).get_data(as_text=True)
    st = store.Store(store.connect(app.config["DATABASE"]))
    st.add_deal(game.id, {"type": "redeal"})
    answer = client.post(f"/g/{game.edit_token}/agreements", data=confirm_fields(page))
    assert answer.status_code == 409
    assert [r["type"] for r in st.records(game.id)] == ["raspis", "play", "redeal"]
    st.db.close()


def test_a_forged_change_is_refused(client, game, app):
    """The changes must be those the digest was made for."""
    page = client.get(f"/g/{game.edit_token}/agreements?" + query(
        "next", penalty=100)).get_data(as_text=True)
    fields = confirm_fields(page)
    fields["changes"] = '{"penalty": 5}'
    assert client.post(f"/g/{game.edit_token}/agreements", data=fields).status_code == 400


def test_an_unchangeable_agreement_is_refused_mid_game(client, game):
    """The golden round cannot change from the next deal; the form says so by the field."""
    page = client.get(f"/g/{game.edit_token}/agreements?" + query(
        "next", golden=True)).get_data(as_text=True)
    assert 'id="confirm-button"' not in page and 'class="error"' in page


def test_from_the_start_is_a_revision_shown_in_history_and_undone(client, game, app):
    """The whole set changes and is replayed; the history lists it; undo puts it back."""
    before = scores(client, game.edit_token)
    page = client.get(f"/g/{game.edit_token}/agreements?" + query(
        "start", raspis_payout="sixty")).get_data(as_text=True)
    assert client.post(f"/g/{game.edit_token}/agreements",
                       data={**confirm_fields(page), "who": "Аня"}).status_code == 302
    st = store.Store(store.connect(app.config["DATABASE"]))
    assert st.stored(game.id).head["agreements"]["overrides"] == {"raspis_payout": "sixty"}
    assert len(st.records(game.id)) == 2  # no record: the set itself changed
    form = client.get(f"/g/{game.edit_token}/agreements?when=start").get_data(as_text=True)
    assert 'id="rule-history"' in form and "Аня" in form
    rev = re.search(r'id="undo-(\d+)"', form).group(1)
    answer = client.post(f"/g/{game.edit_token}/agreements/undo",
                         data={"csrf_token": csrf_of(form), "rev": rev,
                               "version": str(st.version(game.id))})
    assert answer.status_code == 302
    assert st.stored(game.id).head["agreements"]["overrides"] == {}
    assert [h["note"] for h in st.agreement_history(game.id)] == ["change", "undo"]
    assert re.findall(r'class="sc">([^<]+)', scores(client, game.edit_token)) == \
        re.findall(r'class="sc">([^<]+)', before)
    st.db.close()


@pytest.mark.parametrize("who, char", [("Бо\u202eря", "U+202E"), ("Аня\x00", "U+0000"),
                                       ("\x1b[31mАня", "U+001B")], ids=["RLO", "NUL", "ESC"])
def test_who_goes_through_the_text_rules(client, game, app, who, char):
    """«Who» took RLO, NUL and ESC (and a restore refuses them): refused, 422, naming the
    character; nothing stored."""
    page = client.get(f"/g/{game.edit_token}/agreements?" + query(
        "start", raspis_payout="sixty")).get_data(as_text=True)
    answer = client.post(f"/g/{game.edit_token}/agreements",
                         data={**confirm_fields(page), "who": who})
    assert answer.status_code == 422
    assert char in answer.get_data(as_text=True)
    st = store.Store(store.connect(app.config["DATABASE"]))
    try:
        assert st.agreement_history(game.id) == []
        assert "raspis_payout" not in json.dumps(st.stored(game.id).head)
    finally:
        st.db.close()


def test_from_the_start_is_refused_naming_the_first_refused_deal(client, game):
    """Concessions switched off: the first deal, a concession, is named; no confirm."""
    page = client.get(f"/g/{game.edit_token}/agreements?" + query(
        "start", raspis=False)).get_data(as_text=True)
    assert 'id="change-refused"' in page and 'id="confirm-button"' not in page
    refused = page[page.index('id="change-refused"'):][:400]
    assert "Кон 1" in refused  # the first refused deal, named


def test_an_agreements_row_is_edited_and_deleted_like_any_record(client, game, app):
    """Its ✎ opens this form for that record; delete removes it; the game replays."""
    st = store.Store(store.connect(app.config["DATABASE"]))
    st.add_deal(game.id, {"type": "agreements", "changes": {"penalty": 100}})
    slot = st.slots(game.id)[-1].id
    text = scores(client, game.edit_token)
    assert f"/agreements?slot={slot}" in text
    assert client.get(f"/g/{game.edit_token}/deal/{slot}").status_code == 302
    base = dict(resolve_agreements())
    page = client.get(f"/g/{game.edit_token}/agreements?slot={slot}&" + query(
        "next", base, penalty=150)).get_data(as_text=True)
    assert client.post(f"/g/{game.edit_token}/agreements",
                       data=confirm_fields(page)).status_code == 302
    assert st.records(game.id)[-1]["changes"] == {"penalty": 150}
    delete = page[page.index('id="delete-change"'):]
    assert client.post(f"/g/{game.edit_token}/deal/{slot}/delete", data={
        "csrf_token": csrf_of(page), "version": str(st.version(game.id))}).status_code == 302
    assert [r["type"] for r in st.records(game.id)] == ["raspis", "play"]
    assert delete
    st.db.close()


def test_export_carries_the_change_record(client, game, app):
    """The exported log is thousand-game/2 with the record in place."""
    st = store.Store(store.connect(app.config["DATABASE"]))
    st.add_deal(game.id, {"type": "agreements", "changes": {"penalty": 100}})
    st.db.close()
    log = json.loads(client.get(f"/g/{game.edit_token}/export.json").get_data())
    assert log["format"] == "thousand-game/2"
    assert log["deals"][-1] == {"type": "agreements", "changes": {"penalty": 100}}


def test_import_of_a_version_2_file_keeps_the_change_and_exports_it_back(client, app):
    """A /2 log imports through the web form, shows the row, and exports unchanged."""
    log = {**HEAD, "format": "thousand-game/2",
           "deals": [*DEALS, {"type": "agreements", "changes": {"penalty": 100}},
                     {"type": "redeal"}]}
    home = client.get("/").get_data(as_text=True)
    answer = client.post("/import", data={
        "csrf_token": csrf_of(home),
        "file": (io.BytesIO(json.dumps(log, ensure_ascii=False).encode()), "g.json")},
        content_type="multipart/form-data")
    assert answer.status_code == 302
    token = re.search(r"/g/([^/]+)", answer.headers["Location"]).group(1)
    assert "договорённости изменены" in scores(client, token)
    back = json.loads(client.get(f"/g/{token}/export.json").get_data())
    assert back["format"] == "thousand-game/2"
    assert back["deals"][2] == {"type": "agreements", "changes": {"penalty": 100}}
    wrong = {**log, "format": "thousand-game/1"}
    refused = client.post("/import", data={
        "csrf_token": csrf_of(home),
        "file": (io.BytesIO(json.dumps(wrong).encode()), "g.json")},
        content_type="multipart/form-data")
    assert refused.status_code == 422 and "thousand-game/2" in refused.get_data(as_text=True)


def test_a_change_record_opens_with_all_its_own_changes(client, game, app):
    """Editing a change record starts from every value it set, so saving one edit keeps
    the others (a form from the base alone would drop them)."""
    st = store.Store(store.connect(app.config["DATABASE"]))
    st.add_deal(game.id, {"type": "agreements",
                          "changes": {"penalty": 100, "raspis_payout": "sixty"}})
    slot = st.slots(game.id)[-1].id
    st.db.close()
    page = client.get(f"/g/{game.edit_token}/agreements?slot={slot}").get_data(as_text=True)
    assert re.search(r'name="ag_penalty" value="100"', page)
    assert re.search(r'<option value="sixty" selected>', page)


def test_a_confirm_is_bound_to_its_version(client, game, app):
    """A confirm shown at one version, its version field set to the game's new one after
    another deal, is refused as forged: the digest covers the version."""
    page = client.get(f"/g/{game.edit_token}/agreements?" + query(
        "next", penalty=100)).get_data(as_text=True)
    fields = confirm_fields(page)
    st = store.Store(store.connect(app.config["DATABASE"]))
    st.add_deal(game.id, {"type": "redeal"})
    fields["version"] = str(st.version(game.id))
    assert client.post(f"/g/{game.edit_token}/agreements", data=fields).status_code == 400
    assert [r["type"] for r in st.records(game.id)] == ["raspis", "play", "redeal"]
    st.db.close()


def test_import_names_the_earliest_bad_record(client):
    """RULES.md §10: deal 1 breaks max_contract, deal 2 is an unreadable change: the
    import form names deal 1 (a reader of the protocol looks there first), stores nothing."""
    log = {**HEAD, "format": "thousand-game/2",
           "agreements": {"preset": "classic", "overrides": {"max_contract": 120}},
           "deals": [{"type": "play", "declarer": 1, "contract": 125, "points": [20, 100, 0],
                      "marriages": {"1": ["hearts"]}},
                     {"type": "agreements", "changes": {"penalty": 4}}]}
    home = client.get("/").get_data(as_text=True)
    answer = client.post("/import", data={
        "csrf_token": csrf_of(home),
        "file": (io.BytesIO(json.dumps(log).encode()), "g.json")},
        content_type="multipart/form-data")
    text = html_lib.unescape(answer.get_data(as_text=True))
    assert answer.status_code == 422
    assert "кон 1" in text.lower() and "кон 2" not in text.lower()
    assert client.get("/").get_data(as_text=True).count("/g/") == 0


def test_the_comparison_says_the_logs_changes_apply_on_top(client, app):
    """RULES.md §11 «Comparing»: with a change record at deal 3, the «А если бы…» page
    says that change applies on top of the other set too, from the same deal."""
    row, st = stored(app, [*DEALS, {"type": "agreements", "changes": {"penalty": 100}}])
    st.db.close()
    page = client.get(f"/g/{row.edit_token}/compare?preset=polish").get_data(as_text=True)
    note = page[page.index('id="changes-on-top"'):][:400]
    assert "Правила меняли по ходу партии на коне № 3" in note
    plain = client.get(f"/g/{game_token(app)}/compare?preset=polish").get_data(as_text=True)
    assert 'id="changes-on-top"' not in plain  # a log without changes says nothing


def game_token(app) -> str:
    """The edit token of a fresh game without change records."""
    row, st = stored(app)
    st.db.close()
    return row.edit_token
