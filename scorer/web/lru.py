"""A small thread-safe least-recently-used map weighed by its entries, the shape of the
web layer's caches."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def one(_value: object) -> int:
    """Every entry weighs the same."""
    return 1


class Lru(Generic[K, V]):
    """Entries up to a total weight of ``budget``: reading one makes it the newest, adding
    one drops the oldest until the rest fit (the newest is always kept)."""

    def __init__(self, budget: int, weight: Callable[[V], int] = one) -> None:
        self.budget = budget
        self.weight = weight
        self.total = 0
        self.items: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The entry, or None."""
        with self.lock:
            found = self.items.get(key)
            if found is None:
                return None
            self.items.move_to_end(key)
            return found[0]

    def put(self, key: K, value: V) -> V:
        """Remember an entry, dropping the oldest beyond the budget; return it."""
        weight = self.weight(value)
        with self.lock:
            old = self.items.pop(key, None)
            if old is not None:
                self.total -= old[1]
            self.items[key] = (value, weight)
            self.total += weight
            while self.total > self.budget and len(self.items) > 1:
                _key, (_value, dropped) = self.items.popitem(last=False)
                self.total -= dropped
        return value

    def clear(self) -> None:
        """Forget every entry."""
        with self.lock:
            self.items.clear()
            self.total = 0


def clear_caches(app: Any) -> None:
    """Empty every cache this app keeps (each is an Lru among its extensions), as after a
    restart; a cache added later is covered without being named here."""
    for found in list(app.extensions.values()):
        if isinstance(found, Lru):
            found.clear()
