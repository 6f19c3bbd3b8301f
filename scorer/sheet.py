"""The printable protocol sheet: a game rendered to PDF with Jinja2 and WeasyPrint."""

from __future__ import annotations

import functools
from typing import Any

import jinja2
from markupsafe import Markup
from weasyprint import HTML
from weasyprint.urls import FatalURLFetchingError, URLFetcher

from scorer import marks
from scorer.chart import colour, totals_svg
from scorer.engine import (
    Adjustment,
    Game,
    Protocol,
    Row,
    catalog,
    replay,
    resolve_agreements,
    word,
)
from scorer.engine.texts import (
    DEFAULT,
    LANGUAGES,
    N_,
    format_date,
    played_for,
    tr,
    translations,
)
from scorer.marks import number, signed
from scorer.paths import data_dir

# Words of the sheet, translated from the one catalog (scorer/translations) when shown.
WORDS = {
    "title": N_("Thousand score sheet"),
    "page": N_("p."),
    "players": N_("Players"),
    "preset": N_("Rules preset"),
    "differences": N_("Differences from the set"),
    "no_differences": N_("none — exactly the set"),
    "in_preset": N_("set"),
    "deal": N_("Deal"),
    "dealer": N_("Dealer"),
    "declarer": N_("Declarer"),
    "contract": N_("Contract"),
    "result": N_("Result"),
    "delta": N_("±"),
    "total": N_("Total"),
    "legend": N_("Marks"),
    "standings": N_("Totals"),
    "place": N_("Place"),
    "player": N_("Player"),
    "score": N_("Score"),
    "bolts": N_("Bolts"),
    "penalties": N_("Penalties"),
    "falls": N_("Falls"),
    "raspis": N_("Concessions"),
    "now": N_("Towards a penalty now"),
    "counted": N_("Bolts, penalties, falls and concessions: over the whole game."),
    "winner": N_("Winner"),
    "unfinished": N_("The game is not finished"),
    "chart": N_("Running totals"),
    "why": N_("Why each number"),
    "made": N_("made"),
    "failed": N_("failed"),
    "redeal": N_("redeal"),
    "agreements": N_("agreements changed"),
    "changed_in": N_("Changed during the game"),
    "notes": N_("Notes"),
    "played": N_("In the sheet"),
    "why_cut": N_("The last {n} deals are explained; the rest are on the game page."),
}


# WeasyPrint ships no type information: its classes are Any to mypy (pyproject.toml).
class NetworkRefused(FatalURLFetchingError):  # type: ignore[misc]
    """Raised when the sheet asks for anything outside the machine (it never should)."""


class OfflineFetcher(URLFetcher):  # type: ignore[misc]
    """A WeasyPrint URL fetcher that serves only local files and data: URLs."""

    def fetch(self, url: str, headers: dict[str, str] | None = None) -> Any:
        """Refuse http(s) and any other network scheme before anything is opened."""
        scheme = url.split(":", 1)[0].lower()
        if scheme not in ("file", "data"):
            # Fatal on purpose: a sheet that silently dropped a remote resource would hide
            # the mistake, and rendering must never wait on the network.
            raise NetworkRefused(f"the sheet may not fetch {url!r}")
        return super().fetch(url, headers)


@functools.cache
def _environment() -> jinja2.Environment:
    """The Jinja2 environment over the shipped templates folder (no Flask needed)."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(data_dir("templates"))),
        autoescape=True, trim_blocks=True, lstrip_blocks=True,
    )


def deals_count(n: int, lang: str) -> str:
    """``120 конов`` / ``120 deals`` with the right plural."""
    return translations(lang).ngettext("%(num)d deal", "%(num)d deals", n) % {"num": n}


def words(lang: str) -> dict[str, str]:
    """The sheet's words in ``lang``."""
    return {key: tr(lang, msgid) for key, msgid in WORDS.items()}


def agreement_lines(game: Game, lang: str) -> list[dict[str, str]]:
    """Every agreement that differs from the game's preset, with catalog titles."""
    specs = catalog().specs_for(game.agreements.preset)
    base = resolve_agreements(game.agreements.preset)
    return [{"id": key, "title": specs[key].title[lang],
             "value": specs[key].value_text(value, lang),
             "preset": specs[key].value_text(base[key], lang)}
            for key, value in game.agreements.differences("preset").items()]


def preset_title(game: Game, lang: str) -> str:
    """The human name of the game's preset."""
    return catalog().presets[game.agreements.preset].title[lang]


