"""The access model under attack: token strength, view links that cannot write, games
that cannot be found without their token, CSRF on every form, inert HTML and JS in
names, notes and imported files, and a request size limit."""

from __future__ import annotations

import base64
import io
import json
import re
import secrets

import pytest
from reliability_rig import Phone, csrf_of
from url_rules import rule_paths

from scorer import store
from scorer.web import app as web_app

SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
TITLE = f"{SCRIPT} {IMG}"


def token_of(path: str) -> str:
    """The token at the end of a game path."""
    return path.rstrip("/").rsplit("/", 1)[1]


def db_store(app) -> store.Store:
    """A Store on the app's database (close its db when done)."""
    return store.Store(store.connect(app.config["DATABASE"]))


# -- tokens ------------------------------------------------------------------


def test_tokens_come_from_secrets_with_at_least_128_bits(app, monkeypatch):
    """Game tokens are made by secrets.token_urlsafe with at least 16 bytes."""
    calls = []
    real = secrets.token_urlsafe

    def spy(nbytes=None):
        """Note the size asked for, then make the token."""
        calls.append(nbytes)
        return real(nbytes)

    monkeypatch.setattr(store.secrets, "token_urlsafe", spy)
    game = Phone(app).new_game()
    assert len(calls) == 2 and all(n is not None and n * 8 >= 128 for n in calls)
    st = db_store(app)
    try:
        row = st.game_by_edit_token(token_of(game))
    finally:
        st.db.close()
    for token in (row.edit_token, row.view_token):
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        assert len(raw) * 8 >= 128


def test_many_tokens_are_distinct_urlsafe_and_192_bits(tmp_path):
    """Many games' tokens are distinct, URL-safe and 192 bits each."""
    db = store.connect(tmp_path / "t.sqlite")
    store.migrate(db)
    st = store.Store(db)
    head = {"format": "thousand-game/1", "players": ["A", "B"],
            "agreements": {"preset": "two-players", "overrides": {}}, "first_dealer": 0}
    rows = st.create_games([(head, [])] * 300)
    db.close()
    tokens = [t for r in rows for t in (r.edit_token, r.view_token)]
    assert len(set(tokens)) == 600
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{32}", t) for t in tokens)  # 24 bytes = 192 bits
    # No byte position is stuck: a counter or a clock would show up here.
    raws = [base64.urlsafe_b64decode(t) for t in tokens]
    for i in range(24):
        assert len({r[i] for r in raws}) > 100


def test_host_and_secret_keys_are_random_and_long(tmp_path, monkeypatch):
    """The host and secret keys of a new instance are random and at least 128 bits."""
    monkeypatch.setenv("SCORER_INSTANCE", str(tmp_path / "fresh"))
    app = web_app.create_app()
    host = app.config["HOST_KEY"]
    assert len(base64.urlsafe_b64decode(host + "=" * (-len(host) % 4))) * 8 >= 128
    assert len(bytes.fromhex(app.config["SECRET_KEY"])) * 8 >= 256


# -- read-only links ---------------------------------------------------------


def test_view_link_cannot_post_anything(app):
    """No route accepts a post through a view link."""
    phone = Phone(app)
    game = phone.new_game()
    view = token_of(phone.view_path(game))
    form = phone.form(game + "/deal")
    paths = {path.replace("<token>", view).replace("<int:slot_id>", "1")
             .replace("<path:filename>", "app.css")
             for path, _rule in rule_paths(app) if path.startswith("/v/")}
    paths |= {f"/v/{view}/deal", f"/v/{view}/deal/1/delete", f"/v/{token_of(game)}/deal"}
    for path in sorted(paths):
        for data in ({}, {**form, "action": "redeal"}):
            assert phone.client.post(path, data=data).status_code == 403, path
    assert phone.client.get(game).get_data(as_text=True).count('class="n"') == 0


# -- existence ---------------------------------------------------------------


