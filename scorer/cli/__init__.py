"""The ``python -m scorer`` command line: one module per group of subcommands."""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    # What ``add_subparsers`` returns; argparse makes it generic only in its stubs.
    Subparsers: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]

# Each module has ``register(subparsers)``; a subcommand's handler returns the exit code.
COMMAND_MODULES = ("replay", "compare", "serve", "pdf", "backup", "hostkey", "games", "stats",
                   "replica")


def build_parser() -> argparse.ArgumentParser:
    """Build the parser with every subcommand registered."""
    parser = argparse.ArgumentParser(prog="python -m scorer", description="Тысяча scorekeeper")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"scorer.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"scorer.cli.{name}":
                raise
            continue
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand and return its exit status."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        sys.stderr.close()
        return 0