def _row_view(game: Game, row: Row, lang: str) -> dict[str, Any]:
    """Turn one protocol row into the strings of one table row."""
    t, names = words(lang), game.players
    seats = len(names)
    view: dict[str, Any] = {"n": row.n, "type": row.type, "span": None,
            "dealer": names[row.dealer],
            "dealer_seat": row.dealer, "declarer": "", "declarer_seat": row.declarer,
            "contract": "", "result": "", "cells": []}
    if row.declarer is not None:
        view["declarer"] = names[row.declarer]
    if row.contract is not None:
        view["contract"] = " ".join([str(row.contract), *marks.row_marks(row, lang)])
    if row.type == "redeal":
        view["span"] = t["redeal"]
    elif row.type == "adjustment":
        record = game.deals[row.n - 1]
        assert isinstance(record, Adjustment)  # an adjustment row comes from one
        view["span"] = f"{names[record.player]}: {word(record.reason, lang)}"
    elif row.type == "agreements":
        view["span"] = change_text(row, t["agreements"], lang)
    elif row.result == "raspis":
        view["result"] = marks.letters(lang)["raspis"]
    elif row.result in ("made", "failed"):
        view["result"] = t[row.result]
    for seat in range(seats):
        if row.type == "redeal":
            view["cells"].append({"delta": "", "total": "", "marks": ""})
            continue
        # An adjustment concerns one player: the others' zero would only add noise.
        quiet = row.type in ("adjustment", "agreements") and row.delta[seat] == 0
        view["cells"].append({
            "delta": "" if quiet else signed(row.delta[seat]),
            "total": number(row.score[seat]),
            "marks": marks.seat_marks(row, seat, lang, seats),
        })
    return view


def change_text(row: Row, heading: str, lang: str) -> str:
    """«договорённости изменены: Title: from → to; …» for an agreements row."""
    specs = catalog().agreements
    parts = [f"{specs[id].title[lang]}: {specs[id].value_text(old, lang)} → "
             f"{specs[id].value_text(new, lang)}" for id, old, new in row.changes]
    return f"{heading}: {'; '.join(parts)}"


def protocol_rows(game: Game, protocol: Protocol, lang: str) -> list[dict[str, Any]]:
    """All table rows of the sheet."""
    return [_row_view(game, row, lang) for row in protocol.rows]


# Column widths in em of the table's 8.5 pt font, measured on its PDF: a digit or letter is
# up to 0.9 em, a bold one 0.93; 0.75 em of padding and rule per cell; the page in em.
CHAR, BOLD, PAD, HEAD = 0.9, 0.93, 0.75, 0.78  # headers: 7.5 pt bold, one word a line
PAGE_EM = {False: 62.5, True: 91.5}  # A4 portrait 188 mm, landscape 275 mm
MIN_NAME = 4 * BOLD + 1.0  # four letters and the ellipsis


def _longest(texts: Any) -> int:
    """The length of the longest of some strings (0 if none)."""
    return max(map(len, texts), default=0)


def column_widths(rows: list[dict[str, Any]], t: dict[str, str], seats: int,
                  landscape: bool) -> dict[str, Any]:
    """Each column's width in % of the table, from what it holds: numbers and marks never
    run into the next cell; the dealer and declarer names take what is left, whole where
    it is enough (a name cut to «Алексан…» beside empty room helps nobody)."""
    def head(*words: str) -> float:
        return max(len(w) for text in words for w in text.split()) * HEAD + PAD

    played = [r for r in rows if not r["span"]]
    need = {
        "n": max(_longest(str(r["n"]) for r in rows) * CHAR + PAD, head(t["deal"])),
        "contract": max(_longest(r["contract"] for r in played) * CHAR + PAD,
                        head(t["contract"])),
        "result": max(_longest(r["result"] for r in played) * CHAR + PAD, head(t["result"])),
    }
    delta = [max(_longest(r["cells"][s]["delta"] for r in rows) * CHAR + PAD, head(t["delta"]))
             for s in range(seats)]
    total = [max(max((len(c["total"]) * BOLD + (len(c["marks"]) * BOLD + 0.4 if c["marks"]
                                                 else 0) + PAD
                      for c in (r["cells"][s] for r in rows)), default=0), head(t["total"]))
             for s in range(seats)]
    least = {"dealer": max(MIN_NAME, head(t["dealer"])),
             "declarer": max(MIN_NAME, head(t["declarer"]))}
    names = {"dealer": max(_longest(r["dealer"] for r in rows) * BOLD + PAD, least["dealer"]),
             "declarer": max(_longest(r["declarer"] for r in played) * BOLD + PAD,
                             least["declarer"])}
    fixed = sum(need.values()) + sum(delta) + sum(total)
    room = PAGE_EM[landscape] - fixed
    wanted = sum(names.values())
    if room < wanted:  # the names give way first, evenly, down to four letters
        cut = max(room, 0) / wanted
        names = {k: max(v * cut, least[k]) for k, v in names.items()}
    widths = {**need, **names}
    whole = sum(widths.values()) + sum(delta) + sum(total)
    pct: dict[str, Any] = {k: round(100 * v / whole, 2) for k, v in widths.items()}
    # Still too wide (four players on a portrait page): a smaller type, never an overlap.
    pct["font"] = round(max(8.5 * min(1.0, PAGE_EM[landscape] / whole), 6.0), 2)
    pct["delta"] = [round(100 * v / whole, 2) for v in delta]
    pct["total"] = [round(100 * v / whole, 2) for v in total]
    return pct


def _place(protocol: Protocol, seat: int) -> int:
    """A player's place: the winner is first, equal scores share a place."""
    if seat == protocol.winner:
        return 1
    ahead = sum(1 for other, score in enumerate(protocol.score)
                if other == protocol.winner or score > protocol.score[seat])
    return ahead + 1


