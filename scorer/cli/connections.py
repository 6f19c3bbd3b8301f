"""Connection limits for ``serve``: what the process can hold, per address, and per request.

Waitress closes a connection only when it has been idle for ``channel_timeout``; a client
that sends one byte every few seconds is never idle, and one client may open as many
connections as the server accepts. On a table's Wi-Fi that lets one phone lock every
other one out. These limits are added to waitress' listening sockets after they are made:
a channel class that notes when its current request began, an admission check per address,
and a maintenance pass that closes requests still arriving past their deadline.
"""

from __future__ import annotations

import logging
import resource
import socket
import time
from collections.abc import Callable
from typing import Any

from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer

# Each connection may hold its socket, a spooled request body and a spooled response;
# the rest of the process (SQLite files of every thread, render workers' pipes, logs)
# keeps the reserve.
FDS_PER_CONNECTION = 3
FD_RESERVE = 128
MAX_CONNECTIONS = 1000

log = logging.getLogger("scorer.connections")


def open_files_limit() -> int:
    """Raise the soft limit on open files as far as serve can use it; return the soft limit.

    Many systems start processes with a soft limit of 1024 (macOS: 256) under a much
    higher hard limit; asking for more needs no privilege.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = MAX_CONNECTIONS * FDS_PER_CONNECTION + FD_RESERVE
    ceiling = wanted if hard == resource.RLIM_INFINITY else min(hard, wanted)
    if soft != resource.RLIM_INFINITY and soft < ceiling:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (ceiling, hard))
            soft = ceiling
        except (ValueError, OSError):
            pass  # keep the soft limit and fit the connection limit to it
    return MAX_CONNECTIONS * FDS_PER_CONNECTION + FD_RESERVE if soft == resource.RLIM_INFINITY \
        else soft


def connection_limit(files: int) -> int:
    """How many connections a process allowed this many open files can hold at once."""
    return max(8, min(MAX_CONNECTIONS, (files - FD_RESERVE) // FDS_PER_CONNECTION))


class TimedChannel(HTTPChannel):
    """A waitress channel that remembers since when its current request has been arriving."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """A new connection: its first request is due from now on."""
        super().__init__(*args, **kwargs)
        self.receiving_since: float | None = self.creation_time

    def received(self, data: bytes) -> bool:
        """Parse as waitress does; restart the clock when a new request begins."""
        partial = self.request
        result = super().received(data)
        if self.request is None:
            self.receiving_since = None  # whole requests handed over: idle rules apply
        elif self.request is not partial or self.receiving_since is None:
            self.receiving_since = time.time()
        return result


# The servers and channels below are waitress internals that types-waitress describes
# loosely (active_channels is a dict, not a channel), so they are typed Any here.
def guard(server: Any, per_address: int, request_seconds: float) -> None:
    """Add the per-address cap, room for a newcomer at the total cap, and the request
    deadline to every listening socket."""
    sockets = server.map.values() if hasattr(server, "effective_listen") else [server]
    for listener in list(sockets):
        if isinstance(listener, BaseWSGIServer):
            # Waitress calls these as plain attributes; the stubs declare a class and methods.
            listener.channel_class = _admission(listener, per_address)  # type: ignore[assignment]
            listener.maintenance = _maintenance(  # type: ignore[method-assign, assignment]
                listener, request_seconds)
            listener.readable = _readable(listener)  # type: ignore[method-assign]


def _full(srv: Any) -> bool:
    """Whether the server holds as many connections as it may."""
    return len(srv.active_channels) >= int(srv.adj.connection_limit)


def _victim(srv: Any) -> Any:
    """The connection that gives way to a newcomer at the cap: the one whose request has
    been arriving the longest, else the one idle the longest; None when every connection
    has a request being answered or an answer being sent."""
    best, best_key = None, (2, 0.0)
    for channel in srv.active_channels.values():
        if channel.requests or channel.total_outbufs_len or channel.will_close:
            continue
        since = getattr(channel, "receiving_since", None)
        key = (0, since) if since is not None else (1, channel.last_activity)
        if key < best_key:
            best, best_key = channel, key
    return best


def _readable(listener: Any) -> Callable[[], bool]:
    """Waitress stops accepting at the total cap, so a crowd of slow connections that
    fills it locks every phone out; keep accepting while a connection can give way."""
    stops = listener.readable

    def readable() -> bool:
        """Accept under the cap (waitress' own test), and at it while someone can yield."""
        return bool(stops()) or (listener.accepting and _victim(listener) is not None)

    return readable


def _admission(listener: Any, per_address: int) -> Callable[..., TimedChannel | None]:
    """The channel factory waitress calls on accept: refuse an address past its cap; at
    the total cap, close the slowest half-open connection to make room."""

    def admit(srv: Any, conn: socket.socket, addr: Any, adj: Any,
              map: Any = None) -> TimedChannel | None:
        """Open a channel for this connection, or close it if its address holds enough."""
        host = addr[0] if isinstance(addr, tuple) else addr
        held = sum(1 for ch in srv.active_channels.values()
                   if isinstance(ch.addr, tuple) and ch.addr[0] == host)
        if held >= per_address:
            conn.close()
            return None
        if _full(srv):
            victim = _victim(srv)
            if victim is None:  # every connection is being answered: no room after all
                conn.close()
                return None
            victim.handle_close()
        return TimedChannel(srv, conn, addr, adj, map=map)

    return admit


def _maintenance(listener: Any, request_seconds: float) -> Callable[[float], None]:
    """Waitress' idle clean-up, then close requests that have been arriving too long."""
    idle = listener.maintenance

    def maintenance(now: float) -> None:
        """Close idle channels and those whose request missed its deadline."""
        idle(now)
        cutoff = now - request_seconds
        for channel in list(listener.active_channels.values()):
            since = getattr(channel, "receiving_since", None)
            if since is not None and since < cutoff and not channel.requests:
                channel.will_close = True

    return maintenance