def game_with_deal(app, deals: int = 1) -> tuple[Phone, str, str, int]:
    """A game with some redeals: (phone, edit path, view token, the newest deal's slot)."""
    phone = Phone(app)
    game = phone.new_game()
    for _ in range(deals):
        r = phone.client.post(game + "/deal", data={**phone.form(game + "/deal"),
                                                    "action": "redeal"})
        assert r.status_code == 302
    html = phone.client.get(game).get_data(as_text=True)
    slot = max(int(n) for n in re.findall(re.escape(game) + r"/deal/(\d+)\"", html))
    return phone, game, token_of(phone.view_path(game)), slot


def same_answer(a, b, token_a: str, token_b: str) -> bool:
    """Two responses that say the same thing (the tokens in them aside)."""
    body_a = a.get_data(as_text=True).replace(token_a, "T")
    body_b = b.get_data(as_text=True).replace(token_b, "T")
    return (a.status_code, body_a, a.headers.get("Content-Type")) == (
        b.status_code, body_b, b.headers.get("Content-Type"))


def test_unknown_and_not_yours_look_the_same_everywhere(app):
    """An unknown token and another game's deal answer the same 404 everywhere."""
    _owner, game, view, slot = game_with_deal(app, deals=2)
    edit = token_of(game)
    stranger = app.test_client()
    made_up = secrets.token_urlsafe(24)
    # A second game with one deal of its own: its token with the first game's second deal
    # is "not yours", and must answer exactly as a slot that does not exist at all.
    _other, second, _second_view, own_slot = game_with_deal(app)
    mine = token_of(second)
    missing = own_slot + slot + 1000
    checked = 0
    for pattern, rule in rule_paths(app):
        if "token" not in rule.arguments or "GET" not in rule.methods:
            continue
        path = pattern.replace("<int:slot_id>", str(slot))
        query = "?declarer=0&contract=100&points_1=10&points_2=10"
        if pattern.startswith("/g/"):
            # A view token opens no edit page: exactly as if it did not exist.
            a = stranger.get(path.replace("<token>", view) + query)
            b = stranger.get(path.replace("<token>", made_up) + query)
            assert a.status_code == 404 and same_answer(a, b, view, made_up), pattern
        if "slot_id" in rule.arguments:
            # Another game's deal through this game's link: the same 404 as no deal at all.
            mine_path = pattern.replace("<token>", mine)
            a = stranger.get(mine_path.replace("<int:slot_id>", str(slot)) + query)
            b = stranger.get(mine_path.replace("<int:slot_id>", str(missing)) + query)
            assert a.status_code == 404 and same_answer(
                a, b, f"/deal/{slot}", f"/deal/{missing}"), pattern
        else:
            a = stranger.get(path.replace("<token>", made_up) + query)
            assert a.status_code == 404, pattern
        checked += 1
    assert checked >= 12
    # Slot ids of a game are no handle on it either.
    other = Phone(app)
    mine = other.new_game(names=("Глеб", "Дина"))
    form = other.form(mine + "/deal")
    for suffix in (f"/deal/{slot}", f"/deal/{slot}/delete", f"/deal/{slot}/restore"):
        assert other.client.post(mine + suffix, data=form).status_code == 404
    # Writes with a view token or a made-up one: the same 404 (after CSRF passes).
    for token in (view, made_up):
        r = other.client.post(f"/g/{token}/deal", data={**form, "action": "redeal"})
        assert r.status_code == 404
    assert edit not in stranger.get("/").get_data(as_text=True)


def test_games_list_of_a_stranger_is_the_same_with_or_without_games(app):
    """A stranger's games list is the same whether games exist or not."""
    def bare_list(client) -> str:
        """The games list without its per-session CSRF token."""
        html = client.get("/").get_data(as_text=True)
        return re.sub(r'name="csrf_token" type="hidden" value="[^"]+"', "", html)

    before = bare_list(app.test_client())
    game_with_deal(app)
    Phone(app).new_game(names=("Глеб", "Дина"))
    assert bare_list(app.test_client()) == before
    wrong = app.test_client()
    wrong.get("/?key=" + secrets.token_urlsafe(24))
    assert "/g/" not in wrong.get("/").get_data(as_text=True)


