"""A small thread-safe least-recently-used map, the shape of every cache in the web layer."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any


class Lru:
    """At most ``size`` entries; reading one makes it the newest, adding one past the size
    drops the oldest. ``items`` and ``lock`` are public so tests can empty a cache."""

    def __init__(self, size: int = 64):
        self.size = size
        self.items: OrderedDict[tuple, Any] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple) -> Any:
        """The entry, or None."""
        with self.lock:
            found = self.items.get(key)
            if found is not None:
                self.items.move_to_end(key)
            return found

    def put(self, key: tuple, value: Any) -> Any:
        """Remember an entry, dropping the oldest beyond the size; return it."""
        with self.lock:
            self.items[key] = value
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return value


def clear_caches(app: Any) -> None:
    """Empty every cache this app keeps (each is an Lru among its extensions), as after a
    restart; a cache added later is covered without being named here."""
    for found in list(app.extensions.values()):
        if isinstance(found, Lru):
            with found.lock:
                found.items.clear()
