"""Turns at costly work (PDF renders, comparisons of long games): the host's own, a few
shared by every other browser, and at most one at a time per network address.

A turn that cannot be had says so at once (or after a short wait for a shared one), so
a crowd asking for costly answers never holds waitress' few threads: they stay free for
the phones at the table.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field


@dataclass
class Turns:
    """``shared`` turns for everyone but the host, ``host`` turns of the host's own; a
    shared turn is waited for at most ``wait`` seconds."""

    shared: int
    host: int
    wait: float
    _shared: threading.BoundedSemaphore = field(init=False, repr=False)
    _host: threading.BoundedSemaphore = field(init=False, repr=False)
    _busy: set[str] = field(default_factory=set, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def __post_init__(self) -> None:
        """Make the semaphores of the given sizes."""
        self._shared = threading.BoundedSemaphore(self.shared)
        self._host = threading.BoundedSemaphore(self.host)

    @contextlib.contextmanager
    def turn(self, host: bool, address: str) -> Iterator[bool]:
        """The host's own turn, or for others a shared one while this address has none in
        progress; yields False when there is none."""
        if host:
            with self._held(self._host) as taken:
                yield taken
            return
        with self._address(address) as free:
            if not free:
                yield False
                return
            with self._held(self._shared) as taken:
                yield taken

    @contextlib.contextmanager
    def _held(self, slots: threading.BoundedSemaphore) -> Iterator[bool]:
        """One of these slots if one comes free within ``wait`` seconds (True), else False."""
        taken = slots.acquire(timeout=self.wait)
        try:
            yield taken
        finally:
            if taken:
                slots.release()

    @contextlib.contextmanager
    def _address(self, address: str) -> Iterator[bool]:
        """This address's turn (False while it has one in progress)."""
        with self._lock:
            busy = address in self._busy
            self._busy.add(address)
        try:
            yield not busy
        finally:
            if not busy:
                with self._lock:
                    self._busy.discard(address)