# -- CSRF --------------------------------------------------------------------


def post_routes(app) -> list:
    """Every POST route of the app."""
    return [r for r in app.url_map.iter_rules() if "POST" in r.methods]


def test_every_post_route_needs_the_csrf_token(app):
    """Every post route refuses a post without the CSRF token."""
    phone, game, _view, slot = game_with_deal(app)
    edit = token_of(game)
    form = phone.form(game + "/deal")
    routes = post_routes(app)
    assert {r.endpoint for r in routes} >= {"games.new_game", "games.import_game",
                                            "game.new_deal", "game.edit_deal",
                                            "game.delete_deal", "game.restore_deal"}
    st = db_store(app)
    try:
        before = (st.slots(1), st.version(1), len(st.games(None)))
    finally:
        st.db.close()
    other_session = Phone(app).form(game + "/deal")["csrf_token"]
    for rule in routes:
        path = rule.rule.replace("<token>", edit).replace("<int:slot_id>", str(slot))
        fields = {"version": form["version"], "action": "redeal", "name0": "A",
                  "name1": "B", "first_dealer": "0"}
        for data in (fields, {**fields, "csrf_token": "forged"},
                     {**fields, "csrf_token": other_session}):
            r = phone.client.post(path, data=data)
            assert r.status_code == 400, (rule.rule, data.get("csrf_token"))
    st = db_store(app)
    try:
        assert (st.slots(1), st.version(1), len(st.games(None))) == before
    finally:
        st.db.close()


def test_every_form_on_every_page_carries_the_csrf_token(app):
    """Every form on every page carries the CSRF token."""
    phone, game, _view, slot = game_with_deal(app)
    phone.client.post(f"{game}/deal/{slot}/delete", data=phone.form(game + "/deal"))
    pages = ["/", "/new", game, game + "/deal"]
    for path in pages:
        html = phone.client.get(path).get_data(as_text=True)
        forms = re.findall(r"<form\b.*?</form>", html, flags=re.S)
        posts = [f for f in forms if 'method="post"' in f]
        assert posts or path == "/new", path
        for f in posts:
            assert 'name="csrf_token"' in f, (path, f[:200])


# -- inert HTML and JS -------------------------------------------------------


def assert_inert(html: str, where: str, shown: bool = True) -> None:
    """No live tag from the payloads (and, where names are shown, their escaped text)."""
    assert "<script>alert" not in html, where
    assert "<img src=x" not in html, where
    assert "onerror=alert(1)>" not in html, where
    if shown:
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, where


def hostile_game(app) -> tuple[Phone, str]:
    """A game whose players and title are the attack strings, with a deal."""
    phone = Phone(app)
    game = phone.new_game(names=(SCRIPT, IMG, "Вика"), title=TITLE)
    r = phone.client.post(game + "/deal", data={
        **phone.form(game + "/deal"), "action": "play", "declarer": "1", "contract": "100",
        "points_0": "10", "points_2": "10"})
    assert r.status_code == 302
    return phone, game


def test_names_and_titles_are_shown_inert_on_every_page(app):
    """Names and titles with markup are shown as text on every page."""
    phone, game = hostile_game(app)
    html = phone.client.get(game).get_data(as_text=True)
    slot = re.search(re.escape(game) + r"/deal/(\d+)\"", html).group(1)
    view = phone.view_path(game)
    host = app.test_client()
    host.get(f"/?key={app.config['HOST_KEY']}")
    pages = {
        "game page": phone.client.get(game),
        "games list": phone.client.get("/"),
        "games list (host)": host.get("/"),
        "deal form": phone.client.get(game + "/deal"),
        "edit form": phone.client.get(f"{game}/deal/{slot}"),
        "rules sheet": phone.client.get(game + "/rules"),
        "read-only page": phone.client.get(view),
        "read-only rules": phone.client.get(view + "/rules"),
        "share page": phone.client.get(game + "/share"),
        "new game (names offered)": phone.client.get("/new"),
    }
    for where, r in pages.items():
        assert r.status_code == 200, where
        assert_inert(r.get_data(as_text=True), where,
                     shown="rules" not in where and "share" not in where)
    # A refusal page (a stale form) shows the fresh protocol: inert too.
    stale = phone.client.post(game + "/deal", data={
        "csrf_token": csrf_of(pages["deal form"].get_data(as_text=True)), "version": "1",
        "action": "redeal"})
    assert stale.status_code == 409
    assert_inert(stale.get_data(as_text=True), "stale refusal")
    # JSON answers are JSON (never sniffed as HTML).
    for path in (game + "/preview?declarer=1&contract=100&points_0=10&points_2=10",
                 game + "/export.json"):
        r = phone.client.get(path)
        assert r.mimetype == "application/json"
        assert r.headers["X-Content-Type-Options"] == "nosniff"


