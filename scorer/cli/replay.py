"""``replay`` and ``agreements``: the engine from a terminal."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from scorer.engine import Game, RuleError, catalog, load_game, replay, resolve_agreements
from scorer.engine.texts import LANGUAGES, N_, tr

if TYPE_CHECKING:
    from scorer.cli import Subparsers


def register(sub: Subparsers) -> None:
    """Add the ``replay`` and ``agreements`` subcommands."""
    p = sub.add_parser("replay", help="replay a game log and print its protocol as JSON")
    p.add_argument("game", help="a thousand-game/1 JSON file ('-' for standard input)")
    p.add_argument("--lang", choices=LANGUAGES, default="ru", help="language of 'why'")
    p.set_defaults(func=run_replay)
    a = sub.add_parser("agreements", help="print an agreement set readably")
    a.add_argument("--preset", default="classic", help="preset name (default: classic)")
    a.add_argument("--lang", choices=LANGUAGES, default="ru")
    a.set_defaults(func=run_agreements)


@runtime_checkable
class Worded(Protocol):
    """A refusal that words itself in any language (scorer.store_checks.RowError)."""

    def text(self, lang: str = "en") -> str:
        """The refusal in ``lang``."""


class InputError(Exception):
    """Bad input that breaks no rule of the game: a file that cannot be read, say."""

    def __init__(self, field: str, msgid: str, /, **params: object) -> None:
        self.field, self.msgid, self.params = field, msgid, params
        super().__init__(self.text("en"))

    def text(self, lang: str = "en") -> str:
        """The problem worded in ``lang`` (a wrapped engine refusal keeps its own words)."""
        params = {key: value.message(lang) if isinstance(value, RuleError) else
                  value.text(lang) if isinstance(value, Worded) else value
                  for key, value in self.params.items()}
        return tr(lang, self.msgid).format(**params)

    def message(self, lang: str = "en") -> str:
        """One line shaped like the engine's game-level refusals: ``game: FIELD: TEXT``."""
        where = tr(lang, N_("game"))
        return f"{where}: {self.field}: {self.text(lang)}"


def load_game_file(path: str) -> Game:
    """Read and parse a game log file ('-': standard input); bad input raises."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        why = exc.strerror or str(exc)
        raise InputError("file", N_("cannot read {path} ({why})"), path=path, why=why) from None
    except UnicodeDecodeError:
        raise InputError("file", N_("{path} is not UTF-8 text"), path=path) from None
    return load_game(text)


def refuse(err: RuleError | InputError, lang: str) -> int:
    """Print the refusal as one line on stderr and return the usage-error status."""
    print(err.message(lang), file=sys.stderr)
    return 2


def run_replay(args: argparse.Namespace) -> int:
    """Print the protocol of a game log, or one line of error and exit 2."""
    try:
        protocol = replay(load_game_file(args.game))
    except (RuleError, InputError) as err:
        return refuse(err, args.lang)
    json.dump(protocol.to_json(args.lang), sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0


def run_agreements(args: argparse.Namespace) -> int:
    """Print every agreement of a preset, grouped, with what differs from classic marked."""
    cat, lang = catalog(), args.lang
    try:
        ag = resolve_agreements(args.preset, {})
    except RuleError as err:
        return refuse(err, lang)
    preset = cat.presets[args.preset]
    changed = ag.differences("classic")
    print(f"{preset.title[lang]} ({args.preset})")
    print(preset.description[lang])
    for group in cat.groups.values():
        specs = [s for s in cat.specs_for(args.preset).values() if s.group == group.id]
        if not specs:
            continue
        print(f"\n== {group.title[lang]} ==")
        for spec in specs:
            mark = "*" if spec.id in changed else " "
            kind = "" if spec.enforced else " ({})".format(tr(lang, N_("advisory")))
            print(f"{mark} {spec.title[lang]}: {spec.value_text(ag[spec.id], lang)}"
                  f"  [{spec.id}]{kind}")
            print(f"    {spec.explain[lang]}")
    note = tr(lang, N_("* differs from classic"))
    print(f"\n{note}")
    return 0
