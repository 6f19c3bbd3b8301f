"""``python -m scorer serve``: run the table app on the local network with waitress."""

from __future__ import annotations

import argparse
import gc
import logging
import os
import socket
import sys
from typing import TYPE_CHECKING, Any

from scorer.instance import database, instance_folder

if TYPE_CHECKING:
    from waitress.server import BaseWSGIServer, MultiSocketServer

    from scorer.cli import Subparsers

THREADS = 8

# Waitress settings for a table app on a shared network. The body limit is the app's own
# (MAX_CONTENT_LENGTH), so waitress refuses a huge upload before spooling it to /tmp;
# a higher connection limit and a short idle timeout keep a crowd of trickling
# connections from locking the tables out (channels idle this long are closed).
CONNECTION_LIMIT = 1000
CHANNEL_TIMEOUT = 20
CLEANUP_INTERVAL = 5
MAX_HEADER_BYTES = 64 * 1024
# Middle-generation passes between two full garbage collections (Python's default is 10).
FULL_PASS_EVERY = 100


def waitress_options() -> dict[str, Any]:
    """The keyword arguments serve passes to waitress besides host and port."""
    from scorer.web.app import MAX_CONTENT_LENGTH

    return {"threads": THREADS, "ident": "scorer",
            "max_request_body_size": MAX_CONTENT_LENGTH,
            "max_request_header_size": MAX_HEADER_BYTES,
            "connection_limit": CONNECTION_LIMIT, "channel_timeout": CHANNEL_TIMEOUT,
            "cleanup_interval": CLEANUP_INTERVAL}


def settle_heap() -> None:
    """Collect once, then freeze what start-up built, so full collections skip it.

    Start-up leaves some 80 000 objects (Flask, Jinja, WeasyPrint, the catalog) that live as
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


def register(subparsers: Subparsers) -> None:
    """Add the ``serve`` subcommand."""
    p = subparsers.add_parser("serve", help="run the web app for phones on the local network")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0)")
    p.add_argument("--port", type=int, default=8000,
                   help="port (default 8000; 0: any free port, shown in the printed link)")
    p.add_argument("--instance", help="data folder (default $SCORER_INSTANCE or ./instance)")
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


def run(args: argparse.Namespace) -> int:
    """Create the instance on first start, listen, print the link and QR, and serve."""
    # create_app() reads $SCORER_INSTANCE: the same folder the other commands resolve.
    os.environ["SCORER_INSTANCE"] = str(instance_folder(args.instance))
    # Imported here: the app pulls in WeasyPrint and the blueprints (a second), which every
    # other command would pay for too, since the parser loads this module.
    from waitress import create_server  # type: ignore[attr-defined]  # not in the stubs

    from scorer import store
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
    app = create_app()
    app.config["DATABASE_LOCK"] = lock
    logging.basicConfig()  # waitress reports its warnings through logging
    try:
        server = create_server(app, host=args.host, port=args.port, **waitress_options())
    except OSError as exc:
        print(f"serve: --port: cannot listen on {args.host}:{args.port} ({exc.strerror or exc})",
              file=sys.stderr)
        return 2
    # Bound before the banner, so the printed link carries the real port (--port 0 too).
    url = f"http://{lan_address(args.host)}:{bound_port(server)}/?key={app.config['HOST_KEY']}"
    print(banner(url, app.config["HOST_KEY"]), flush=True)
    print(f"data: {app.instance_path}", flush=True)
    settle_heap()
    server.run()
    return 0
