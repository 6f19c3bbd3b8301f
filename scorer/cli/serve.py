"""``python -m scorer serve``: run the table app on the local network with waitress."""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import gc
import logging
import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorer.engine.texts import LANGUAGES
from scorer.instance import database, instance_folder

if TYPE_CHECKING:
    from waitress.server import BaseWSGIServer, MultiSocketServer

    from scorer.cli import Subparsers
    from scorer.cli.replica import Replica

THREADS = 8

# Waitress settings for a table app on a shared network. The body limit is the app's own
# (MAX_CONTENT_LENGTH), so waitress refuses a huge upload before spooling it to /tmp;
# channels idle this long are closed. The connection limit follows the open-files limit
# (scorer/cli/connections.py); poll() instead of select() takes descriptors past 1024.
CHANNEL_TIMEOUT = 20
CLEANUP_INTERVAL = 2
# Per client address, and how long one request may take to arrive (a 2 MB import on a
# poor Wi-Fi link needs well under a minute). Config keys of the same names change them,
# e.g. behind a reverse proxy, where every connection comes from the proxy's address.
CONNECTIONS_PER_ADDRESS = 32
REQUEST_SECONDS = 60
MAX_HEADER_BYTES = 64 * 1024
# Middle-generation passes between two full garbage collections (Python's default is 10).
FULL_PASS_EVERY = 100
# glibc's mallopt() parameter, and the size from which a buffer gets pages of its own.
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 128 * 1024


def waitress_options(open_files: int | None = None) -> dict[str, Any]:
    """The keyword arguments serve passes to waitress besides host and port."""
    from scorer.cli import connections  # imports waitress: only when serving
    from scorer.web.app import MAX_CONTENT_LENGTH

    files = open_files if open_files is not None else connections.open_files_limit()
    return {"threads": THREADS, "ident": "scorer",
            "max_request_body_size": MAX_CONTENT_LENGTH,
            "max_request_header_size": MAX_HEADER_BYTES,
            "connection_limit": connections.connection_limit(files),
            "channel_timeout": CHANNEL_TIMEOUT, "cleanup_interval": CLEANUP_INTERVAL,
            "asyncore_use_poll": True,
            # Keeps reading a connection while its request runs, so a render whose client
            # hung up is seen (waitress.client_disconnected) and stopped.
            "channel_request_lookahead": 1}


def settle_heap() -> None:
    """Collect once, then freeze what start-up built, so full collections skip it.

    Start-up leaves tens of thousands of objects (Flask, Jinja, the catalog) that live as
    long as the process; every full collection walked them all, 50-80 ms on a small
    machine, and stalled whichever request was running. Frozen, a full pass walks only
    what the evening adds (the games being played). Full passes also come ten times less
    often: the cached games are acyclic (reference counting frees them) and the young
    passes still collect the cycles a request leaves, so waiting longer costs little memory.
    """
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_PASS_EVERY)


def settle_allocator() -> None:
    """Make glibc give a large buffer's memory back to the system when it is freed.

    glibc serves a buffer of 128 KB or more with pages of its own, but once such a buffer
    is freed it raises that threshold to the buffer's size (up to 32 MB), and later buffers
    come from its per-thread heaps, which keep what they grew. An import decodes a 1 MB
    file into megabytes of lists and text: after eight at once the server kept 30-50 MB
    more for good. A fixed threshold keeps it at 10-15 MB. Other C libraries (macOS, musl)
    are left as they are.
    """
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)


def register(subparsers: Subparsers) -> None:
    """Add the ``serve`` subcommand."""
    p = subparsers.add_parser("serve", help="run the web app for phones on the local network")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0)")
    p.add_argument("--port", type=int, default=8000,
                   help="port (default 8000; 0: any free port, shown in the printed link)")
    p.add_argument("--instance", help="data folder (default $SCORER_INSTANCE or ./instance)")
    p.add_argument("--trusted-host", action="append", default=[], metavar="NAME",
                   help="another host name pages may be asked for, e.g. a reverse proxy's "
                        "(repeatable; config key TRUSTED_HOSTS too)")
    p.add_argument("--lang", choices=LANGUAGES, default=None,
                   help="the instance's language for browsers that ask for none of ours "
                        "(default: config key SCORER_LANGUAGE, else ru)")
    p.add_argument("--replicate", metavar="DEST",
                   help="stream the database to DEST with Litestream: a folder, s3://… or "
                        "sftp://… (restored from it first when the database is missing)")
    p.set_defaults(func=run)


def lan_address(host: str) -> str:
    """The address phones on the network should open."""
    if host not in ("0.0.0.0", "", "::"):
        return host
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        # connect() on UDP only picks the outgoing interface; no packet is sent.
        probe.connect(("10.255.255.255", 1))
        return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def trusted_hosts(host: str, lan: str, extra: list[str]) -> list[str]:
    """The names a request may carry in its Host header: this machine's, and extra.

    A page on any other site can make a phone's browser send requests here under its own
    name (DNS rebinding); refusing unknown names keeps such requests out and keeps a forged
    name out of the links the share page builds.
    """
    name = socket.gethostname()
    names = ["localhost", "127.0.0.1", lan, name, f"{name}.local", socket.getfqdn()]
    if host not in ("0.0.0.0", "", "::"):
        names.append(host)
    # A host name the resolver does not know adds no address; the other names still hold.
    with contextlib.suppress(OSError):
        names += [str(info[4][0]) for info in socket.getaddrinfo(name, None, socket.AF_INET)]
    return list(dict.fromkeys(n for n in [*names, *extra] if n))


