"""The database connection of each worker thread (kept, not opened per request) and the
init-db command."""

from __future__ import annotations

import os
import threading

import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from scorer import store


class ThreadStores:
    """One Store per worker thread for one app's database file.

    Opening and closing a connection per request costs a WAL checkpoint at every close;
    a kept connection costs nothing. Each app has its own (tests build many apps on many
    files). The file's identity is checked on use: if the file at the path was replaced
    (a restore that renames a file into place), the thread opens the new one.
    """

    def __init__(self, path: str):
        self.path = path
        self.local = threading.local()

    def get(self) -> store.Store:
        """This thread's Store, opened on first use or after the file was replaced."""
        ident = file_identity(self.path)
        st: store.Store | None = getattr(self.local, "store", None)
        if st is not None and self.local.ident == ident:
            return st
        if st is not None:
            st.db.close()
        st = store.Store(store.connect(self.path))
        self.local.store, self.local.ident = st, file_identity(self.path)
        return st

    def tidy(self) -> None:
        """End a transaction a failed request may have left open on this thread."""
        st = getattr(self.local, "store", None)
        if st is not None and st.db.conn.in_transaction:
            st.db.conn.rollback()


def file_identity(path: str) -> tuple[int, int] | None:
    """(device, inode) of the file, or None if it does not exist yet."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def stores() -> ThreadStores:
    """The current app's per-thread stores."""
    found: ThreadStores = current_app.extensions["scorer_stores"]
    return found


def get_store() -> store.Store:
    """The calling thread's Store for the current app."""
    return stores().get()


def close_db(_exc: BaseException | None = None) -> None:
    """After a request: the connection stays open, but no transaction may stay open."""
    found = current_app.extensions.get("scorer_stores")
    if found is not None:
        found.tidy()


def init_db(path: str) -> None:
    """Create or upgrade the schema."""
    conn = store.connect(path)
    try:
        store.migrate(conn)
    finally:
        conn.close()


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create or upgrade the database tables."""
    init_db(current_app.config["DATABASE"])
    click.echo("Initialized the database.")


def init_app(app: Flask) -> None:
    """Migrate on start; keep one connection per worker thread."""
    init_db(app.config["DATABASE"])
    app.extensions["scorer_stores"] = ThreadStores(app.config["DATABASE"])
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)
