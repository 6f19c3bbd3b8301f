"""A full disk and a read-only data folder: a write the disk refuses answers in the user's
language that nothing was saved, with the deal form again as typed (507 or 503); a
read-only instance at start gets one line from `serve`.

How the disk is made to refuse, honestly and without privileges:
- full: SQLite's own cap on the file (``PRAGMA max_page_count`` on the app's connection)
  answers SQLITE_FULL exactly as a full disk does;
- a disk that fails writes: the real server's file-size limit (RLIMIT_FSIZE, set with
  prlimit on the running process; SIGXFSZ ignored) makes the WAL's next write fail, which
  SQLite reports as a disk I/O error;
- read-only while serving: SQLite's ``PRAGMA query_only`` on the app's own connection
  (root ignores file modes, so chmod proves nothing when the tests run as root);
- read-only at start: a read-only bind mount of the data folder inside a private user and
  mount namespace (``unshare -rm``), which refuses writes to root as well.
"""

from __future__ import annotations

import re
import resource
import signal
import subprocess
import sys

from reliability_rig import Browser, Phone, Server, csrf_of, version_of

from scorer import store

TYPED = {"action": "play", "declarer": "1", "contract": "115", "points_0": "23",
         "points_2": "17"}


def deal_body(browser: Browser, game: str) -> dict:
    """The hidden fields of the game's deal form (CSRF, version, one-time id) and a deal."""
    _status, html, _headers = browser.request(game + "/deal")
    sid = re.search(r'name="sid" value="([^"]+)"', html).group(1)
    return {"csrf_token": csrf_of(html), "version": version_of(html), "sid": sid, **TYPED}


def shows_typed(html: str) -> bool:
    """Whether the deal form shows the typed contract and points again."""
    return ('id="contract" name="contract" value="115"' in html
            and re.search(r'name="points_0"[^>]*value="23"', html) is not None
            and re.search(r'name="points_2"[^>]*value="17"', html) is not None)


def deals_stored(path) -> int:
    """How many deal slots the file holds."""
    db = store.connect(path)
    try:
        return db.execute("select count(*) from deals").fetchone()[0]
    finally:
        db.close()


def started(browser: Browser) -> str:
    """Start a 3-player game through the real form; return its edit path."""
    _status, html, _headers = browser.request("/new")
    status, _body, headers = browser.request("/new", {
        "csrf_token": csrf_of(html), "first_dealer": "0", "preset": "classic",
        "action": "start", "name0": "Аня", "name1": "Борис", "name2": "Вика"})
    assert status == 302
    return re.sub(r"^https?://[^/]+", "", headers["Location"])


def test_a_full_database_keeps_the_typed_deal_and_saves_nothing(app):
    """SQLite's own size cap (PRAGMA max_page_count, on the app's connection) stands for a
    full disk: deals are saved until one needs a new page; that post answers 507 in
    Russian with the form as typed and stores nothing; with room again it saves."""
    phone = Phone(app)
    game = phone.new_game()
    db = app.extensions["scorer_stores"].get().db
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages}")
    saved = 0
    for _ in range(400):  # every deal fills the last pages a little more
        html = phone.client.get(game + "/deal").get_data(as_text=True)
        body = {"csrf_token": csrf_of(html), "version": version_of(html), **TYPED}
        r = phone.client.post(game + "/deal", data=body)
        if r.status_code != 302:
            break
        saved += 1
    page = r.get_data(as_text=True)
    assert r.status_code == 507, page[:2000]
    assert "Ничего не сохранено: на диске сервера нет места" in page
    assert shows_typed(page) and "исправьте отмеченное" not in page
    assert deals_stored(app.config["DATABASE"]) == saved
    db.execute(f"PRAGMA max_page_count = {pages * 100}")
    assert phone.client.post(game + "/deal", data=body).status_code == 302
    assert deals_stored(app.config["DATABASE"]) == saved + 1


