"""pytest imports test modules by their bare names (rootdir mode, no packages): two files
of one name in different folders stop the whole run at collection."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_every_test_module_name_is_unique():
    """No two test_*.py files under tests/ share a name."""
    names = Counter(p.name for p in TESTS.rglob("test_*.py"))
    assert [n for n, count in names.items() if count > 1] == []
