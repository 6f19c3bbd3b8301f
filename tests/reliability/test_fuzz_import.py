"""Property-based fuzzing of importing a game file, through the Flask test client:
random JSON documents, random bytes, and mutations of valid game logs. Never a 500;
a bad file gets a clear error and stores nothing; a good one becomes exactly one new
game whose log replays. The games already stored never change.
"""

from __future__ import annotations

import copy
import io
import json
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reliability_rig import (
    HEAD,
    Phone,
    csrf_of,
    forget_caches,
    pattern,
    replayable_logs,
    snapshot,
)

from scorer import store
from scorer.engine import parse_game, replay

# Three times the profile's examples: 300 under `ci` and `dev`, 3000 under `thorough`
# (the deep run: HYPOTHESIS_PROFILE=thorough python -m pytest tests/reliability -k fuzz).
EXAMPLES = 3 * settings.default.max_examples
COUNTS = {"examples": 0, "imported": 0, "refused": 0, "too_large": 0}


def valid_logs() -> list[dict]:
    """Game logs that replay: a long generated one and the scenario files' games."""
    return [{**HEAD, "title": "Пятница", "notes": "", "date": "2026-12-04",
             "deals": [pattern(i) for i in range(40)]}, *replayable_logs()]


LOGS = valid_logs()
leaves = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(-(10**30), 10**30),
    st.floats(allow_nan=False), st.text(max_size=20),
    st.sampled_from(["thousand-game/1", "classic", "play", "raspis", "redeal", "adjustment",
                     "hearts", "ace", "other", "points", "players", "deals", "<script>",
                     "-1", "1e999", "", "x" * 50]),
    st.sampled_from([0, 1, 2, 3, 4, -1, 100, 120, 5, 2000, 2001, 10**20, -(10**20), 1.5,
                     float("nan"), float("inf")]),
)
json_values = st.recursive(
    leaves,
    lambda kids: st.one_of(st.lists(kids, max_size=5),
                           st.dictionaries(st.one_of(st.text(max_size=10), st.sampled_from(
                               ["format", "players", "deals", "agreements", "first_dealer",
                                "type", "declarer", "contract", "points", "marriages",
                                "no_tricks", "prikup", "dark", "overrides", "preset"])),
                               kids, max_size=5)),
    max_leaves=25,
)
MUTATIONS = ("delete", "replace", "insert", "duplicate", "drop", "wrap", "stringify",
             "huge", "negate", "float", "null", "long_text")


def containers(doc, path=()) -> list[tuple]:
    """Every (path) in a document that leads to a dict or a list."""
    out = []
    if isinstance(doc, dict | list):
        out.append(path)
        items = doc.items() if isinstance(doc, dict) else enumerate(doc)
        for key, value in items:
            out += containers(value, (*path, key))
    return out


def at(doc, path):
    """The value at a path."""
    for key in path:
        doc = doc[key]
    return doc


def mutate(data, doc) -> None:
    """Apply one drawn mutation somewhere in the document (in place)."""
    target = at(doc, data.draw(st.sampled_from(containers(doc)), label="where"))
    keys = list(target.keys()) if isinstance(target, dict) else list(range(len(target)))
    op = data.draw(st.sampled_from(MUTATIONS), label="mutation")
    if not keys or op == "insert":
        key = data.draw(st.one_of(st.sampled_from(["format", "players", "deals", "extra",
                                                   "type", "points", "seat", "0"]),
                                  st.text(max_size=8)), label="new key")
        value = data.draw(json_values, label="value")
        if isinstance(target, dict):
            target[key] = value
        else:
            target.append(value)
        return
    key = data.draw(st.sampled_from(keys), label="key")
    old = target[key]
    if op == "delete":
        del target[key]
    elif op == "replace":
        target[key] = data.draw(json_values, label="value")
    elif op == "duplicate" and isinstance(target, list):
        target.insert(key, copy.deepcopy(old))
    elif op == "drop" and isinstance(target, list):
        target.pop(key)
    elif op == "wrap":
        target[key] = [old]
    elif op == "stringify":
        target[key] = json.dumps(old)
    elif op == "huge":
        target[key] = data.draw(st.sampled_from([10**18, -(10**18), 10**400, 2**63]))
    elif op == "negate" and isinstance(old, int | float) and not isinstance(old, bool):
        target[key] = -old
    elif op == "float" and isinstance(old, int) and not isinstance(old, bool) \
            and abs(old) < 2**1000:  # 10**400 (from "huge") has no float near it
        target[key] = old + 0.5
    elif op == "null":
        target[key] = None
    elif op == "long_text":
        target[key] = "Ж" * data.draw(st.sampled_from([41, 81, 1000, 100_000]))
    else:
        target[key] = data.draw(json_values, label="value")