# What a counter towards a penalty is called, by marks.towards_penalty's key.
TOWARDS = {"bolt": N_("bolt %(n)d of 3"), "raspis": N_("concession %(n)d of 3"),
           "fall": N_("fall %(n)d of 3")}


def standings(game: Game, protocol: Protocol, lang: str = DEFAULT) -> list[dict[str, Any]]:
    """Players ordered by final score (the winner first), with what they did in the game
    (marks.tallies: the events, not the counters a penalty resets) and, while the game
    goes on, the counters that run towards a penalty."""
    order = sorted(range(len(game.players)),
                   key=lambda s: (s != protocol.winner, -protocol.score[s], s))
    counts = marks.tallies(protocol)
    ag = game.agreements
    return [{"rank": _place(protocol, s), "seat": s, "name": game.players[s],
             "score": number(protocol.score[s]), "bolts": counts[s].bolts,
             "penalties": counts[s].penalties, "falls": counts[s].falls,
             "raspis": counts[s].raspis, "winner": s == protocol.winner,
             "now": ", ".join(tr(lang, TOWARDS[key]) % {"n": n}
                              for key, n in marks.towards_penalty(protocol, ag, s))}
            for s in order]


# The "why" appendix of a 2000-deal game runs to hundreds of pages and minutes of layout:
# the sheet explains the latest deals only (every deal's why stays on the game page).
MAX_APPENDIX = 200


def appendix_rows(game: Game, protocol: Protocol, lang: str) -> list[dict[str, Any]]:
    """The "why" of every row (the last MAX_APPENDIX): each player's reasons for his delta."""
    out = []
    for row in protocol.rows[-MAX_APPENDIX:]:
        lines = [{"seat": s, "name": game.players[s], "text": "; ".join(reasons)}
                 for s, reasons in enumerate(row.why_text(lang)) if reasons]
        out.append({"n": row.n, "lines": lines})
    return out


def sheet_context(game: Game, protocol: Protocol, *, lang: str = "ru", landscape: bool = False,
                  appendix: bool = False, minutes: int | None = None) -> dict[str, Any]:
    """Everything the sheet template shows, as plain strings and lists (minutes: how long
    the game was played, from the store's times; the log itself keeps no clock)."""
    lang = lang if lang in LANGUAGES else DEFAULT
    t = words(lang)
    rows = protocol_rows(game, protocol, lang)
    return {
        "lang": lang, "t": t, "landscape": landscape,
        "title": game.title or t["title"],
        "date": format_date(game.date, lang), "place": game.place or "",
        "played_for": played_for(minutes, lang, short=True) if minutes else "",
        "notes": game.notes or "", "players": list(game.players),
        "colours": [colour(s) for s in range(len(game.players))],
        "preset": preset_title(game, lang), "agreements": agreement_lines(game, lang),
        # The header lists the agreements the game started with; these rows changed them.
        "changed_in": [r.n for r in protocol.rows if r.type == "agreements"],
        "legend": marks.legend(lang, game.agreements, len(game.players)),
        "rows": rows,
        "widths": column_widths(rows, t, len(game.players), landscape),
        # One numbering everywhere (docs/UX.md): every row is a кон, redeals included.
        "played": deals_count(len(protocol.rows), lang),
        "standings": standings(game, protocol, lang),
        # The counters towards a penalty matter only while the game goes on.
        "show_now": protocol.winner is None,
        "winner": game.players[protocol.winner] if protocol.winner is not None else None,
        "chart": Markup(totals_svg(game, protocol, lang)),
        "appendix": appendix_rows(game, protocol, lang) if appendix else None,
        "appendix_cut": (t["why_cut"].format(n=MAX_APPENDIX)
                         if appendix and len(protocol.rows) > MAX_APPENDIX else ""),
    }


def sheet_html(game: Game, *, lang: str = "ru", landscape: bool = False,
               appendix: bool = False, minutes: int | None = None) -> str:
    """Replay the game and fill the sheet template (HTML with its CSS inline)."""
    protocol = replay(game)
    context = sheet_context(game, protocol, lang=lang, landscape=landscape, appendix=appendix,
                            minutes=minutes)
    return _environment().get_template("sheet/sheet.html").render(**context)


def html_to_pdf(html: str, fetcher: URLFetcher | None = None) -> bytes:
    """Lay out HTML with WeasyPrint, never touching the network."""
    base = data_dir("templates").joinpath("sheet").as_uri() + "/"
    pdf: bytes = HTML(string=html, base_url=base,
                      url_fetcher=fetcher or OfflineFetcher()).write_pdf()
    return pdf


def render_sheet(game: Game, *, lang: str = "ru", landscape: bool = False,
                 appendix: bool = False, minutes: int | None = None) -> bytes:
    """Return the PDF protocol sheet of a game (finished or not)."""
    return html_to_pdf(sheet_html(game, lang=lang, landscape=landscape, appendix=appendix,
                                  minutes=minutes))

