"""Fixtures for the web tests."""

import pytest
from webtable import Table


@pytest.fixture
def table(client):
    """A Table over the test client."""
    return Table(client)
