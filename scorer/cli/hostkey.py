"""``python -m scorer host-key``: show the host key, or replace it with ``--rotate``.

The host key lives in the instance's config.py; a browser that opened the host link
keeps a keyed hash of it in its signed session cookie. Rotating writes a new key, so
every browser holding the old one loses host rights once the server has been restarted;
the game links it saw keep working unless ``--links`` gives every game new ones too.
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from scorer import store
from scorer.instance import database, instance_folder

if TYPE_CHECKING:
    from scorer.cli import Subparsers

_LINE = re.compile(r"^HOST_KEY\s*=.*$", re.MULTILINE)


def register(subparsers: Subparsers) -> None:
    """Add the ``host-key`` subcommand."""
    p = subparsers.add_parser("host-key", help="show the host key, or --rotate it")
    p.add_argument("--rotate", action="store_true",
                   help="write a new host key: browsers holding the old one lose host rights")
    p.add_argument("--links", action="store_true",
                   help="with --rotate: give every game new links too (old links stop working)")
    p.add_argument("--instance", metavar="DIR",
                   help="the app's data folder (default: $SCORER_INSTANCE or ./instance)")
    p.set_defaults(func=run)


def config_file(instance: str | None) -> Path:
    """The instance's config.py, made with fresh keys if it is not there yet."""
    from scorer.web.app import ensure_instance

    folder = instance_folder(instance)
    ensure_instance(str(folder))
    return folder / "config.py"


def rotate(config: Path) -> str:
    """Replace HOST_KEY in config.py (atomically, keeping the other settings); return it."""
    key = secrets.token_urlsafe(24)
    text = config.read_text(encoding="utf-8")
    line = f"HOST_KEY = {key!r}"
    text = _LINE.sub(line, text, count=1) if _LINE.search(text) else f"{text}\n{line}\n"
    part = config.with_name(config.name + ".part")
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
    os.replace(part, config)
    return key


def current(config: Path) -> str:
    """The host key config.py holds."""
    found = re.search(r"^HOST_KEY\s*=\s*['\"]([^'\"]+)['\"]", config.read_text("utf-8"),
                      re.MULTILINE)
    return found.group(1) if found else ""


def server_running(instance: str | None) -> bool:
    """True while a server holds the instance's database."""
    try:
        fd = store.hold(database(instance), exclusive=True)
    except store.HeldError:
        return True
    os.close(fd)
    return False


def replace_all_links(instance: str | None) -> int:
    """Give every game of the instance new edit and view tokens; return how many games."""
    db = store.connect(database(instance))
    try:
        store.migrate(db)
        return store.Store(db).replace_links()
    finally:
        db.conn.close()


def links_refusal(instance: str | None) -> str | None:
    """The one line refusing --links on a file this version must not write (checked before
    the key is rotated, so a refusal changes nothing), or None."""
    from scorer.cli import dbcheck

    path = database(instance)
    found, _ = dbcheck.problem(path)
    if not found:
        return None
    return (f"host-key: --links: {path}: {found}; nothing was changed (the host key "
            f"neither)")


def run(args: argparse.Namespace) -> int:
    """Print the host key; with --rotate write a new one first."""
    config = config_file(args.instance)
    if args.links and not args.rotate:
        print("host-key: --links: only with --rotate", file=sys.stderr)
        return 2
    if not args.rotate:
        print(f"host-key: {current(config)}")
        return 0
    if args.links and (found := links_refusal(args.instance)):
        print(found, file=sys.stderr)
        return 2
    key = rotate(config)
    print(f"host-key: new host key {key} written to {config}")
    print("host-key: browsers that held the old key no longer manage every game; "
          "open /?key=<new key> to become host again")
    if args.links:
        count = replace_all_links(args.instance)
        print(f"host-key: {count} games have new links; the old ones open nothing now")
    if server_running(args.instance):
        print("host-key: a server is running on this instance: restart it to use the new key",
              file=sys.stderr)
    return 0
