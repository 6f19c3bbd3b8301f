"""A flood of imports from strangers, then the host's first look at the games list.

Starts the real ``serve`` (this checkout's code) on 127.0.0.1, imports N card-dealt games
of D deals each from rotating source addresses (127.0.1.x, each a new browser, so neither
the per-address nor the per-browser limit stops it), then the host opens the list: prints
the import time, the first list view's time and the server's RSS before and after it.

    python benchmarks/flood.py --games 100 --deals 2000
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from games import card_dealt  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def rss_mb(pid: int) -> tuple[float, float]:
    """(resident now, peak resident) of a process in MB, from /proc."""
    status = Path(f"/proc/{pid}/status").read_text()
    found = {k: int(v.split()[0]) / 1024 for k, v in re.findall(r"(VmRSS|VmHWM):\s+(.+)", status)}
    return found["VmRSS"], found["VmHWM"]


def request(port: int, method: str, path: str, source: str = "127.0.0.1",
            cookie: str = "", body: bytes | None = None, kind: str = ""):
    """One request from a given source address; returns (status, body, the cookies set)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600,
                                      source_address=(source, 0))
    headers = {"Cookie": cookie} if cookie else {}
    if kind:
        headers["Content-Type"] = kind
    conn.request(method, path, body=body, headers=headers)
    answer = conn.getresponse()
    data = answer.read()
    conn.close()
    cookies = "; ".join(c.split(";")[0] for c in answer.headers.get_all("Set-Cookie") or ())
    return answer.status, data, cookies


def upload(port: int, source: str, log: bytes) -> int:
    """Import one game as a new browser from this address; return the status."""
    _status, html, cookie = request(port, "GET", "/", source)
    token = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)
    fence = "----flood"
    body = (f"--{fence}\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\n"
            f"{token.decode()}\r\n--{fence}\r\nContent-Disposition: form-data; name=\"file\";"
            f" filename=\"g.json\"\r\nContent-Type: application/json\r\n\r\n").encode()
    body += log + f"\r\n--{fence}--\r\n".encode()
    status, _data, _cookie = request(port, "POST", "/import", source, cookie, body,
                                     f"multipart/form-data; boundary={fence}")
    return status


def main() -> int:
    """Flood, then time the host's first list view."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--deals", type=int, default=2000)
    args = parser.parse_args()
    log = json.dumps(card_dealt(args.deals), ensure_ascii=False).encode()
    instance = Path(tempfile.mkdtemp()) / "instance"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen(
        [sys.executable, "-m", "scorer", "serve", "--host", "127.0.0.1", "--port", "0",
         "--instance", str(instance)], cwd=ROOT, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True)
    try:
        banner = ""
        while "data:" not in banner:
            banner += server.stdout.readline()
        port, key = re.search(r"127\.0\.0\.1:(\d+)/\?key=(\S+)", banner).groups()
        port = int(port)
        started = time.perf_counter()
        statuses = [upload(port, f"127.0.{1 + i // 250}.{1 + i % 250}", log)
                    for i in range(args.games)]
        imported = time.perf_counter() - started
        _s, _b, host = request(port, "GET", f"/?key={key}")
        before = rss_mb(server.pid)
        started = time.perf_counter()
        status, page, _c = request(port, "GET", "/", cookie=host)
        first = time.perf_counter() - started
        after = rss_mb(server.pid)
        started = time.perf_counter()
        request(port, "GET", "/", cookie=host)
        second = time.perf_counter() - started
    finally:
        server.kill()
        server.wait()
    print(f"imports: {statuses.count(302)} of {args.games} games x {args.deals} deals "
          f"in {imported:.1f} s (answers {sorted(set(statuses))})")
    print(f"host's first list view: {status}, {first:.2f} s, {len(page) / 1024:.0f} kB; "
          f"second: {second:.2f} s")
    print(f"server RSS before it: {before[0]:.0f} MB, after: {after[0]:.0f} MB, "
          f"peak: {after[1]:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
