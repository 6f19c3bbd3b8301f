"""``python -m scorer pdf``: print a game's protocol sheet to a PDF file."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from scorer.engine import RuleError


def register(subparsers) -> None:
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
                        help="the app's instance folder (default: the app's own)")
    parser.add_argument("-o", "--output", required=True, metavar="sheet.pdf",
                        help="where to write the PDF")
    parser.add_argument("--lang", choices=("ru", "en"), default="ru", help="sheet language")
    parser.add_argument("--landscape", action="store_true", help="A4 landscape")
    parser.add_argument("--appendix", action="store_true",
                        help="add the reasons behind every row")
    parser.set_defaults(func=run)


class InputError(Exception):
    """A problem with the input that is not a rule of the game (a missing file, say)."""


def _read_file(name: str) -> dict:
    """Read a game log from a file (or standard input), as a dict."""
    try:
        text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"game: file: cannot read {name} ({exc.strerror or exc})") from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"game: file: {name} is not UTF-8 text") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        detail = f"line {exc.lineno} column {exc.colno}: {exc.msg}"
        raise RuleError(None, "json", "json", detail=detail) from exc
    return data


def _database(instance: str | None) -> Path:
    """The app's SQLite file: in --instance, else where the web app keeps it."""
    if instance is None:
        from flask import Flask

        from scorer.web.app import instance_folder

        # Same rule as create_app(): $SCORER_INSTANCE, else Flask's default folder.
        instance = instance_folder(None) or Flask("scorer").instance_path
    return Path(instance) / "scorer.sqlite"


def _read_store(game_id: str, instance: str | None) -> dict:
    """Load a game log dict (head plus live deal records) from the app's database."""
    from scorer import store

    path = _database(instance)
    if not path.is_file():
        raise InputError(f"game: --instance: no database at {path}")
    if not game_id.isdigit():
        raise InputError(f"game: --game: a game id is a number (got {game_id!r})")
    games = store.Store(store.connect(path))
    try:
        row = games.game(int(game_id))
        if row is None:
            raise InputError(f"game: --game: no game with id {game_id} in {path}")
        return {**row.head, "deals": games.records(row.id)}
    finally:
        games.db.close()


def run(args: argparse.Namespace) -> int:
    """Load the game, render the sheet and write it; bad input is one line and status 2."""
    from scorer.engine import parse_game
    from scorer.pdf import render_sheet

    try:
        if args.game is not None:
            data = _read_store(args.game, args.instance)
        else:
            data = _read_file(args.game_file)
        if not isinstance(data, dict):
            raise RuleError(None, "format", "type", expected="a JSON object")
        pdf = render_sheet(parse_game(data), lang=args.lang, landscape=args.landscape,
                           appendix=args.appendix)
    except RuleError as err:
        print(err.message(args.lang), file=sys.stderr)
        return 2
    except InputError as err:
        print(err, file=sys.stderr)
        return 2
    try:
        Path(args.output).write_bytes(pdf)
    except OSError as exc:
        print(f"game: output: cannot write {args.output} ({exc.strerror or exc})",
              file=sys.stderr)
        return 2
    return 0
