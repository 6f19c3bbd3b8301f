"""The per-request database connection (flaskr style) and the init-db command."""

from __future__ import annotations

import click
from flask import Flask, current_app, g
from flask.cli import with_appcontext

from scorer import store


def get_store() -> store.Store:
    """The request's Store, opened on first use."""
    if "store" not in g:
        g.store = store.Store(store.connect(current_app.config["DATABASE"]))
    return g.store


def close_db(_exc: BaseException | None = None) -> None:
    """Close the request's connection, if one was opened."""
    st = g.pop("store", None)
    if st is not None:
        st.db.close()


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
    """Migrate on start and close connections after each request."""
    init_db(app.config["DATABASE"])
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)
