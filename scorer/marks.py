"""The traditional marks of a paper protocol, shared by the game page and the PDF sheet.

How a number is written (a real minus sign, as with the engine's ``signed``), which
letter stands for what (docs/UX.md: Russian initials in Russian, Leadage's letters in
English), which engine event shows which mark, and which marks a game's agreements can
produce at all. Pure: no Flask, no WeasyPrint; everything is read from the engine's rows.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorer.engine import signed as _engine_signed
from scorer.engine.texts import DEFAULT, LANGUAGES, N_, ptr, tr

# Beyond this a number is not a score any game reaches (the engine bounds totals far
# lower); it is written short so that no page or sheet can fail on it (Python refuses
# to turn an int of more than 4300 digits into a string, floats overflow past 1e308).
HUGE = 10**15

# Display order of the legend too. Letters are msgids (the English ones, Leadage's);
# the catalog gives the Russian initials. Signs are the same in every language.
LETTERS = {
    "bolt": "—", "penalty": "!", "barrel": N_("B"), "fall": "↓", "samosval": N_("Z"),
    "raspis": N_("R"), "golden": N_("G"), "reset": "↺", "replay": "↻", "dark": N_("D"),
    "sitting_out": "#", "win": "★",
}
MEANINGS = {
    "bolt": N_("bolt (took no trick)"),
    "penalty": N_("penalty (bolts, raspis, three falls)"),
    "barrel": N_("on the barrel"),
    "fall": N_("fell off the barrel"),
    "samosval": N_("samosval: score reset to 0"),
    "raspis": N_("concession (raspis)"),
    "golden": N_("golden round (doubled)"),
    "reset": N_("no golden contract made: scores reset"),
    "replay": N_("no golden contract made: another golden round"),
    "dark": N_("dark game (doubled)"),
    "sitting_out": N_("sat on the talon"),
    "win": N_("win"),
}
# The legend follows the game's agreements: what a bolt is (bolt_counts), and whether
# a penalty can come from bolts at all.
BOLT_ZERO_POINTS = N_("bolt (0 points with marriages)")
PENALTY_NO_BOLTS = N_("penalty (raspis, three falls)")
# Engine event kind -> the mark it leaves in that seat's cell. A bolt repeats its mark
# by weight; barrel_enter needs none (the row's barrel list already shows the seat).
EVENT_MARK = {
    "bolt": "bolt", "bolt_penalty": "penalty", "raspis_penalty": "penalty",
    "three_falls_zero": "penalty", "barrel_fall": "fall", "samosval": "samosval",
    "win": "win",
}
# Events of the whole row (seat None), shown beside the contract.
ROW_EVENT_MARK = {"golden_reset": "reset", "golden_replay": "replay"}


def signed(value: int) -> str:
    """+20, −120, 0 as the engine writes them; a huge number as ±~1e400 (never raises)."""
    try:
        value = int(value)
    except (TypeError, ValueError, OverflowError):
        return str(value)[:20]
    if abs(value) >= HUGE:
        import math

        return f"{'−' if value < 0 else '+'}~1e{int(math.log10(abs(value)))}"
    return _engine_signed(value)


def number(value: int) -> str:
    """A score as a protocol writes it: 120, 0, −120 (a real minus sign, no plus)."""
    return signed(value).removeprefix("+")


def letters(lang: str) -> dict[str, str]:
    """The mark letters of a language (Russian for anything unknown)."""
    return dict(_letters(lang if lang in LANGUAGES else DEFAULT))


@functools.cache
def _letters(lang: str) -> tuple[tuple[str, str], ...]:
    """The letters of one language, looked up once: every protocol cell asks for them."""
    return tuple((key, tr(lang, mark)) for key, mark in LETTERS.items())


def falls_possible(ag: Mapping[str, Any]) -> bool:
    """Whether anybody can fall off the barrel under these agreements."""
    return bool(ag["barrel"] and (ag["barrel_attempts"] or ag["barrel_single"]
                                  or ag["barrel_push_off"]))


def legend_keys(ag: Mapping[str, Any], players: int) -> list[str]:
    """The marks a game with these agreements and this many players can show."""
    can = {
        "bolt": True,
        "penalty": ag["bolt_penalty"] != "none"
        or bool(ag["raspis"] and ag["raspis_third_penalty"])
        or bool(ag["barrel_three_falls_zero"] and falls_possible(ag)),
        "barrel": bool(ag["barrel"]),
        "fall": falls_possible(ag),
        "samosval": bool(ag["samosval"]),
        "raspis": bool(ag["raspis"]),
        "golden": bool(ag["golden"]),
        "reset": bool(ag["golden"]) and ag["golden_on_fail"] == "reset",
        "replay": bool(ag["golden"]) and ag["golden_on_fail"] == "replay",
        "dark": bool(ag["dark"]),
        "sitting_out": players == 4,
        "win": True,
    }
    return [key for key in LETTERS if can[key]]


def pgettext(context: str, msgid: str) -> str:
    """Mark ``msgid`` under ``context`` for extraction (pybabel's pgettext keyword); it is
    translated where it is shown, by preset_word."""
    return msgid


# The Polish preset's own words for these (docs/UX.md: «pod kreską», «spadek spod kreski»):
# marked here so that extraction makes their entries; ru, uk and en leave them empty.
NATIVE_WORDS = (
    pgettext("preset:polish", "on the barrel"),
    pgettext("preset:polish", "fell off the barrel"),
    pgettext("preset:polish", "barrel"),
    # The game page's (templates/game/_live.html, through preset_gettext).
    N_("to barrel %(n)d"), pgettext("preset:polish", "to barrel %(n)d"),
    N_("On the barrel:"), pgettext("preset:polish", "On the barrel:"),
    # The reasons of the why box (scorer/engine/protocol.py REASON_TEXTS, Reason.text).
    pgettext("preset:polish", "on the barrel: {amount} not credited"),
    pgettext("preset:polish", "on the barrel: {amount} costs only the attempt"),
    pgettext("preset:polish", "below {threshold}: off the barrel"),
    pgettext("preset:polish", "barrel attempt {used} of {max}"),
    pgettext("preset:polish", "barrel deal {used}"),
    pgettext("preset:polish", "fell off the barrel: {amount}"),
    pgettext("preset:polish", "pushed off the barrel: {amount}"),
    pgettext("preset:polish", "entered the barrel together with another: {amount}"),
    pgettext("preset:polish", "{score} ≥ {threshold}: sits on the barrel"),
    pgettext("preset:polish", "on the barrel at {threshold}"),
    pgettext("preset:polish", "the barrel is switched off: off the barrel"),
    pgettext("preset:polish", "fewer barrel attempts: the next one is the last"),
)


def preset_word(lang: str, ag: Any, msgid: str) -> str:
    """A word as the game's preset says it: a native preset (the Polish one) has its own
    table words under the context ``preset:NAME`` (docs/UX.md: «pod kreską»), read where
    the catalog has them, else the plain word."""
    preset = getattr(ag, "preset", None)
    return ptr(lang, f"preset:{preset}", msgid) if preset else tr(lang, msgid)


def meaning(lang: str, ag: Mapping[str, Any], key: str) -> str:
    """What one mark means in a game with these agreements."""
    msgid = MEANINGS[key]
    if key == "bolt" and ag["bolt_counts"] == "zero_points":
        msgid = BOLT_ZERO_POINTS
    elif key == "penalty" and ag["bolt_penalty"] == "none":
        msgid = PENALTY_NO_BOLTS
    return preset_word(lang, ag, msgid)


def legend(lang: str, ag: Mapping[str, Any], players: int) -> list[tuple[str, str]]:
    """(mark, meaning) for every mark the game can show, in display order, in the words
    of the game's agreements and preset."""
    lang = lang if lang in LANGUAGES else DEFAULT
    m = letters(lang)
    return [(m[k], meaning(lang, ag, k)) for k in legend_keys(ag, players)]


def row_marks(row: Any, lang: str) -> list[str]:
    """The marks beside a row's contract: golden, dark, and how a golden round ended."""
    m = letters(lang)
    out = [m["golden"]] if row.golden else []
    out += [m["dark"]] if row.dark else []
    for event in row.events:
        key = ROW_EVENT_MARK.get(event.kind)
        if key and m[key] not in out:
            out.append(m[key])
    return out


def sitting_out(row: Any, seat: int, players: int) -> bool:
    """The 4-player dealer sits on the talon in a played (or conceded) deal."""
    return players == 4 and row.type in ("play", "raspis") and seat == row.dealer


def seat_marks(row: Any, seat: int, lang: str, players: int) -> str:
    """One seat's marks in one row: on the talon, on the barrel, then what happened."""
    m = letters(lang)
    out = [m["sitting_out"]] if sitting_out(row, seat, players) else []
    if any(b.seat == seat for b in row.barrel):  # Row.barrel: who sits there after it
        out.append(m["barrel"])
    for event in row.events:
        if event.seat != seat or event.kind not in EVENT_MARK:
            continue
        mark = m[EVENT_MARK[event.kind]]
        if event.kind == "bolt":
            out.append(mark * int(event.extra.get("weight", 1)))
        elif mark not in out:
            out.append(mark)
    return " ".join(out)


@dataclass(frozen=True)
class Tally:
    """What one player did over the whole game, counted from the engine's events (as the
    club's figures count them, docs/STATS.md): the protocol's own ``bolts``, ``falls`` and
    ``raspis`` are the counters towards the next penalty, which a penalty resets."""

    bolts: int  # deals in which the player took no trick (a double bolt is one)
    penalties: int  # bolt, concession and three-falls penalties
    falls: int  # falls off the barrel
    raspis: int  # concessions declared


PENALTY_EVENTS = frozenset({"bolt_penalty", "raspis_penalty", "three_falls_zero"})


def tallies(protocol: Any) -> list[Tally]:
    """Each seat's game counts, read off every row of a replayed protocol."""
    return list(counted(protocol.rows, len(protocol.players)).tallies)


@dataclass(frozen=True)
class Counted:
    """Each seat's tallies over some rows: kept per version of a game, so that the next
    version (the same rows and more) counts only the rows it adds."""

    rows: Sequence[Any]
    tallies: tuple[Tally, ...]


def counted(rows: Sequence[Any], seats: int, before: Counted | None = None) -> Counted:
    """Each seat's tallies over ``rows``, counting on from ``before`` when it was made from
    the first of them (else from the first row): equal to ``counted(rows, seats)``."""
    start, kept = 0, [Tally(0, 0, 0, 0)] * seats
    if (before is not None and len(before.tallies) == seats
            and len(before.rows) <= len(rows) and rows[:len(before.rows)] == before.rows):
        start, kept = len(before.rows), list(before.tallies)
    bolts, penalties = [t.bolts for t in kept], [t.penalties for t in kept]
    falls, raspis = [t.falls for t in kept], [t.raspis for t in kept]
    for row in rows[start:]:
        if row.type == "raspis" and row.declarer is not None:
            raspis[row.declarer] += 1
        for event in row.events:
            if event.seat is None:
                continue
            if event.kind == "bolt":
                bolts[event.seat] += 1
            elif event.kind == "barrel_fall":
                falls[event.seat] += 1
            elif event.kind in PENALTY_EVENTS:
                penalties[event.seat] += 1
    return Counted(rows, tuple(Tally(*counts) for counts in zip(
        bolts, penalties, falls, raspis, strict=True)))


def towards_penalty(protocol: Any, ag: Mapping[str, Any], seat: int) -> list[tuple[str, int]]:
    """The counters that run towards a penalty now, for an unfinished game: («bolt», 2)
    for the second of three bolts; only those above 0 whose penalty is agreed."""
    out = []
    if ag["bolt_penalty"] != "none" and protocol.bolts[seat]:
        out.append(("bolt", protocol.bolts[seat]))
    if ag["raspis"] and ag["raspis_third_penalty"] and protocol.raspis[seat] % 3:
        out.append(("raspis", protocol.raspis[seat] % 3))
    if ag["barrel_three_falls_zero"] and falls_possible(ag) and protocol.falls[seat]:
        out.append(("fall", protocol.falls[seat]))
    return out
