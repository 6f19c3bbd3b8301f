"""Seat colours come from app.css, so the game's pages carry no inline style (a CSP forbids it)."""

from __future__ import annotations

import pytest
from phone_browser import PHONE
from test_small_screen import long_game, open_game, sized

from scorer.chart import PLAYER_COLOURS

pytestmark = pytest.mark.browser

INLINE = """[document.querySelectorAll('style').length,
             document.querySelectorAll('[style]').length]"""
COLOURS = """[...document.querySelectorAll('#protocol thead th.pc')]
  .map(th => getComputedStyle(th).color)"""


def rgb(hex_colour: str) -> str:
    """A #rrggbb colour as getComputedStyle writes it."""
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


def test_seat_colours_without_inline_style(browser, live_server):
    """The game page, the deal form and a why page: no <style>, no style=, seats coloured."""
    ctx, page = sized(browser, PHONE)
    try:
        game = open_game(page, live_server, long_game())
        assert page.evaluate(COLOURS) == [rgb(c) for c in PLAYER_COLOURS]
        assert page.evaluate(INLINE) == [0, 0]
        for path in ("/deal", "/why/3"):
            page.goto(game + path)
            assert page.evaluate(INLINE) == [0, 0], path
            seat = page.locator(".pc.p1").first.evaluate("e => getComputedStyle(e).color")
            assert seat == rgb(PLAYER_COLOURS[1]), path
    finally:
        ctx.close()
