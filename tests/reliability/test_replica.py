"""``serve --replicate DEST`` with a folder replica and the real Litestream: the machine
dies (kill -9 of the server and of its companion), the database is gone, and the same
command on the same DEST brings back every deal acknowledged more than the sync interval
(scorer.cli.replica.SYNC_INTERVAL, 1 s) before the kill. What is lost inside that last
second is measured and printed."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from reliability_rig import Server, csrf_of, form_fields, pattern
from reliability_rig import version_of as form_version
from test_kill9 import start_game

from scorer import store
from scorer.cli.replica import SYNC_INTERVAL

ROOT = Path(__file__).resolve().parents[2]
DEALS = 50
INTERVAL = float(SYNC_INTERVAL.rstrip("s"))


def companion_of(server: Server) -> int:
    """The pid of the server's Litestream, as its banner names it."""
    found = re.search(r"companion pid (\d+)", server.banner)
    assert found, server.banner
    return int(found.group(1))


def post_deals(browser, game: str, count: int, pause: float) -> list[float]:
    """POST ``count`` pattern deals one after another; the moment each was acknowledged."""
    _s, html, _h = browser.request(game + "/deal")
    token, version = csrf_of(html), int(form_version(html))
    acked = []
    for n in range(count):
        status, _b, _h = browser.request(game + "/deal", {
            "csrf_token": token, "version": str(version + n), **form_fields(pattern(n))})
        assert status == 302, status
        acked.append(time.monotonic())
        time.sleep(pause)
    return acked


def stored_records(database: Path) -> list[dict]:
    """The first game's live records."""
    st = store.Store(store.connect(database))
    try:
        return st.records(1)
    finally:
        st.db.close()


def status_lines(instance: Path) -> str:
    """What ``python -m scorer replica status`` prints for this instance."""
    done = subprocess.run([sys.executable, "-m", "scorer", "replica", "status", "--instance",
                           str(instance), "--lang", "en"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_replica_brings_back_every_deal_older_than_the_sync_interval(tmp_path):
    """50 deals over about five seconds; the machine dies right after the last answer;
    the database is deleted; the same command restores it from the folder replica."""
    instance, replica = tmp_path / "inst", tmp_path / "usb-stick" / "thousand"
    replica.parent.mkdir()
    server = Server(instance, options=("--replicate", str(replica))).start()
    try:
        browser, game = start_game(server)
        acked = post_deals(browser, game, DEALS, pause=0.08)
        # The machine dies: Litestream first (no last sync on its way out), then the server.
        os.kill(companion_of(server), signal.SIGKILL)
        killed = time.monotonic()
        server.kill()
    finally:
        server.kill()
    database = instance / "scorer.sqlite"
    assert len(stored_records(database)) == DEALS
    for suffix in ("", "-wal", "-shm"):
        Path(f"{database}{suffix}").unlink(missing_ok=True)

    server = Server(instance, options=("--replicate", str(replica))).start()
    try:
        assert "restored scorer.sqlite from file://" in server.banner
        records = stored_records(database)
        assert records == [pattern(i) for i in range(len(records))]  # a prefix, in order
        old = [i for i, t in enumerate(acked) if killed - t > INTERVAL]
        assert old and max(old) < len(records), (len(records), max(old))
        lost = DEALS - len(records)
        inside = DEALS - len(old)
        print(f"\nreplica: sync interval {SYNC_INTERVAL}; {DEALS} deals acknowledged, "
              f"{len(old)} of them more than {SYNC_INTERVAL} before the kill, all back; "
              f"{inside} inside the last {SYNC_INTERVAL}, {lost} of those lost"
              + (f" (acknowledged {killed - acked[len(records)]:.2f} s or less before the "
                 "kill)" if lost else ""))
        # Replication goes on after the restore: a new deal reaches the replica.
        browser.base = server.base
        post_deals_after(browser, game, len(records))
        time.sleep(3 * INTERVAL)
        text = status_lines(instance)
        assert f"replica: {replica.as_uri()}" in text and "up to date" in text, text
    finally:
        os.kill(companion_of(server), signal.SIGTERM)
        server.kill()


def post_deals_after(browser, game: str, n: int) -> None:
    """One more pattern deal (number n+1) on the restored server."""
    _s, html, _h = browser.request(game + "/deal")
    status, _b, _h = browser.request(game + "/deal", {
        "csrf_token": csrf_of(html), "version": form_version(html), **form_fields(pattern(n))})
    assert status == 302, status


def test_a_dest_that_cannot_be_a_replica_is_one_line_and_status_2(tmp_path):
    """A folder on a stick that is not mounted, or an unknown URL: refused before serving."""
    for dest in (str(tmp_path / "not-mounted" / "thousand"), "ftp://example.invalid/x"):
        done = subprocess.run([sys.executable, "-m", "scorer", "serve", "--port", "0",
                               "--host", "127.0.0.1", "--instance", str(tmp_path / "i"),
                               "--replicate", dest], cwd=ROOT, capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 2
        assert done.stderr.count("\n") == 1 and "--replicate" in done.stderr, done.stderr
