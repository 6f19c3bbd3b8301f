"""``python -m scorer compare``: a game's log under another agreement set, beside its own."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from scorer.cli.replay import InputError, load_game_file, refuse
from scorer.engine import (
    Agreements,
    Comparison,
    Game,
    Protocol,
    RuleError,
    catalog,
    compare,
    resolve_agreements,
    signed,
)
from scorer.engine.texts import LANGUAGES, N_, tr

_TRUE = ("true", "on", "yes", "1")
_FALSE = ("false", "off", "no", "0")
_NONE = ("null", "none", "")


if TYPE_CHECKING:
    from scorer.cli import Subparsers


def register(sub: Subparsers) -> None:
    """Add the ``compare`` subcommand."""
    p = sub.add_parser(
        "compare", help="replay a game log under another agreement set and show what differs",
        description="Replay the deals of a game under another preset or changed agreements "
                    "and print both protocols side by side (nothing is changed).")
    p.add_argument("game", metavar="GAME.json", help="a thousand-game/1 file ('-': stdin)")
    p.add_argument("--preset", metavar="NAME",
                   help="replace the game's whole set by this preset (its overrides dropped)")
    p.add_argument("--set", dest="flips", action="append", default=[], metavar="ID=VALUE",
                   help="change one agreement on top (repeatable)")
    p.add_argument("--json", action="store_true", help="print the comparison as JSON")
    p.add_argument("--lang", choices=LANGUAGES, default="ru")
    p.set_defaults(func=run)


def typed(spec: Any, raw: str) -> Any:
    """A command-line value for one agreement in its type; the catalog checks the rest."""
    low = raw.strip().lower()
    if spec.type == "bool":
        return True if low in _TRUE else False if low in _FALSE else raw
    if spec.type == "optional_int" and low in _NONE:
        return None
    if spec.type in ("int", "optional_int") or (spec.values and isinstance(spec.values[0], int)):
        try:
            return int(low)
        except ValueError:
            return raw
    return raw.strip()


def other_set(game: Game, preset: str | None, flips: list[str]) -> Agreements:
    """The agreement set to compare with: the preset (or the game's own set) plus flips."""
    overrides: dict[str, Any] = {} if preset is not None else dict(game.agreements.overrides)
    cat = catalog()
    for flip in flips:
        key, sep, raw = flip.partition("=")
        key = key.strip()
        if not sep or not key:
            raise InputError("--set", N_("write ID=VALUE (got {got!r})"), got=flip)
        if key not in cat.agreements:
            raise RuleError(None, "agreements", "agreements.unknown", id=key)
        overrides[key] = typed(cat.agreements[key], raw)
    return resolve_agreements(preset or game.agreements.preset, overrides)


def run(args: argparse.Namespace) -> int:
    """Print the comparison as text or JSON; bad input is one line on stderr and status 2."""
    try:
        game = load_game_file(args.game)
        result = compare(game, other_set(game, args.preset, args.flips))
    except (RuleError, InputError) as err:
        return refuse(err, args.lang)
    if args.json:
        json.dump(result.to_json(args.lang), sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write("\n".join(text_lines(result, args.lang)) + "\n")
    return 0


def _winner(protocol: Protocol, lang: str) -> str:
    """The winner's name, or a word saying there is none yet."""
    if protocol.winner is None:
        return tr(lang, N_("no winner"))
    return tr(lang, N_("winner: {name}")).format(name=protocol.players[protocol.winner])


def _scores(values: Sequence[int]) -> str:
    """Scores in one line."""
    return "  ".join(f"{v:>5}" for v in values).replace("-", "−")


def set_lines(result: Comparison, lang: str) -> list[str]:
    """The agreements where the two sets differ: title, the game's value → the other's."""
    cat, mine, other = catalog(), result.game.agreements, result.other_agreements
    lines = []
    for spec in cat.agreements.values():
        if mine[spec.id] != other[spec.id]:
            lines.append(f"  {spec.title[lang]}: {spec.value_text(mine[spec.id], lang)} → "
                         f"{spec.value_text(other[spec.id], lang)}  [{spec.id}]")
    return lines or ["  " + tr(lang, N_("the same agreements"))]


def text_lines(result: Comparison, lang: str) -> list[str]:
    """The comparison as readable lines: both totals and winners, the differing rows."""
    players = result.game.players
    played, what_if = tr(lang, N_("as played")), tr(lang, N_("what if"))
    out = [tr(lang, N_("What if: the same deals under other agreements")), "",
           tr(lang, N_("Agreements that differ (this game → other):")), *set_lines(result, lang),
           "", " " * 10 + "  ".join(f"{p[:5]:>5}" for p in players)]
    out.append(f"{played:<10}{_scores(result.base.score)}  "
               f"{_winner(result.base, lang)}")
    out.append(f"{what_if:<10}{_scores(result.other.score)}  "
               f"{_winner(result.other, lang)}")
    out.append("")
    differing = result.differing
    if not differing:
        out.append(tr(lang, N_("No deal scores differently.")))
    for n in differing:
        base, other = result.pair(n)
        assert other is not None  # a differing row is one both replays have
        out.append(tr(lang, N_("deal {n}")).format(n=n) + ":")
        out.append(f"{played:<10}" + "  ".join(
            f"{signed(d):>5}" for d in base.delta) + "  =" + _scores(base.score))
        out.append(f"{what_if:<10}" + "  ".join(
            f"{signed(d):>5}" for d in other.delta) + "  =" + _scores(other.score))
    out.extend(_why_lines(result, lang))
    return out + _end_lines(result, lang)


def _why_lines(result: Comparison, lang: str) -> list[str]:
    """Both «why» texts of the first deal where the replays part."""
    played, what_if = tr(lang, N_("as played")), tr(lang, N_("what if"))
    n = result.first_difference
    if n is None:
        return []
    base, other = result.pair(n)
    assert other is not None  # the first difference is a row both replays have
    out = ["", tr(lang, N_("They part at deal {n}:")).format(n=n)]
    for seat, name in enumerate(result.game.players):
        out.append(f"  {name}")
        out.append(f"    {played}: " + "; ".join(base.why_text(lang)[seat]))
        out.append(f"    {what_if}: " + "; ".join(other.why_text(lang)[seat]))
    return out


def _end_lines(result: Comparison, lang: str) -> list[str]:
    """Where the other replay stopped early: a refusal, or a win before the log ends."""
    if result.refused is not None:
        return ["", tr(lang, N_("Refused under the other agreements: {message}")).format(
            message=result.refusal_message(lang))]
    if result.ended_at is not None:
        name = result.game.players[result.other.winner or 0]
        return ["", tr(lang, N_("Under the other agreements {name} wins at deal {n}; "
                                "the comparison ends there.")).format(name=name,
                                                                     n=result.ended_at)]
    return []
