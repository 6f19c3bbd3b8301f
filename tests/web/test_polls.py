"""A watcher's unchanged poll is answered before Flask, and only while nothing moved."""

from __future__ import annotations

from flask import request


def counted(app) -> list[str]:
    """The paths of the requests Flask itself handles from now on."""
    seen: list[str] = []
    app.before_request_funcs.setdefault(None, []).insert(
        0, lambda: seen.append(request.path) and None)
    return seen


def test_a_repeated_304_never_reaches_flask_until_a_deal(table, app):
    """The second identical poll is the middleware's; a deal sends the next to the app."""
    game = table.new_game()
    view = table.view_path(game)
    tag = table.client.get(view).headers["ETag"]
    first = table.client.get(view, headers={"If-None-Match": tag})
    assert first.status_code == 304  # the app's: noted
    seen = counted(app)
    again = table.client.get(view, headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.get_data() == b""
    assert seen == []
    assert again.headers["ETag"] == tag and again.headers["X-Poll-Seconds"]
    assert again.headers["Content-Security-Policy"] == first.headers["Content-Security-Policy"]
    table.deal(game, action="redeal")
    seen.clear()
    fresh = table.client.get(view, headers={"If-None-Match": tag})
    assert fresh.status_code == 200 and fresh.headers["ETag"] != tag
    assert seen == [view]


def test_other_headers_or_links_go_to_the_app(table, app):
    """Another language, another query or the edit link is the app's to answer."""
    game = table.new_game()
    view = table.view_path(game)
    tag = table.client.get(view).headers["ETag"]
    assert table.client.get(view, headers={"If-None-Match": tag}).status_code == 304
    seen = counted(app)
    other = table.client.get(view, headers={"If-None-Match": tag, "Accept-Language": "pl"})
    assert other.status_code in (200, 304) and seen == [view]
    seen.clear()
    table.client.set_cookie("lang", "en")
    assert table.client.get(view, headers={"If-None-Match": tag}).status_code == 200
    assert seen == [view]
    edit_tag = table.client.get(game).headers["ETag"]
    for _ in range(2):
        assert table.client.get(game, headers={"If-None-Match": edit_tag}).status_code == 304
    assert seen[-2:] == [game, game]


def test_a_deleted_game_s_watchers_get_the_app_s_404(table, app):
    """Deleting a game changes no version: the noted 304 must not outlive the game."""
    from scorer.web.db import get_store

    game = table.new_game()
    view = table.view_path(game)
    tag = table.client.get(view).headers["ETag"]
    assert table.client.get(view, headers={"If-None-Match": tag}).status_code == 304
    assert table.client.get(view, headers={"If-None-Match": tag}).status_code == 304
    with app.app_context():
        row, _edit = get_store().game_by_token(view.rsplit("/", 1)[-1])
        assert get_store().set_shelf(row.id, "delete")
    assert table.client.get(view, headers={"If-None-Match": tag}).status_code == 404