def test_the_pdf_sheet_shows_the_names_as_text(app):
    """Names with markup are printed as text on the PDF sheet."""
    from pypdf import PdfReader

    from scorer.engine import parse_game
    from scorer.sheet import sheet_html

    phone, game = hostile_game(app)
    log = phone.client.get(game + "/export.json").get_json()
    log["notes"] = f"{SCRIPT} {IMG}"
    log["place"] = IMG
    assert_inert(sheet_html(parse_game(log)), "PDF sheet html")
    pdf = phone.client.get(game + "/sheet.pdf")
    assert pdf.status_code == 200
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages)
    assert "alert(1)" in text  # printed as plain text, not run


def test_imported_json_is_shown_inert(app):
    """Markup inside an imported log is shown as text."""
    phone = Phone(app)
    log = {"format": "thousand-game/1", "title": TITLE, "notes": TITLE, "place": IMG,
           "players": [SCRIPT, IMG, "Вика"],
           "agreements": {"preset": "classic", "overrides": {}}, "first_dealer": 0,
           "deals": [{"type": "redeal"}]}
    html = phone.client.get("/").get_data(as_text=True)
    r = phone.client.post("/import", data={
        "csrf_token": csrf_of(html),
        "file": (io.BytesIO(json.dumps(log).encode()), "x.json")})
    assert r.status_code == 302
    game = r.headers["Location"]
    for path in (game, "/", game + "/rules", game + "/deal"):
        assert_inert(phone.client.get(path).get_data(as_text=True), path,
                     shown=not path.endswith("/rules"))
    # A bad file's error message quotes the file: inert too.
    bad = dict(log, players=[SCRIPT, SCRIPT])
    r = phone.client.post("/import", data={
        "csrf_token": csrf_of(html),
        "file": (io.BytesIO(json.dumps(bad).encode()), "x.json")})
    assert r.status_code == 422
    assert "<script>alert" not in r.get_data(as_text=True)


# -- size ----------------------------------------------------------------------


@pytest.mark.parametrize("where", ["import", "deal"])
def test_requests_over_the_size_limit_are_refused_with_413(app, where):
    """Posts over the size limit are refused with 413 and change nothing."""
    phone, game, _view, _slot = game_with_deal(app)
    big = b"x" * (web_app.MAX_CONTENT_LENGTH + 1)
    st = db_store(app)
    try:
        before = (st.slots(1), len(st.games(None)))
    finally:
        st.db.close()
    if where == "import":
        html = phone.client.get("/").get_data(as_text=True)
        r = phone.client.post("/import", data={"csrf_token": csrf_of(html),
                                               "file": (io.BytesIO(big), "big.json")})
    else:
        r = phone.client.post(game + "/deal", data={**phone.form(game + "/deal"),
                                                    "action": "redeal", "pad": big.decode()})
    assert r.status_code == 413
    assert "Слишком много данных" in r.get_data(as_text=True)
    st = db_store(app)
    try:
        assert (st.slots(1), len(st.games(None))) == before
    finally:
        st.db.close()


def test_deal_links_count_only_their_own_game(app):
    """Deal links are numbered within their game: they do not tell how many deals the
    server holds (the database's row ids never leave the store)."""
    slots = [game_with_deal(app, deals=n)[3] for n in (3, 1, 2)]
    assert slots == [3, 1, 2]

