"""One deal limit, the engine's: the 2000th deal is taken and the 2001st refused by the
engine, the store, the deal form, the web import and the command line's import, each
through the engine's ``check_deal_count`` (one line or one error on top; nothing stored).

Redeals keep it fast: they are the cheapest records to store and replay."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys

import pytest
from reliability_rig import HEAD, Phone, csrf_of

from scorer import store
from scorer.cli import backup
from scorer.engine import MAX_DEALS, RuleError, Timeline, check_deal_count, parse_game, records

REDEAL = {"type": "redeal"}
REFUSAL = "game: deals: at most 2000 deals per game"
REFUSAL_RU = "Игра: не больше 2000 конов за игру"


def log(deals: int) -> dict:
    """A game log of that many redeals."""
    return {**HEAD, "deals": [REDEAL] * deals}


def stored_game(app, deals: int) -> store.GameRow:
    """A game of that many redeals written straight into the app's database."""
    db = store.connect(app.config["DATABASE"])
    try:
        return store.Store(db).create_game(HEAD, [REDEAL] * deals)
    finally:
        db.close()


def counts(path) -> tuple[int, int]:
    """(games, deal slots) in a database file."""
    db = store.connect(path)
    try:
        return (db.execute("select count(*) from games").fetchone()[0],
                db.execute("select count(*) from deals").fetchone()[0])
    finally:
        db.close()


def errors(response) -> list[str]:
    """The refusal texts on a page: beside a field or in the summary on top."""
    return [re.sub(r"<[^>]+>", "", e) for e in re.findall(
        r'<(?:p|li) class="error[^"]*"[^>]*>(.*?)</(?:p|li)>', response.get_data(as_text=True))]


def test_the_limit_is_2000_deals():
    """MAX_DEALS is 2000, and the engine's check takes 2000 and refuses 2001 in one line."""
    assert MAX_DEALS == 2000
    check_deal_count(MAX_DEALS)
    with pytest.raises(RuleError) as refused:
        check_deal_count(MAX_DEALS + 1)
    assert (refused.value.rule, refused.value.deal) == ("deals.limit", None)
    assert str(refused.value) == REFUSAL


def test_the_engine_takes_the_2000th_deal_and_refuses_the_2001st():
    """A log of 2000 deals is read, of 2001 refused; a Timeline of 1999 takes one more
    deal, and then no more (appended or restored in front)."""
    assert len(parse_game(log(MAX_DEALS)).deals) == MAX_DEALS
    with pytest.raises(RuleError, match="at most 2000 deals"):
        parse_game(log(MAX_DEALS + 1))
    full = Timeline.of(parse_game(log(MAX_DEALS - 1))).append(REDEAL)
    assert len(full.game.deals) == MAX_DEALS
    for grow in (lambda: full.append(REDEAL), lambda: full.insert(0, REDEAL)):
        with pytest.raises(RuleError) as refused:
            grow()
        assert str(refused.value) == REFUSAL


def test_the_store_takes_the_2000th_deal_and_refuses_the_2001st(app):
    """add_deal makes 1999 deals 2000, then refuses; a restore into a full game and a
    2001-deal game are refused too, and nothing of them is written."""
    game = stored_game(app, MAX_DEALS - 1)
    path = app.config["DATABASE"]
    db = store.connect(path)
    try:
        st = store.Store(db)
        st.add_deal(game.id, REDEAL)
        assert len(st.records(game.id)) == MAX_DEALS
        before = counts(path)
        with pytest.raises(RuleError) as refused, st.writing():
            st.add_deal(game.id, REDEAL)
        assert str(refused.value) == REFUSAL and counts(path) == before
        st.revise_deal(game.id, 1, None, "delete")
        st.add_deal(game.id, REDEAL)  # 1999 live deals and one deleted: room for one
        with pytest.raises(RuleError, match="at most 2000"), st.writing():
            st.revise_deal(game.id, 1, REDEAL, "restore")
        assert len(st.records(game.id)) == MAX_DEALS and st.history_length(game.id, 1) == 2
        before = counts(path)
        with pytest.raises(RuleError, match="at most 2000"):
            st.create_game(HEAD, [REDEAL] * (MAX_DEALS + 1))
        assert counts(path) == before
    finally:
        db.close()


