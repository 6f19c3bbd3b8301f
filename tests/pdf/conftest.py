"""Game logs for the sheet tests, built as GAME-FORMAT JSON and parsed by the real engine."""

import shutil
import subprocess

import pytest
from sheet_games import long_log, won_log

from scorer.engine import parse_game


@pytest.fixture
def make_long():
    """Build a long game (a Game) of ``deals`` records."""
    return lambda deals=120, names=None: parse_game(long_log(deals, names))


@pytest.fixture
def make_won():
    """Build a short finished game (a Game)."""
    return lambda names=None: parse_game(won_log(names))


@pytest.fixture(scope="session")
def pdftoppm():
    """The poppler renderer; its absence is a broken setup, not a reason to skip."""
    path = shutil.which("pdftoppm")
    assert path, "pdftoppm (poppler-utils) is required by the sheet tests"
    subprocess.run([path, "-v"], capture_output=True, check=True)
    return path
