"""Two more printed papers: a comparison («А если бы…») and a game's agreement set.

Both are plain WeasyPrint pages like the protocol sheet (scorer/sheet.py), never
touching the network. Each fits its pages by cutting long lists, saying what was cut.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import jinja2

from scorer.engine import (
    Comparison,
    Game,
    Protocol,
    catalog,
    compare,
    current_agreements,
    resolve_agreements,
    signed,
)
from scorer.engine.texts import DEFAULT, LANGUAGES, N_, tr
from scorer.marks import number
from scorer.paths import data_dir
from scorer.sheet import html_to_pdf

WORDS = {
    "what_if": N_("What if: the same deals under other agreements"),
    "rules": N_("Rules of this game"),
    "preset": N_("Rules preset"),
    "agreement": N_("Agreement"),
    "as_played": N_("as played"),
    "what_if_short": N_("what if"),
    "player": N_("Player"),
    "winner": N_("Winner"),
    "no_winner": N_("no winner"),
    "deal": N_("Deal"),
    "same": N_("the same agreements"),
    "no_difference": N_("No deal scores differently."),
    "differing_rows": N_("Deals that score differently"),
    "changes": N_("Agreements that differ (this game → other):"),
    "totals": N_("Totals"),
    "parts_at": N_("They part at deal {n}:"),
    "refused": N_("Refused under the other agreements: {message}"),
    "ended": N_("Under the other agreements {name} wins at deal {n}; the comparison ends "
                "there."),
    "more_rows": N_("…and {n} more deals score differently (all of them are on the "
                    "game's «What if» page)."),
    "marked": N_("● differs from the preset (the preset's value in brackets)"),
    "page": N_("p."),
}

# Lines of one A4 page left for the agreements that differ and the differing rows (a row
# takes two and a half): what does not fit is counted, not printed.
PAGE_LINES = 40
MIN_PDF_ROWS = 4


@functools.cache
def _environment() -> jinja2.Environment:
    """Jinja2 over the shipped templates folder (no Flask needed)."""
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(data_dir("templates"))),
                              autoescape=True, trim_blocks=True, lstrip_blocks=True)


def _words(lang: str) -> dict[str, str]:
    """The papers' words in ``lang``."""
    return {key: tr(lang, msgid) for key, msgid in WORDS.items()}


def _lang(lang: str) -> str:
    """A language the catalog has."""
    return lang if lang in LANGUAGES else DEFAULT


def first_sentence(text: str) -> str:
    """The first sentence of an explanation: one line on paper."""
    match = re.match(r"(.+?[.!?])(\s|$)", text.strip(), flags=re.S)
    return (match.group(1) if match else text).strip()


def comparison_context(game: Game, result: Comparison, lang: str) -> dict[str, Any]:
    """Everything the comparison paper shows, as plain strings."""
    t, cat, players = _words(lang), catalog(), game.players
    changes = [{"title": spec.title[lang],
                "mine": spec.value_text(game.agreements[spec.id], lang),
                "theirs": spec.value_text(result.other_agreements[spec.id], lang)}
               for spec in cat.agreements.values()
               if game.agreements[spec.id] != result.other_agreements[spec.id]]
    differing = result.differing
    room = max(MIN_PDF_ROWS, (PAGE_LINES - len(changes)) * 2 // 5)
    rows = []
    for n in differing[:room]:
        base, other = result.pair(n)
        assert other is not None  # a differing row is one both replays have
        rows.append({"n": n, "cells": [
            {"base": f"{signed(base.delta[s])} = {number(base.score[s])}",
             "other": f"{signed(other.delta[s])} = {number(other.score[s])}"}
            for s in range(len(players))]})

    def winner(protocol: Protocol) -> str:
        return players[protocol.winner] if protocol.winner is not None else t["no_winner"]

    end = ""
    if result.refused is not None:
        end = t["refused"].format(message=result.refusal_message(lang))
    elif result.ended_at is not None:
        end = t["ended"].format(name=winner(result.other), n=result.ended_at)
    return {
        "lang": lang, "t": t, "title": game.title or "", "players": list(players),
        "changes": changes,
        "totals": [{"name": name, "base": number(result.base.score[s]),
                    "other": number(result.other.score[s])} for s, name in enumerate(players)],
        "base_winner": winner(result.base), "other_winner": winner(result.other),
        "rows": rows, "more": max(0, len(differing) - room),
        "first": (t["parts_at"].format(n=result.first_difference).rstrip(":")
                  if result.first_difference else ""),
        "end": end,
    }


def render_comparison(game: Game, *, lang: str = "ru", preset: str = "classic",
                      overrides: dict[str, Any] | None = None) -> bytes:
    """The one-page PDF comparing ``game`` with the same deals under another set."""
    lang = _lang(lang)
    result = compare(game, resolve_agreements(preset, overrides or {}))
    html = _environment().get_template("sheet/compare.html").render(
        **comparison_context(game, result, lang))
    return html_to_pdf(html)


def rules_context(game: Game, lang: str) -> dict[str, Any]:
    """The game's agreements in force now (after any change mid-game, as the rules page
    shows them), grouped, each with its value and one line of explanation."""
    t, cat, ag = _words(lang), catalog(), current_agreements(game)
    preset = resolve_agreements(ag.preset)
    specs = cat.specs_for(ag.preset)  # a preset's own words, where it has them
    groups = []
    for group in cat.groups.values():
        items = [{"title": spec.title[lang], "value": spec.value_text(ag[spec.id], lang),
                  "explain": first_sentence(spec.explain[lang]),
                  "differs": ag[spec.id] != preset[spec.id],
                  "preset": spec.value_text(preset[spec.id], lang)}
                 for spec in specs.values() if spec.group == group.id]
        if items:
            groups.append({"title": group.title[lang], "entries": items})
    return {"lang": lang, "t": t, "title": game.title or "",
            "players": list(game.players), "preset": cat.presets[ag.preset].title[lang],
            "groups": groups}


def render_rules(game: Game, *, lang: str = "ru") -> bytes:
    """The game's agreement set as a one- or two-page PDF."""
    lang = _lang(lang)
    html = _environment().get_template("sheet/rules.html").render(**rules_context(game, lang))
    return html_to_pdf(html)