def test_the_store_has_no_limit_of_its_own(app, monkeypatch):
    """The store refuses where the engine's limit says, not where a copy of it would."""
    monkeypatch.setattr(records, "MAX_DEALS", 3)
    game = stored_game(app, 3)
    db = store.connect(app.config["DATABASE"])
    try:
        with pytest.raises(RuleError) as refused:
            store.Store(db).add_deal(game.id, REDEAL)
        assert refused.value.params == {"max": 3}
    finally:
        db.close()


def test_the_deal_form_takes_the_2000th_deal_and_refuses_the_2001st(app):
    """1999 deals: the form saves one more; the next is refused on top, in one line, and
    the game is as it was."""
    phone = Phone(app)
    game = f"/g/{stored_game(app, MAX_DEALS - 1).edit_token}"
    assert phone.deal(game, action="redeal").status_code == 302
    before = phone.client.get(game + "/export.json").get_json()
    assert len(before["deals"]) == MAX_DEALS
    r = phone.deal(game, expect=422, action="redeal")
    assert errors(r) == [REFUSAL_RU]
    assert phone.client.get(game + "/export.json").get_json() == before


def test_the_web_import_takes_2000_deals_and_refuses_2001(app):
    """A file of 2000 deals is imported; one of 2001 is refused in one line, storing nothing."""
    phone = Phone(app)

    def upload(deals: int):
        """POST a game file of that many redeals to the import form."""
        token = csrf_of(phone.client.get("/").get_data(as_text=True))
        raw = json.dumps(log(deals)).encode()
        return phone.client.post("/import", data={"csrf_token": token,
                                                  "file": (io.BytesIO(raw), "g.json")})

    assert upload(MAX_DEALS).status_code == 302
    before = counts(app.config["DATABASE"])
    r = upload(MAX_DEALS + 1)
    assert r.status_code == 422
    assert errors(r) == ["игра: deals: не больше 2000 конов за игру"]
    assert counts(app.config["DATABASE"]) == before


def test_the_cli_import_takes_2000_deals_and_refuses_2001(tmp_path):
    """`import` adds a 2000-deal file; a 2001-deal one is one line, exit 2, nothing added."""
    for deals, name in ((MAX_DEALS, "full.json"), (MAX_DEALS + 1, "big.json")):
        (tmp_path / name).write_text(json.dumps(log(deals)), encoding="utf-8")

    def run(name: str) -> subprocess.CompletedProcess:
        """`python -m scorer import NAME` into tmp_path/i, in English."""
        return subprocess.run([sys.executable, "-m", "scorer", "import", str(tmp_path / name),
                               "--instance", str(tmp_path / "i"), "--lang", "en"],
                              capture_output=True, text=True, timeout=120)

    done = run("full.json")
    assert done.returncode == 0, done.stderr
    before = counts(tmp_path / "i" / "scorer.sqlite")
    assert before == (1, MAX_DEALS)
    done = run("big.json")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [f"import: big.json: {REFUSAL}"]
    assert counts(tmp_path / "i" / "scorer.sqlite") == before


def test_the_cli_words_the_stores_refusal_in_one_line(capsys):
    """Should the store refuse the 2001st deal itself, the command line says the engine's
    line, once, and exits 2."""
    with pytest.raises(RuleError) as refused:
        check_deal_count(MAX_DEALS + 1)
    assert backup.fail("import", refused.value, "ru") == 2
    assert capsys.readouterr().err == "import: игра: deals: не больше 2000 конов за игру\n"
