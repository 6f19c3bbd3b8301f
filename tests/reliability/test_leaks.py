"""Leaks: a Content-Security-Policy that allows no inline code but the first visit's
stylesheet and html.js marker (by the hash of their exact text), no tokens in the logs,
and no game number in an untitled download's file name."""

from __future__ import annotations

import base64
import hashlib
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


def sha256(text: str) -> str:
    """The CSP source naming one inline element of exactly this text."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_every_page_has_a_csp_that_allows_no_inline_code(app):
    """Each page sends a CSP allowing scripts and styles from the app itself and one inline
    <style> and <script> each by hash (no 'unsafe-inline', no nonce); a page, on a first
    visit or not, has no other inline code, no inline event handler, no style attribute."""
    phone, paths = every_page(app)
    for path, first in ((p, f) for p in paths for f in (False, True)):
        if first:
            phone.client.delete_cookie("assets")
        r = phone.client.get(path)
        policy = r.headers["Content-Security-Policy"]
        scripts = re.search(r"script-src 'self'( '[^']+')*;", policy)
        styles = re.search(r"style-src 'self'( '[^']+')*;", policy)
        assert scripts and styles, policy
        assert "unsafe-inline" not in policy and "nonce" not in policy
        assert "frame-ancestors 'none'" in policy
        html = r.get_data(as_text=True)
        inline = re.findall(r"<(script|style)>(.*?)</\1>", html, re.S)
        inlined = first and r.status_code == 200  # an error page links the files
        assert [kind for kind, _text in inline] == (["style", "script"] if inlined else [])
        for kind, text in inline:  # exactly the text the policy's hash allows
            assert f"{kind}-src 'self' {sha256(text)};" in policy, (path, kind)
        assert len(re.findall(r"<(?:script|style)\b[^>]*>", html)) == len(inline) + len(
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
