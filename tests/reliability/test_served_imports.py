"""Imports against the real `serve` command: a bad file costs little memory and counts
against the flood limit, and imported text meets the engine's limits (no 500)."""

from __future__ import annotations

import json
import re
import threading
import time

import pytest
from reliability_rig import HEAD, Server, Upload

from scorer import store
from scorer.engine import MAX_LOG_BYTES


def peak_rss_mb(pid: int, key: str = "VmHWM") -> float:
    """The process's peak resident set (VmHWM; or VmRSS, the present one), in MB."""
    with open(f"/proc/{pid}/status") as f:
        found = re.search(key + r":\s+(\d+) kB", f.read())
    return int(found.group(1)) / 1024


@pytest.fixture
def served(tmp_path):
    """A fresh real server (so the flood window starts empty)."""
    server = Server(tmp_path / "instance").start()
    yield server
    server.kill()


def empty_deals(size: int) -> bytes:
    """A log of as many empty deals as fit in size bytes (the amplifying bad import)."""
    head = json.dumps(HEAD)[:-1].encode() + b', "deals": ['
    count = (size - len(head) - 2) // 3
    return head + b",".join([b"{}"] * count) + b"]}"


def test_eight_2_mb_bad_imports_cost_little_memory(served):
    """Eight imports of ~690 000 empty deals (just under the 2 MB request limit) at once:
    each is refused (422) from a count of its bytes, and the server's peak memory grows by
    less than 100 MB (it grew by ~770 MB when every file was decoded first)."""
    body = empty_deals(2 * 1024 * 1024 - 600)
    uploads = [Upload(served.port) for _ in range(8)]
    before = peak_rss_mb(served.proc.pid)
    answers: list[tuple[int, str]] = []
    started = time.perf_counter()
    threads = [threading.Thread(target=lambda u=u: answers.append(u.post(body)))
               for u in uploads]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    seconds = time.perf_counter() - started
    after = peak_rss_mb(served.proc.pid)
    print(f"\neight bad 2 MB imports: peak RSS {before:.0f} MB -> {after:.0f} MB, "
          f"{seconds:.1f} s, answers {sorted(a[0] for a in answers)}")
    assert sorted(a[0] for a in answers) == [422] * 8
    assert all("1024" in page for _, page in answers), answers[0][1][:3000]
    assert after - before < 100


def flat_list(size: int) -> bytes:
    """A log whose title is one flat list of one-letter Cyrillic strings, size bytes long:
    no more objects and lists than a log may hold, but 200 000 strings once decoded."""
    head = json.dumps({**HEAD, "deals": []})[:-1].encode() + b', "title": ['
    item = '"я"'.encode()
    count = (size - len(head) - 2) // (len(item) + 1)
    return head + b",".join([item] * count) + b"]}"


def post_all(uploads: list[Upload], body: bytes) -> list[int]:
    """Every browser posts the body at once; their statuses."""
    answers: list[int] = []
    threads = [threading.Thread(target=lambda u=u: answers.append(u.post(body)[0]))
               for u in uploads]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    return sorted(answers)


def test_eight_1_mb_flat_lists_at_once_peak_low_and_leave_little(served):
    """Eight 1 MB imports of a flat list at once (each refused: a title must be text): the
    server's peak stays under 150 MB and, once they are answered, it holds at most 20 MB
    more than before them (it went from 52 to 270 MB and kept 50 MB more: the depth walk
    made a tuple per element, eight files were decoded at once, and glibc kept the freed
    buffers). A warm-up round of eight small refused imports comes first, so the
    server's own first-request costs (templates, thread stacks) are not counted."""
    body = flat_list(MAX_LOG_BYTES - 100)
    uploads = [Upload(served.port) for _ in range(8)]
    assert post_all(uploads, b"{oops") == [422] * 8
    time.sleep(0.5)
    before = peak_rss_mb(served.proc.pid, "VmRSS")
    started = time.perf_counter()
    answers = post_all(uploads, body)
    seconds = time.perf_counter() - started
    time.sleep(0.5)
    peak, after = peak_rss_mb(served.proc.pid), peak_rss_mb(served.proc.pid, "VmRSS")
    print(f"\neight 1 MB flat lists: RSS {before:.0f} MB, peak {peak:.0f} MB, after "
          f"{after:.0f} MB, {seconds:.1f} s")
    assert answers == [422] * 8
    assert peak < 150 and after - before < 20, (before, peak, after)


def test_failed_imports_count_against_the_flood_limit(served):
    """Twenty refused imports from one address (each from a new browser) fill its window:
    the 21st attempt, even a good file, gets 429."""
    for _ in range(20):
        status, _page = Upload(served.port).post(b"{oops")
        assert status == 422
    good = json.dumps({**HEAD, "deals": []}).encode()
    status, page = Upload(served.port).post(good)
    assert status == 429, page[:500]


def test_a_file_past_the_size_cap_is_refused_before_decoding(served):
    """One byte more than MAX_LOG_BYTES: refused with the cap in the message; a file
    with more objects than any log (but small) is refused too."""
    upload = Upload(served.port)
    text = json.dumps({**HEAD, "notes": "", "deals": []})
    padded = text[:-1] + " " * (MAX_LOG_BYTES + 1 - len(text)) + "}"
    status, page = upload.post(padded.encode())
    assert status == 422 and "1024" in page
    status, page = upload.post(b"[" * 30_000 + b"]" * 30_000)
    assert status == 422 and "30000" in page


@pytest.mark.parametrize("change, words", [
    ({"title": "Т" * 100_000}, ["title", "не длиннее 80 символов"]),
    ({"place": "М" * 81}, ["place", "не длиннее 80 символов"]),
    ({"notes": "Н" * 2001}, ["notes", "не длиннее 2000 символов"]),
    ({"date": "04.12.2026"}, ["date", "ГГГГ-ММ-ДД"]),
    ({"players": ["Аня", "Аня\u3164"]}, ["players", "U+3164"]),
    ({"players": ["Аня", "Aня"]}, ["players", "выглядит как"]),
    ({"players": ["Аня", "\u2800"]}, ["players", "U+2800"]),
    ({"deals": [{"type": "redeal", "reason": "\ud800"}]}, ["кон 1", "reason", "суррогат"]),
    ({"deals": [{"type": "play", "declarer": 1, "contract": 100, "points": [0, 120, 0],
                 "marriages": {"1": ["hearts"], "01": ["spades"]}}]}, ["кон 1", "marriages"]),
])
def test_imported_text_meets_the_engine_limits(served, change, words):
    """A 100 KB title, a long place or note, a date in another form, an invisible or
    look-alike name, a lone surrogate as a redeal's reason, a second key for one seat:
    each a 422 naming deal, field and rule (a lone surrogate was a 500), nothing stored."""
    upload = Upload(served.port)
    body = json.dumps({**HEAD, **change}, ensure_ascii=True).encode()
    status, page = upload.post(body)
    assert status == 422, (status, page[:300])
    for word in words:
        assert word in page, (word, re.findall(r'class="error[^>]*>([^<]+)<', page))
    db = store.connect(served.instance / "scorer.sqlite")
    try:
        assert db.execute("select count(*) from games").fetchone()[0] == 0
    finally:
        db.close()
