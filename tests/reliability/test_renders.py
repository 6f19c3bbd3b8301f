"""PDF sheets against the real `serve` command: a stranger's long renders neither make the
host's own sheet wait nor outlive their time limit, and the server's memory stays where
it was after sheets of long games (each render runs in a child process that exits)."""

from __future__ import annotations

import http.client
import os
import socket
import threading
import time
from pathlib import Path

from reliability_rig import HEAD, Browser, pattern, serve_with

from scorer import store
from scorer.paths import DATABASE_NAME

HOST_KEY = "h" * 32  # the key serve_with writes into config.py


def add_game(instance: Path, deals: int) -> str:
    """Store a game of this many deals behind the server's back; return its edit path."""
    st = store.Store(store.connect(instance / DATABASE_NAME))
    try:
        row = st.create_game(HEAD, [pattern(i) for i in range(deals)])
    finally:
        st.db.conn.close()
    return f"/g/{row.edit_token}"


def rss_mb(pid: int) -> float:
    """The process' resident memory in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def children_of(pids: list[int]) -> list[int]:
    """The processes whose parent is one of pids."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue  # ended meanwhile
            if int(stat.rsplit(")", 1)[1].split()[1]) in pids:
                found.append(int(entry))
    return found


def rendering(pid: int) -> list[int]:
    """The render children of the server: those its forkserver process forked."""
    forkservers = [p for p in children_of([pid])
                   if b"forkserver" in Path(f"/proc/{p}/cmdline").read_bytes()]
    return children_of(forkservers) if forkservers else []


def quiet_after(pid: int, seconds: float) -> float | None:
    """Seconds until no render child of the server is seen twice in a row (0.2 s apart),
    or None if one still runs after ``seconds``. Twice: one reading of /proc once came
    back empty while a render still ran, which let a check pass and the next one fail."""
    start = time.monotonic()
    quiet = 0
    while time.monotonic() < start + seconds:
        quiet = 0 if rendering(pid) else quiet + 1
        if quiet == 2:
            return time.monotonic() - start
        time.sleep(0.2)
    return None


def hang_up_after(port: int, path: str, source: str, seconds: float) -> threading.Thread:
    """A stranger asks for a sheet and hangs up after a moment, as a closed tab does."""
    def ask() -> None:
        """Send the request, wait, close."""
        with socket.create_connection(("127.0.0.1", port), timeout=10,
                                      source_address=(source, 0)) as sock:
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            time.sleep(seconds)
    thread = threading.Thread(target=ask, daemon=True)
    thread.start()
    return thread


def host_sheet(server, path: str, timeout: float = 60) -> tuple[int, bytes, float]:
    """The host's browser fetches a sheet: (status, body, seconds)."""
    host = Browser(server.base)
    host.request(f"/?key={HOST_KEY}")
    began = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout)
    try:
        conn.request("GET", path, headers={"Cookie": jar_cookie(host)})
        answer = conn.getresponse()
        return answer.status, answer.read(), time.monotonic() - began
    finally:
        conn.close()


def jar_cookie(browser: Browser) -> str:
    """The Cookie header the browser's jar would send."""
    for handler in browser.opener.handlers:
        jar = getattr(handler, "cookiejar", None)
        if jar is not None:
            return "; ".join(f"{c.name}={c.value}" for c in jar)
    return ""


def test_a_stranger_s_long_renders_neither_block_the_host_nor_outlive_their_limit(tmp_path):
    """A stranger asks for two sheets of a 1000-deal game and waits: the second is refused
    at once (one render per address), the first renders in a child. The host's own 1-deal
    sheet comes back meanwhile from the host's own slot (it used to get 503 while the
    stranger's renders held both slots), and the stranger's child is killed at
    RENDER_SECONDS = 8 (a render in the server's thread could not be stopped) while the
    stranger is still waiting."""
    # 8 s: under a load of 15 the host's own 1-deal sheet took 4 s.
    server = serve_with(tmp_path / "inst", RENDER_SECONDS=8)
    try:
        long_game = add_game(server.instance, 1000)
        own_game = add_game(server.instance, 1)
        strangers = [hang_up_after(server.port, long_game + "/sheet.pdf" + q, "127.0.0.5", 30)
                     for q in ("", "?landscape=1")]
        assert started(server), "the stranger's render is running"
        status, body, seconds = host_sheet(server, own_game + "/sheet.pdf")
        assert status == 200 and body.startswith(b"%PDF"), (status, body[:200])
        print(f"the host's sheet came in {seconds:.1f} s beside a stranger's 1000-deal render")
        assert seconds < 30, seconds
        assert quiet_after(server.proc.pid, 20) is not None, "a render still runs"
        assert all(thread.is_alive() for thread in strangers), "the stranger still waits"
    finally:
        server.kill()


def started(server, seconds: float = 20) -> bool:
    """Wait until a render child of the server runs (the forkserver starts on first use)."""
    deadline = time.monotonic() + seconds
    while not rendering(server.proc.pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_a_render_nobody_waits_for_is_stopped_when_its_client_hangs_up(tmp_path):
    """A stranger asks for the sheet of a 2000-deal game and closes the tab once it renders:
    the child rendering it is killed within seconds of the hang-up, long before the time
    limit (120 s here), so nobody's abandoned renders keep the machine busy."""
    server = serve_with(tmp_path / "inst", RENDER_SECONDS=120)
    try:
        game = add_game(server.instance, 2000)
        with socket.create_connection(("127.0.0.1", server.port), timeout=10,
                                      source_address=("127.0.0.6", 0)) as sock:
            sock.sendall(f"GET {game}/sheet.pdf HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                         .encode())
            assert started(server), "the stranger's render is running"
        stopped = quiet_after(server.proc.pid, 20)
        print(f"the abandoned render stopped {stopped} s after the hang-up")
        assert stopped is not None and stopped < 6, stopped
    finally:
        server.kill()


def test_the_server_s_memory_stays_put_after_sheets_of_a_long_game(tmp_path):
    """Two sheets of a 300-deal game (portrait, landscape) leave the
    server's resident memory within 25 MB of where a 1-deal sheet left it; rendered in
    the server's threads they kept what WeasyPrint grew."""
    server = serve_with(tmp_path / "inst")
    try:
        small = add_game(server.instance, 1)
        game = add_game(server.instance, 300)
        assert host_sheet(server, small + "/sheet.pdf")[0] == 200
        before = rss_mb(server.proc.pid)
        for query in ("", "?landscape=1"):
            status, body, _ = host_sheet(server, game + "/sheet.pdf" + query)
            assert status == 200 and body.startswith(b"%PDF")
        after = rss_mb(server.proc.pid)
        print(f"serve RSS: {before:.0f} MB before, {after:.0f} MB after two sheets")
        assert after - before < 25, (before, after)
    finally:
        server.kill()
