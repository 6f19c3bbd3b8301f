"""``/healthz``: 200 only while the database opens and its schema is current."""

from __future__ import annotations

import os

from scorer import store


def test_healthy_instance_answers_200(client):
    """A migrated database: 200, «ok», never cached."""
    r = client.get("/healthz")
    assert r.status_code == 200 and r.get_data(as_text=True) == "ok\n"
    assert r.headers["Cache-Control"] == "no-store"


def test_a_pending_migration_is_503_and_names_it(client, app):
    """A file one migration behind (as an old backup restored by hand) is not current."""
    client.get("/healthz")
    db = store.connect(app.config["DATABASE"])
    with db.conn:
        db.execute("delete from _sqlite_migrations where name = 'm010_agreement_revisions'")
    db.close()
    r = client.get("/healthz")
    assert r.status_code == 503 and "m010_agreement_revisions" in r.get_data(as_text=True)


def test_a_missing_or_damaged_file_is_503_and_nothing_is_created(client, app):
    """Deleted under the running app: 503, and asking does not make an empty file."""
    path = app.config["DATABASE"]
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    r = client.get("/healthz")
    assert r.status_code == 503 and "cannot open" in r.get_data(as_text=True)
    assert not os.path.exists(path)
    with open(path, "wb") as f:
        f.write(b"this is not a database" * 100)
    r = client.get("/healthz")
    assert r.status_code == 503 and "cannot read" in r.get_data(as_text=True)