def banner(url: str, host_key: str) -> str:
    """What the terminal shows on start: the link with the host key, and its QR code."""
    import io

    import segno

    qr = io.StringIO()
    segno.make(url, error="l").terminal(out=qr, compact=True)
    return (
        f"Тысяча / Thousand — open on this network:\n  {url}\n"
        f"(the link carries the host key {host_key}: the browser that opens it manages "
        "every game; share game links from the game page instead)\n\n"
        f"{qr.getvalue()}"
    )


def bound_port(server: MultiSocketServer | BaseWSGIServer) -> int:
    """The port waitress listens on (the system's choice with --port 0)."""
    listen = getattr(server, "effective_listen", None)  # several sockets: the first one
    if listen:
        return int(listen[0][1])
    # Set when the socket is bound; types-waitress does not declare it.
    return int(server.effective_port)  # type: ignore[union-attr]


def checked_database(path: Path) -> bool:
    """Check the database before anything writes to it: one line on stderr if damaged."""
    from scorer.cli import dbcheck

    found, seconds = dbcheck.problem(path)
    if found:
        print(dbcheck.refusal(path, found), file=sys.stderr)
        return False
    if seconds:
        print(f"check: {path.name} is sound (PRAGMA integrity_check, schema, club rows,"
              f" {seconds * 1000:.0f} ms)",
              flush=True)
    return True


def unwritable(exc: OSError | sqlite3.Error) -> str:
    """The system's or SQLite's own words for why the data folder cannot be written."""
    return (exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc))


def run(args: argparse.Namespace) -> int:
    """Create the instance on first start, listen, print the link and QR, and serve."""
    settle_allocator()
    # create_app() reads $SCORER_INSTANCE: the same folder the other commands resolve.
    os.environ["SCORER_INSTANCE"] = str(instance_folder(args.instance))
    # Imported here: the app pulls in Flask, Jinja and the blueprints, which every other
    # command would pay for too, since the parser loads this module.
    from waitress import create_server  # type: ignore[attr-defined]  # not in the stubs

    from scorer import store
    from scorer.cli import connections
    from scorer.web.app import create_app

    path = database(args.instance)
    try:
        # Held (shared) until the process ends: `restore` refuses while it is held. Taken
        # before the app migrates the file, so no start slips into a running restore.
        lock = store.hold(path, exclusive=False)
    except store.HeldError:
        print(f"serve: --instance: a restore is running on {path}; "
              "start the server when it has finished", file=sys.stderr)
        return 2
    except OSError as exc:  # the lock file cannot be made: a read-only folder, a full disk
        print(f"serve: --instance: cannot write to {path.parent} ({unwritable(exc)}); "
              "the data folder must be writable and have free space", file=sys.stderr)
        return 2
    try:
        replica = replicated(path, getattr(args, "replicate", None))
    except ValueError as exc:  # the replica's error: no binary, a bad DEST, a failed restore
        print(f"serve: --replicate: {exc}", file=sys.stderr)
        return 2
    if not checked_database(path):  # before the app migrates (writes to) the file
        return 2
    try:
        # Before the app exists: Flask gives its logger a handler of its own only when no
        # handler is configured yet, and with the root's as well every error printed twice.
        logging.basicConfig()  # waitress reports its warnings through logging
        app = create_app()
    except (OSError, sqlite3.Error) as exc:  # a read-only folder, a full disk
        print(f"serve: --instance: cannot write to {path.parent} ({unwritable(exc)}); "
              "the data folder must be writable and have free space", file=sys.stderr)
        return 2
    app.config["DATABASE_LOCK"] = lock
    if getattr(args, "lang", None):  # the instance's default language (scorer.web.i18n)
        app.config["SCORER_LANGUAGE"] = args.lang
    try:
        options = waitress_options()
        server = create_server(app, host=args.host, port=args.port, **options)
    except OSError as exc:
        print(f"serve: --port: cannot listen on {args.host}:{args.port} ({exc.strerror or exc})",
              file=sys.stderr)
        return 2
    per_address = int(app.config.get("CONNECTIONS_PER_ADDRESS", CONNECTIONS_PER_ADDRESS))
    connections.guard(server, per_address,
                      float(app.config.get("REQUEST_SECONDS", REQUEST_SECONDS)))
    lan = lan_address(args.host)
    app.config["TRUSTED_HOSTS"] = trusted_hosts(
        args.host, lan, [*args.trusted_host, *(app.config.get("TRUSTED_HOSTS") or [])])
    # Bound before the banner, so the printed link carries the real port (--port 0 too).
    url = f"http://{lan}:{bound_port(server)}/?key={app.config['HOST_KEY']}"
    print(banner(url, app.config["HOST_KEY"]), flush=True)
    print(f"connections: up to {options['connection_limit']}, {per_address} per address",
          flush=True)
    companion = None
    if replica:
        from scorer.cli import replica as litestream

        companion = litestream.start(replica)  # after the app migrated the file
        print(f"replica: {replica.url} (every {litestream.SYNC_INTERVAL}, "
              f"companion pid {companion.pid})", flush=True)
    print(f"data: {app.instance_path}", flush=True)
    settle_heap()
    try:
        server.run()
    finally:
        if companion is not None:
            litestream.stop(companion)
    return 0


def replicated(path: Path, dest: str | None) -> Replica | None:
    """With --replicate: the replica, restored into ``path`` first when the database is
    missing (ReplicaError when replication cannot start); else None."""
    if not dest:
        return None
    from scorer.cli import replica as litestream

    try:
        found = litestream.Replica(path, litestream.replica_url(dest))
        litestream.binary()
        if litestream.restore_if_missing(found):
            print(f"restored {path.name} from {found.url}", flush=True)
    except (OSError, subprocess.SubprocessError) as exc:
        raise litestream.ReplicaError(str(exc)) from exc
    return found
