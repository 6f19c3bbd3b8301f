"""When the disk cannot take a write: SQLite's full, read-only and I/O errors, answered in
the user's language with "nothing was saved" (507 or 503) instead of an English 500."""

from __future__ import annotations

import sqlite3

from flask import Flask, current_app, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

# SQLite's primary result codes (the low byte of an extended code).
SQLITE_READONLY = 8
SQLITE_IOERR = 10
SQLITE_FULL = 13
SQLITE_CANTOPEN = 14


def failure(exc: BaseException) -> tuple[str, int] | None:
    """(what to tell the user, status) when exc says the disk refused a write; else None."""
    code = getattr(exc, "sqlite_errorcode", None)
    if not isinstance(exc, sqlite3.Error) or code is None:
        return None
    primary = code & 0xFF
    if primary == SQLITE_FULL:
        return _("Nothing was saved: the server's disk is full. What you typed is still "
                 "here; ask the host to free some space, then save again."), 507
    if primary in (SQLITE_READONLY, SQLITE_IOERR, SQLITE_CANTOPEN):
        return _("Nothing was saved: the server cannot write to its data folder (it is "
                 "read-only or the disk is failing). What you typed is still here; ask the "
                 "host, then save again."), 503
    return None


def noted(exc: BaseException) -> tuple[str, int] | None:
    """failure(exc), logged in one line for the host (no traceback: nothing is broken)."""
    found = failure(exc)
    if found is not None:
        current_app.logger.warning("write refused by the disk on %s %s: %s",
                                   request.method, request.path, exc)
    return found


def storage_error(exc: sqlite3.Error) -> ResponseReturnValue:
    """Any other write the disk refused: the error page in the user's language."""
    found = noted(exc)
    if found is None:
        raise exc  # a real fault: Flask logs it once and answers 500
    text, status = found
    if request.accept_mimetypes.best == "application/json":
        return {"error": text}, status
    return render_template("errors/error.html", code=status, text=text), status


def init_app(app: Flask) -> None:
    """Register the handler for SQLite's errors."""
    app.register_error_handler(sqlite3.Error, storage_error)
