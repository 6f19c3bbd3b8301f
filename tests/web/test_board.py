"""The board for the room (/v/<read-only token>/board): the read-only page drawn for a TV,
with the same ETags, no edit token on it, and the read-only link's QR code."""

from __future__ import annotations

import io
import re

import segno

from scorer import store


def test_the_board_shows_the_game_and_answers_304_until_it_changes(table, app):
    """Totals, who deals and is on 100, the last five deals (of seven), the chart; an
    unchanged game is a 304 on its ETag, a new deal a 200 with the new total."""
    game = table.new_game()
    for _ in range(7):
        table.deal(game, declarer="0", contract="100", points_0="100", points_1="10",
                   points_2="10")
    board = table.view_path(game) + "/board"
    first = table.client.get(board)
    assert first.status_code == 200
    html = first.get_data(as_text=True)
    assert re.findall(r'id="board-row-(\d+)"', html) == ["7", "6", "5", "4", "3"]
    assert 'id="board-chart"' in html and "<svg" in html
    assert 'class="badge dealer"' in html and 'class="badge hundred"' in html
    assert 'http-equiv="refresh"' in html and 'data-poll=' in html
    assert "/g/" not in html  # no edit link on a screen the room sees
    tag = first.headers["ETag"]
    assert table.client.get(board, headers={"If-None-Match": tag}).status_code == 304
    table.deal(game, declarer="1", contract="100", points_0="10", points_1="100",
               points_2="10")
    again = table.client.get(board, headers={"If-None-Match": tag})
    assert again.status_code == 200 and 'id="board-row-8"' in again.get_data(as_text=True)


def test_an_edit_token_is_sent_to_the_read_only_board_and_strangers_get_404(table):
    """The board never shows under an edit token; an unknown token is the usual 404."""
    game = table.new_game()
    edit_token = game.rsplit("/", 1)[1]
    r = table.client.get(f"/v/{edit_token}/board")
    assert r.status_code == 302 and edit_token not in r.headers["Location"]
    assert r.headers["Location"].endswith(table.view_path(game) + "/board")
    assert table.client.get("/v/" + "x" * 32 + "/board").status_code == 404


def test_the_qr_code_holds_the_read_only_link_of_the_address_asked(table, app):
    """The QR image is the read-only URL as the board's browser reached the server."""
    game = table.new_game()
    view = table.view_path(game)
    got = table.client.get(view + "/board/qr.svg", base_url="http://192.168.1.20:8000")
    assert got.status_code == 200 and got.mimetype == "image/svg+xml"
    out = io.BytesIO()
    segno.make(f"http://192.168.1.20:8000{view}", error="m").save(
        out, kind="svg", scale=5, border=2, xmldecl=False, svgns=True, dark="#000",
        light="#fff")
    assert got.get_data() == out.getvalue()
    db = store.connect(app.config["DATABASE"])
    assert db.execute("select count(*) from games").fetchone()[0] == 1


def test_a_watched_board_is_rendered_ahead_as_a_board(table, app):
    """After a deal the scorekeeper's page renders the watched pages ahead: a TV's board
    gets its board kept, never the read-only page under the board's address."""
    game = table.new_game()
    table.deal(game, declarer="0", contract="100", points_0="100", points_1="10", points_2="10")
    board = table.view_path(game) + "/board"
    tv = app.test_client()
    tag = tv.get(board).headers["ETag"]
    table.deal(game, action="redeal")
    table.client.get(game).close()  # a server closes each answer once it is sent: ahead
    polled = tv.get(board, headers={"If-None-Match": tag})
    html = polled.get_data(as_text=True)
    assert polled.status_code == 200 and 'id="board-totals"' in html
    assert 'id="board-row-2"' in html and 'id="protocol"' not in html
