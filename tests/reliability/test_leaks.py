"""Leaks: a Content-Security-Policy that allows no inline code, no tokens in the logs,
and no game number in an untitled download's file name."""

from __future__ import annotations

import logging
import re

from reliability_rig import Phone

from scorer.web.game import page_model


def every_page(app) -> tuple[Phone, list[str]]:
    """A phone with a game and one deal, and the paths of every HTML page it can open."""
    phone = Phone(app)
    game = phone.new_game()
    phone.deal(game, action="redeal")
    slot = phone.slot_ids(game)[0]
    view = phone.view_path(game)
    return phone, ["/", "/new", game, game + "/deal", f"{game}/deal/{slot}", game + "/share",
                   game + "/rules", view, view + "/rules", "/g/" + "x" * 32]


def test_every_page_has_a_csp_that_allows_no_inline_code(app):
    """Each page sends a CSP allowing scripts and styles from the app itself only (no
    'unsafe-inline', no nonce, no hash); a page, in a fresh browser or not, has no inline
    code, no inline event handler, no style attribute."""
    phone, paths = every_page(app)
    for path, fresh in ((p, f) for p in paths for f in (False, True)):
        client = app.test_client() if fresh else phone.client
        r = client.get(path)
        policy = r.headers["Content-Security-Policy"]
        assert "script-src 'self';" in policy and "style-src 'self';" in policy, policy
        assert "unsafe-inline" not in policy and "nonce" not in policy
        assert "sha256" not in policy and "frame-ancestors 'none'" in policy
        html = r.get_data(as_text=True)
        assert not re.findall(r"<(script|style)>(.*?)</\1>", html, re.S), path
        assert len(re.findall(r"<(?:script|style)\b[^>]*>", html)) == len(
            re.findall(r"<script\b[^>]*\ssrc=", html)), path
        assert not re.search(r"\son[a-z]+\s*=", html), path
        assert not re.search(r"<[^>]+\sstyle\s*=", html), path


def test_an_exception_log_does_not_carry_the_token(app, monkeypatch, caplog):
    """'Exception on /g/<token>' is logged with the token cut out, traceback included."""
    phone = Phone(app)
    game = phone.new_game()
    token = game.rsplit("/", 1)[1]

    def broken(*_args, **_kwargs):
        """Fail the way a bug would, with the path in the message."""
        raise RuntimeError(f"boom while showing {game}")

    monkeypatch.setattr(page_model, "context", broken)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    with caplog.at_level(logging.ERROR):
        assert phone.client.get(game).status_code == 500
    logged = "\n".join(caplog.text.splitlines())
    assert "Exception on /g/" in logged and "boom while showing" in logged
    assert token not in logged
    for record in caplog.records:
        assert token not in record.getMessage() and token not in (record.exc_text or "")


def test_an_untitled_download_is_not_named_after_the_game_number(app):
    """The JSON and PDF of an untitled game are named by date, not game-<id>."""
    phone = Phone(app)
    for _ in range(3):
        game = phone.new_game()
    for path in ("/export.json", "/sheet.pdf"):
        disposition = phone.client.get(game + path).headers["Content-Disposition"]
        assert "game-3" not in disposition and not re.search(r"game-\d", disposition)
        # Named by the game's own word and its date (the ASCII fallback romanised).
        assert re.search(r'filename="tysyacha-\d{4}-\d\d-\d\d\.', disposition), disposition
