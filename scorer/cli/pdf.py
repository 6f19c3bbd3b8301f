"""``python -m scorer pdf``: print a game's protocol sheet to a PDF file."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from scorer import store
from scorer.cli.backup import existing_database
from scorer.cli.replay import InputError, load_game_file, refuse
from scorer.engine import Game, RuleError, parse_game, replay
from scorer.engine.texts import LANGUAGES, N_

if TYPE_CHECKING:
    from scorer.cli import Subparsers


def register(subparsers: Subparsers) -> None:
    """Add the ``pdf`` subcommand."""
    parser = subparsers.add_parser(
        "pdf", help="render the protocol sheet of a game as PDF",
        description="Render a game (a thousand-game/1 JSON file, or a game of the app's "
                    "database by id) as a printable PDF protocol sheet.")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("game_file", nargs="?", metavar="GAME.json",
                        help="game log file ('-' reads standard input)")
    source.add_argument("--game", metavar="ID", help="a game id from the app's database")
    parser.add_argument("--instance", metavar="DIR",
                        help="the app's data folder (default: $SCORER_INSTANCE or ./instance)")
    parser.add_argument("-o", "--output", required=True, metavar="sheet.pdf",
                        help="where to write the PDF")
    parser.add_argument("--lang", choices=LANGUAGES, default="ru", help="sheet language")
    parser.add_argument("--landscape", action="store_true", help="A4 landscape")
    parser.add_argument("--appendix", action="store_true",
                        help="add the reasons behind every row")
    parser.set_defaults(func=run)


def _read_store(game_id: str, instance: str | None) -> tuple[Game, int | None]:
    """Load a game (head plus live deal records) from the app's database, with how long
    it was played (None when unknown or unfinished)."""
    path = existing_database(instance)
    if not game_id.isdigit():
        raise InputError("--game", N_("a game id is a number (got {got!r})"), got=game_id)
    games = store.Store(store.connect(path))
    try:
        row = games.game(int(game_id))
        if row is None:
            raise InputError("--game", N_("no game with id {id} in {path}"), id=game_id, path=path)
        game = parse_game(games.log(row.id))
        finished = replay(game).winner is not None
        return game, games.span(row.id).minutes if finished else None
    finally:
        games.db.close()


def run(args: argparse.Namespace) -> int:
    """Load the game, render the sheet and write it; bad input is one line and status 2."""
    # Imported here, not at the top: WeasyPrint takes a second to import, and every other
    # command (replay, backup...) loads this module too when the parser is built.
    from scorer.sheet import render_sheet

    try:
        minutes = None
        if args.game is not None:
            game, minutes = _read_store(args.game, args.instance)
        else:
            game = load_game_file(args.game_file)
        pdf = render_sheet(game, lang=args.lang, landscape=args.landscape,
                           appendix=args.appendix, minutes=minutes)
        _write(args.output, pdf)
    except (RuleError, InputError) as err:
        return refuse(err, args.lang)
    return 0


def _write(name: str, pdf: bytes) -> None:
    """Write the PDF; a place that cannot be written is bad input, not a crash."""
    try:
        Path(name).write_bytes(pdf)
    except OSError as exc:
        why = exc.strerror or str(exc)
        raise InputError("output", N_("cannot write {name} ({why})"), name=name, why=why) from None