@st.composite
def documents(draw):
    """The bytes of an uploaded file."""
    kind = draw(st.sampled_from(["mutated"] * 6 + ["valid", "random", "bytes", "text"]))
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    if kind == "text":
        return draw(st.sampled_from([
            b"", b"{", b"[]", b"null", b"1", b'"x"', b"\xef\xbb\xbf{}", b"{}" * 3,
            b"[" * 100_000 + b"]" * 100_000, b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
            b"\xff\xfe{\x00}\x00", b'{"format": "thousand-game/1"}', b"NaN", b"1" * 5000,
        ]))
    if kind == "random":
        return json.dumps(draw(json_values)).encode()
    doc = copy.deepcopy(draw(st.sampled_from(LOGS)))
    if kind == "mutated":
        data = draw(st.data())
        for _ in range(draw(st.integers(1, 3))):
            mutate(data, doc)
    return json.dumps(doc, ensure_ascii=draw(st.booleans())).encode()


class Rig:
    """The app with one stored game, and a way to drop a freshly imported one."""

    def __init__(self, app):
        """A phone with one game holding a deal."""
        self.app = app
        self.phone = Phone(app)
        self.game = self.phone.new_game()
        self.phone.client.post(self.game + "/deal", data={
            **self.phone.form(self.game + "/deal"), "action": "redeal"})
        self.csrf = csrf_of(self.phone.client.get("/").get_data(as_text=True))
        self.db = store.connect(app.config["DATABASE"])
        self.clean = snapshot(self.db)

    def drop_imported(self) -> list[dict]:
        """Remove games added since the clean state; return their stored records."""
        top = self.clean[0][-1][0]
        st_ = store.Store(self.db)
        added = [r for r in st_.games(None) if r.id > top]
        out = [{**r.head, "deals": st_.records(r.id)} for r in added]
        with self.db.conn:
            self.db.execute("delete from revisions where deal_id in "
                            "(select id from deals where game_id > ?)", [top])
            self.db.execute("delete from deals where game_id > ?", [top])
            self.db.execute("delete from totals where game_id > ?", [top])  # stored at import
            self.db.execute("delete from games where id > ?", [top])
        forget_caches(self.app)
        return out


def test_fuzz_import(app):
    """Mangled logs on the import form: imported or refused, never a 500; and the examples
    asked for all ran (checked here, so the test holds alone and in any order)."""
    rig = Rig(app)
    COUNTS.update(dict.fromkeys(COUNTS, 0))

    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                     HealthCheck.filter_too_much])
    @given(raw=documents())
    def one_file(raw):
        """One drawn document posted to the import form."""
        imported_or_refused(rig, raw)

    one_file()
    assert COUNTS["examples"] >= EXAMPLES, COUNTS
    print(f"\nimport fuzz: {COUNTS}")


def imported_or_refused(rig, raw):
    """Post one file: a new game that shows everywhere, or a refusal; stored games unchanged."""
    r = rig.phone.client.post("/import", data={
        "csrf_token": rig.csrf, "file": (io.BytesIO(raw), "game.json")})
    COUNTS["examples"] += 1
    assert r.status_code < 500, r.status_code
    if r.status_code == 302:
        game = r.headers["Location"]
        assert re.fullmatch(r"/g/[A-Za-z0-9_-]{32}", game)
        # The imported game must show: its page, its read-only page and its PDF sheet.
        for path in (game, rig.phone.view_path(game), game + "/sheet.pdf"):
            shown = rig.phone.client.get(path)
            assert shown.status_code == 200, (path, shown.status_code)
        assert shown.data.startswith(b"%PDF")
        added = rig.drop_imported()
        assert len(added) == 1
        replay(parse_game(added[0]))  # what was stored replays
        COUNTS["imported"] += 1
    elif r.status_code == 413:
        COUNTS["too_large"] += 1
    else:
        assert r.status_code == 422, r.status_code
        html = r.get_data(as_text=True)
        assert re.search(r'class="error[^"]*"', html), html[:800]
        COUNTS["refused"] += 1
    assert snapshot(rig.db) == rig.clean
