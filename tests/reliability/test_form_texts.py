"""The new-game form shares the engine's text rules: its caps are the engine's constants,
and invisible, unreadable or look-alike names are refused beside the field."""

from __future__ import annotations

import re

import pytest
from reliability_rig import Phone
from test_limits import errors, game_count, new_game

from scorer.engine import MAX_NAME, MAX_TITLE


def test_the_form_caps_are_the_engines():
    """maxlength of the name and title inputs come from the engine."""
    from scorer import create_app

    app = create_app({"TESTING": True, "SECRET_KEY": "s", "HOST_KEY": "h",
                      "WTF_CSRF_ENABLED": False})
    html = Phone(app).client.get("/new").get_data(as_text=True)
    assert re.search(rf'id="title"[^>]*maxlength="{MAX_TITLE}"', html)
    assert re.search(rf'id="name0"[^>]*maxlength="{MAX_NAME}"', html)


@pytest.mark.parametrize("fields, words", [
    ({"name0": "Аня", "name1": "Aня"}, "выглядит как"),
    ({"name0": "Аня", "name1": "Аня\u3164"}, "U+3164"),
    ({"name0": "Аня", "name1": "\u2800"}, "U+2800"),
    ({"name0": "Аня", "name1": "42"}, "хотя бы одна буква"),
    ({"name0": "Аня", "name1": "Б\ue000"}, "U+E000"),
    ({"name0": "Аня", "name1": "Борис", "title": "Z" + "\u0301" * 5}, "диакритических"),
])
def test_the_form_refuses_what_the_engine_refuses(app, fields, words):
    """Each refused (422) with the engine's reason beside the field; nothing stored."""
    r = new_game(Phone(app), **fields)
    assert r.status_code == 422
    assert any(words in e for e in errors(r)), errors(r)
    assert game_count(app) == 0
