"""Leaks: a Content-Security-Policy with nonces for the few inline blocks, no tokens in the
logs, and no game number in an untitled download's file name."""

from __future__ import annotations

import logging
import re

from reliability_rig import Phone

from scorer.web import page_model


def every_page(app) -> tuple[Phone, list[str]]:
    """A phone with a game and one deal, and the paths of every HTML page it can open."""
    phone = Phone(app)
    game = phone.new_game()
    phone.deal(game, action="redeal")
    slot = phone.slot_ids(game)[0]
    view = phone.view_path(game)
    return phone, ["/", "/new", game, game + "/deal", f"{game}/deal/{slot}", game + "/share",
                   game + "/rules", view, view + "/rules", "/g/" + "x" * 32]


def test_every_page_has_a_csp_whose_nonce_is_on_every_inline_block(app):
    """Each page sends a CSP without 'unsafe-inline'; each inline <script> and <style>
    carries that response's nonce; there are no inline event handlers or style attributes."""
    phone, paths = every_page(app)
    nonces = set()
    for path in paths:
        r = phone.client.get(path)
        policy = r.headers["Content-Security-Policy"]
        assert "unsafe-inline" not in policy and "frame-ancestors 'none'" in policy
        nonce = re.search(r"script-src 'self' 'nonce-([\w-]+)'", policy).group(1)
        assert f"style-src 'self' 'nonce-{nonce}'" in policy
        nonces.add(nonce)
        html = r.get_data(as_text=True)
        for tag in re.findall(r"<(?:script|style)\b[^>]*>", html):
            if "src=" in tag:
                continue
            assert f'nonce="{nonce}"' in tag, (path, tag)
        assert not re.search(r"\son[a-z]+\s*=", html), path
        assert not re.search(r"<[^>]+\sstyle\s*=", html), path
    assert len(nonces) == len(paths)  # a fresh nonce per response


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
        assert "thousand-" in disposition