def test_a_disk_that_refuses_writes_keeps_the_typed_deal(tmp_path):
    """The real server's files may not grow (SQLite sees an I/O error): the deal post
    answers 503 in Russian, saying nothing was saved, with the form as typed; once the
    disk takes writes again, the same post saves."""
    instance = tmp_path / "instance"
    old = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # inherited: EFBIG, not death
    try:
        server = Server(instance).start()
    finally:
        signal.signal(signal.SIGXFSZ, old)
    try:
        browser = Browser(server.base)
        game = started(browser)
        database = instance / "scorer.sqlite"
        wal = database.with_name("scorer.sqlite-wal")
        # SQLite reports the EFBIG of a file past the limit as SQLITE_IOERR_WRITE (only
        # ENOSPC is SQLITE_FULL, tested above with max_page_count). Only the soft limit is
        # lowered, so it can be raised again without privileges.
        room, infinity = wal.stat().st_size, resource.RLIM_INFINITY
        resource.prlimit(server.proc.pid, resource.RLIMIT_FSIZE, (room, infinity))
        saved = 0
        for _ in range(40):  # the WAL grows with every write: one soon crosses the limit
            body = deal_body(browser, game)
            status, html, _headers = browser.request(game + "/deal", body)
            if status != 302:
                break
            saved += 1
        assert status == 503, html[:2000]
        assert "Ничего не сохранено: сервер не может писать в свою папку данных" in html
        assert shows_typed(html)
        assert deals_stored(database) == saved
        resource.prlimit(server.proc.pid, resource.RLIMIT_FSIZE, (infinity, infinity))
        status, _html, _headers = browser.request(game + "/deal", body)
        assert status == 302
        assert deals_stored(database) == saved + 1
        assert browser.request(game)[0] == 200
    finally:
        server.kill()
    log = (tmp_path / "serve-0.log").read_text(encoding="utf-8")
    assert "Traceback" not in log and log.count("write refused by the disk") == 1, log


def read_only(app) -> None:
    """Make the app's connection on this thread refuse every write, as a read-only file does."""
    app.extensions["scorer_stores"].get().db.execute("PRAGMA query_only = 1")


def test_a_read_only_database_keeps_the_typed_deal(app):
    """Read-only while serving: 503 with the form as typed, in Russian and in English; other
    writes (a delete) get the error page in the user's language; nothing changes."""
    phone = Phone(app)
    game = phone.new_game()
    phone.deal(game, declarer="0", contract="100", points_1="10", points_2="10")
    before = phone.client.get(game + "/export.json").get_json()
    read_only(app)
    html = phone.client.get(game + "/deal").get_data(as_text=True)
    body = {"csrf_token": csrf_of(html), "version": version_of(html), **TYPED}
    r = phone.client.post(game + "/deal", data=body)
    page = r.get_data(as_text=True)
    assert r.status_code == 503
    assert "Ничего не сохранено: сервер не может писать в свою папку данных" in page
    assert shows_typed(page) and "исправьте отмеченное" not in page
    phone.client.set_cookie("lang", "en")
    r = phone.client.post(game + "/deal", data=body)
    assert r.status_code == 503 and shows_typed(r.get_data(as_text=True))
    assert "Nothing was saved: the server cannot write" in r.get_data(as_text=True)
    phone.client.set_cookie("lang", "ru")
    r = phone.client.post(game + "/deal/1/delete", data=body)
    assert r.status_code == 503
    assert "Ничего не сохранено: сервер не может писать" in r.get_data(as_text=True)
    app.extensions["scorer_stores"].get().db.execute("PRAGMA query_only = 0")
    assert phone.client.get(game + "/export.json").get_json() == before


def test_a_read_only_database_keeps_the_typed_new_game(app):
    """The new-game form on a read-only database: 503, the names as typed, nothing stored."""
    phone = Phone(app)
    read_only(app)
    html = phone.client.get("/new").get_data(as_text=True)
    r = phone.client.post("/new", data={"csrf_token": csrf_of(html), "first_dealer": "1",
                                        "preset": "classic", "action": "start",
                                        "name0": "Аня", "name1": "Борис", "name2": "Вика"})
    page = r.get_data(as_text=True)
    assert r.status_code == 503 and 'id="disk-error"' in page
    assert "Ничего не сохранено: сервер не может писать" in page
    assert all(f'value="{name}"' in page for name in ("Аня", "Борис", "Вика"))
    app.extensions["scorer_stores"].get().db.execute("PRAGMA query_only = 0")
    assert phone.client.get("/").status_code == 200
    db = store.connect(app.config["DATABASE"])
    try:
        assert db.execute("select count(*) from games").fetchone()[0] == 0
    finally:
        db.close()


def test_serve_on_a_read_only_folder_says_so_in_one_line(tmp_path):
    """A data folder mounted read-only: `serve` exits 2 with one line naming the folder and
    the system's reason, not a traceback."""
    instance = tmp_path / "instance"
    server = Server(instance).start()  # first start: config.py and the database exist
    server.kill()
    script = ('mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"')
    done = subprocess.run(
        ["unshare", "-rm", "sh", "-c", script, "sh", str(instance), sys.executable, "-m",
         "scorer", "serve", "--host", "127.0.0.1", "--port", "0", "--instance",
         str(instance)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith(f"serve: --instance: cannot write to {instance}")
    assert "Read-only file system" in lines[0]
