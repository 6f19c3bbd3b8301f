"""Who sees what: host key, edit and view tokens, CSRF and the read-only refusal."""

import re

from webtable import Table


def test_games_list_without_key_or_token_shows_no_game(app, table):
    """A browser without a key or link sees no game on the list."""
    table.new_game()
    stranger = app.test_client()
    html = stranger.get("/").get_data(as_text=True)
    assert "/g/" not in html and "/v/" not in html
    assert "Аня" not in html


def test_browser_lists_only_games_it_holds(app, table):
    """Each browser lists only the games whose links it holds."""
    table.new_game(names=("Аня", "Борис"))
    other = Table(app.test_client())
    theirs = other.new_game(names=("Глеб", "Дина"))
    mine_html = table.client.get("/").get_data(as_text=True)
    theirs_html = other.client.get("/").get_data(as_text=True)
    assert "Аня" in mine_html and "Глеб" not in mine_html
    assert "Глеб" in theirs_html and "Аня" not in theirs_html
    assert theirs in theirs_html


def test_host_key_sees_every_game(app, table):
    """The host key opens every game to that browser."""
    table.new_game(names=("Аня", "Борис"))
    host = app.test_client()
    r = host.get(f"/?key={app.config['HOST_KEY']}")
    assert r.status_code == 302
    html = host.get("/").get_data(as_text=True)
    assert "Аня" in html and "/g/" in html


def test_wrong_host_key_is_refused(app, table):
    """A wrong host key grants nothing."""
    table.new_game()
    guest = app.test_client()
    guest.get("/?key=not-the-key")
    html = guest.get("/").get_data(as_text=True)
    assert "/g/" not in html


def test_tokens_are_long_and_distinct(table):
    """Edit and view tokens differ and carry at least 128 random bits."""
    game = table.new_game()
    edit = game.rsplit("/", 1)[1]
    view = table.view_path(game).rsplit("/", 1)[1]
    assert edit != view
    # token_urlsafe(24): 32 characters of base64, 192 random bits (at least 128 required).
    assert len(edit) >= 22 and len(view) >= 22


def test_post_without_csrf_token_is_400(table):
    """A post without the CSRF token is refused (400) and saves nothing."""
    game = table.new_game()
    r = table.client.post(game + "/deal", data={"action": "redeal"})
    assert r.status_code == 400
    assert table.slot_ids(game) == []


def test_view_link_refuses_every_post_with_403(table):
    """Every post through a read-only link is refused with 403, token or not."""
    game = table.new_game()
    view = table.view_path(game)
    token = table.token(game + "/deal")
    for path in (view, view + "/deal", view + "/rules", view + "/export.json", "/v/unknown"):
        for data in ({}, {"csrf_token": token, "action": "redeal"}):
            assert table.client.post(path, data=data).status_code == 403, path
    assert table.slot_ids(game) == []


def test_view_token_cannot_open_the_edit_pages(table):
    """A view token does not open any edit page (404)."""
    game = table.new_game()
    view_token = table.view_path(game).rsplit("/", 1)[1]
    for path in (f"/g/{view_token}", f"/g/{view_token}/deal", f"/g/{view_token}/share",
                 f"/g/{view_token}/preview?declarer=0&contract=100"):
        assert table.client.get(path).status_code == 404, path


def test_read_only_page_has_no_form(table):
    """The read-only page has no form and refreshes itself without script."""
    game = table.new_game()
    table.deal(game, action="redeal")
    html = table.client.get(table.view_path(game)).get_data(as_text=True)
    assert "<form" not in html
    assert "csrf_token" not in html
    assert 'http-equiv="refresh"' in html


def test_edit_token_on_view_url_redirects_to_view_token(table):
    """An edit token on a view URL redirects to the view link."""
    game = table.new_game()
    edit_token = game.rsplit("/", 1)[1]
    r = table.client.get(f"/v/{edit_token}")
    assert r.status_code == 302
    assert r.headers["Location"] == table.view_path(game)


def test_unknown_token_is_404(client):
    """Unknown tokens answer 404 on both kinds of link."""
    assert client.get("/g/nope").status_code == 404
    assert client.get("/v/nope").status_code == 404


def test_view_link_is_remembered_as_view_only(app, table):
    """A browser that opened a view link lists it as view-only."""
    game = table.new_game(names=("Аня", "Борис"))
    view = table.view_path(game)
    friend = app.test_client()
    friend.get(view)
    html = friend.get("/").get_data(as_text=True)
    assert view in html
    assert "/g/" not in html
    assert re.search("только просмотр", html)


def test_pages_do_not_leak_tokens_as_referer(table):
    """Pages send no Referer and cannot be framed."""
    game = table.new_game()
    for path in ("/", game, table.view_path(game)):
        r = table.client.get(path)
        assert r.headers["Referrer-Policy"] == "no-referrer"
        assert r.headers["X-Frame-Options"] == "DENY"
