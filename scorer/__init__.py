"""Scorekeeping companion for Тысяча.

The Flask app factory lives in :mod:`scorer.web.app`; it is imported lazily here so
that ``import scorer.engine`` never pulls in Flask.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

__version__ = "0.1.0"


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Create the Flask app (imported lazily so the engine stays Flask-free)."""
    from scorer.web.app import create_app as _create_app

    return _create_app(test_config)
