"""Flask-WTF forms: the fixed parts of the new-game and import forms.

Agreement fields come from the catalog (agreement_form.py) and deal fields depend on
the seats (deal_input.py); every form, those included, carries the CSRF token.
"""

from __future__ import annotations

import secrets
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import Field, StringField
from wtforms.validators import Length, Optional, ValidationError

from scorer.engine import MAX_NAME, MAX_TITLE, RuleError, check_name, check_text
from scorer.web.i18n import lang

MIN_PLAYERS = 2

# Every form field that becomes stored text, by the endpoint it is posted to, and the
# text rule of scorer/engine/names.py it goes through ("players" also needs a letter).
# tests/reliability/test_free_texts.py finds every text input on every page and fails on
# one that is in neither this list nor NOT_TEXT, then posts unreadable characters to each
# field listed here. An imported file's texts go through parse_game, all of them.
FREE_TEXTS: dict[str, dict[str, str]] = {
    "games.new_game": {"name0": "players", "name1": "players", "name2": "players",
                       "name3": "players", "title": "title"},
    "club.rename": {"name": "players"},
    "club.add_player": {"name": "players"},
    "club.add_season": {"name": "season"},
    "rule_change.confirm": {"who": "who"},
}
# Inputs typed as text that hold no free text: numbers, dates and agreement values, each
# read as what it is and refused when it is not (field names as regular expressions).
NOT_TEXT: dict[str, tuple[str, ...]] = {
    "games.new_game": (r"ag_\w+",),
    "game.new_deal": (r"contract", r"points_[0-3]", r"prikup_points", r"prikup_aces",
                      r"amount"),
    "game.edit_deal": (r"contract", r"points_[0-3]", r"prikup_points", r"prikup_aces",
                       r"amount"),
    "club.add_season": (r"start", r"end", r"points[234]"),
    "rule_change.change_form": (r"ag_\w+",),
    "compare.page": (r"ag_\w+",),
}


def text_refusal(kind: str, text: str) -> str | None:
    """Why a typed text breaks the text rules of its kind (in the page's language), or None."""
    try:
        if kind == "players":
            check_name(text)
        else:
            check_text(kind, text)
    except RuleError as err:
        return err.text(lang())
    return None


class TextRule:
    """A WTForms validator: a non-blank field's text under the text rules of its kind."""

    def __init__(self, kind: str):
        self.kind = kind

    def __call__(self, form: Any, field: Field) -> None:
        """Raise ValidationError with the rule's words (once: not on top of Length's)."""
        text = (field.data or "").strip()
        if not text or field.errors:
            return
        refused = text_refusal(self.kind, text)
        if refused:
            raise ValidationError(refused)


# Flask-WTF ships no type information, so FlaskForm is Any to mypy (see pyproject.toml).
class Form(FlaskForm):  # type: ignore[misc]
    """A form whose CSRF input has no id: a page with several forms (the deal form, the
    game page's delete and restore buttons) would repeat id="csrf_token", invalid HTML."""

    class Meta:
        """How the fields are rendered."""

        def render_field(self, field: Field, render_kw: dict[str, object]) -> object:
            """The field's widget; the CSRF input without its id (nothing points at it)."""
            if field.type == "CSRFTokenField":
                render_kw = {**render_kw, "id": False}
            return super().render_field(field, render_kw)  # type: ignore[misc]


class NewGameForm(Form):
    """Players, first dealer, preset and title of a new game."""

    name0 = StringField(_l("Player 1"), validators=[Optional(), Length(max=MAX_NAME),
                                                       TextRule("players")])
    name1 = StringField(_l("Player 2"), validators=[Optional(), Length(max=MAX_NAME),
                                                       TextRule("players")])
    name2 = StringField(_l("Player 3"), validators=[Optional(), Length(max=MAX_NAME),
                                                       TextRule("players")])
    name3 = StringField(_l("Player 4"), validators=[Optional(), Length(max=MAX_NAME),
                                                       TextRule("players")])
    # Chosen from lists the view builds (seats, the catalog's presets), checked there.
    CHOICES = ("first_dealer", "preset")
    first_dealer = StringField(_l("First dealer"), default="0")
    preset = StringField(_l("Rules preset"), default="classic")
    title = StringField(_l("Title (optional)"), validators=[Optional(), Length(max=MAX_TITLE),
                                                            TextRule("title")])

    def names(self) -> list[str]:
        """The non-blank player names in seat order."""
        fields = (self.name0, self.name1, self.name2, self.name3)
        return [f.data.strip() for f in fields if f.data and f.data.strip()]

    def dealer_choices(self) -> list[tuple[str, str]]:
        """(field, label) for the first-dealer select: the named players once any name is
        in (a form shown again), else every seat."""
        fields = list(enumerate(self.name_fields()))
        named = [(i, f) for i, f in fields if f.data and f.data.strip()]
        return [(str(i), f.data.strip() if f.data and f.data.strip() else str(f.label.text))
                for i, f in (named or fields)]

    def dealer_seat(self) -> int | None:
        """The first dealer's seat among the named players (the select counts every field,
        blank ones included), or None if the chosen field holds no name."""
        chosen = self.first_dealer.data or ""
        if not chosen.isdigit() or int(chosen) >= len(self.name_fields()):
            return None
        fields = self.name_fields()
        if not (fields[int(chosen)].data or "").strip():
            return None
        return sum(1 for f in fields[:int(chosen)] if f.data and f.data.strip())

    def name_fields(self) -> list[Field]:
        """The four name inputs."""
        return [self.name0, self.name1, self.name2, self.name3]


class ImportForm(Form):
    """A GAME-FORMAT JSON file to import."""

    file = FileField(_l("Game file (JSON)"), validators=[FileRequired()])


class ConfirmForm(Form):
    """A bare form for buttons that only need the CSRF token (delete, restore)."""


def new_sid() -> str:
    """A fresh one-time id for a write form (a repeat of it is answered, not re-applied)."""
    return secrets.token_urlsafe(12)
