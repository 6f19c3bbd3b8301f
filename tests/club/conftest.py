"""Fixtures of the club's tests: a migrated store on a real SQLite file."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from club_games import new_store  # noqa: E402


@pytest.fixture
def st(tmp_path):
    """A migrated store on a real file, closed afterwards."""
    made = new_store(tmp_path / "club.sqlite")
    yield made
    made.db.close()
