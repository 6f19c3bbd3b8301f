"""Property-based fuzzing of the deal form (new deal, edit, delete, restore) through the
Flask test client: never a 500, always a clear refusal or a success, and after any
refusal the stored game (its rows, slots and revisions) is exactly as it was.

One app and two games (3 and 4 players) serve every example; after a successful write
the test puts the database back, so each example starts from the same state.
"""

from __future__ import annotations

import json
import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reliability_rig import Phone, csrf_of, forget_caches, snapshot

from scorer import store

# Three times the profile's examples: 300 under `ci` and `dev`, 3000 under `thorough`
# (the deep run: HYPOTHESIS_PROFILE=thorough python -m pytest tests/reliability -k fuzz).
EXAMPLES = 3 * settings.default.max_examples
COUNTS = {"examples": 0, "saved": 0, "unchanged": 0, "previews": 0, "refused 404": 0,
          "refused 409": 0, "refused 422": 0}

# Each field is one draw from a pool of values made once (seeded): sensible numbers,
# negative, huge, floats, words, unicode digits, control characters. Twenty nested
# strategies per form would cost hypothesis more time than the request itself; one
# field per form still gets freshly drawn unicode text.
_rng = random.Random(5)
ODD = ["", " ", "0", "-0", "00", "+5", "1e3", "1.5", "-1", "٠", "١٢٠", "１２０", "²", "−5",
       "120 ", "9" * 5000, "NaN", "inf", "-inf", "None", "true", "[]", "{}", "0x10", "1_000",
       "\x00", "<b>", "\u202e120", "120\n", "---", str(2**63), str(-(2**63)), str(10**400),
       "3.0", "1e400", "-1e-9", "12" * 30]
ODD += ["".join(chr(_rng.choice([_rng.randint(32, 126), _rng.randint(0x400, 0x4ff),
                                 _rng.randint(0x2000, 0x2bff), _rng.randint(0x1f300, 0x1f5ff)]))
                for _ in range(_rng.randint(1, 12))) for _ in range(40)]
ODD += [str(_rng.randint(-(10**30), 10**30)) for _ in range(20)]
ODD += [repr(_rng.uniform(-1000, 1000)) for _ in range(20)]
NUMBERS = [str(i) for i in range(-10, 401)] + ODD * 3
POINTS = [str(i) for i in range(-10, 131)] + [str(i) for i in range(0, 125, 5)] * 3 + ODD
SEATS = ["0", "1", "2", "3"] * 40 + ODD
CONTRACTS = [str(i) for i in range(95, 306, 5)] * 3 + NUMBERS
FIELDS = {
    "action": ["play"] * 6 + ["raspis", "redeal", "adjustment", "preview", "", "PLAY",
                              "delete", "нет"],
    "declarer": SEATS, "contract": CONTRACTS, "dark": ["1", "", "on", "0"],
    "prikup_points": POINTS, "prikup_marriage": ["", "hearts", "ace", "half_clubs", "x", "♣"],
    "prikup_aces": NUMBERS, "player": SEATS, "amount": NUMBERS,
    "reason": ["other", "cut_nines", "four_nines", "misdeal", "", "<script>", "x" * 300],
    **{f"points_{s}": POINTS for s in range(4)},
    **{f"nt_{s}": ["1", "1", ""] for s in range(4)},
}
KINDS = ["hearts", "diamonds", "clubs", "spades", "ace", "half_hearts", "", "♥", "x" * 100]
junk_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)


@st.composite
def plausible_forms(draw):
    """A deal as a scorekeeper would type it (so saves and previews happen too)."""
    declarer = draw(st.sampled_from(["0", "1", "2", "3"]))
    form = {"action": draw(st.sampled_from(["play"] * 4 + ["preview", "raspis"])),
            "declarer": declarer, "contract": str(draw(st.sampled_from(range(100, 205, 5)))),
            "reason": "other"}
    for s in range(4):
        if str(s) != declarer:
            form[f"points_{s}"] = str(draw(st.sampled_from(range(0, 65, 5))))
            form[f"nt_{s}"] = "1"
    if draw(st.booleans()):  # then one field goes wrong
        name = draw(st.sampled_from(sorted(FIELDS)))
        form[name] = draw(st.one_of(st.sampled_from(FIELDS[name]), junk_text))
    return form


@st.composite
def random_forms(draw):
    """Any values, junk, huge numbers, missing fields."""
    missing = draw(st.sets(st.sampled_from(sorted(FIELDS)), max_size=4))
    form = {name: draw(st.sampled_from(pool)) for name, pool in FIELDS.items()
            if name not in missing}
    for s in range(4):
        form[f"mar_{s}"] = draw(st.lists(st.sampled_from(KINDS), max_size=3))
    form[draw(st.sampled_from(["declarer", "contract", "amount", "points_1"]))] = draw(
        junk_text)
    return form


deal_forms = st.one_of(plausible_forms(), random_forms())


class Rig:
    """The app, its two games and a way to put the database back after a save."""

    def __init__(self, app):
        """Two games (3 and 4 players) on one phone."""
        self.app = app
        self.phone = Phone(app)
        self.games = [self.phone.new_game(), self.phone.new_game(
            names=("Аня", "Борис", "Вика", "Глеб"))]
        for game in self.games:
            for action in ("redeal", "redeal"):
                self.post(game + "/deal", {**self.phone.form(game + "/deal"),
                                           "action": action})
        # Slot 1 of the first game is deleted, so a restore has something to bring back.
        first = self.slots(self.games[0])[0]
        self.post(f"{self.games[0]}/deal/{first}/delete",
                  self.phone.form(self.games[0] + "/deal"))
        self.csrf = csrf_of(self.phone.client.get(self.games[0] + "/deal")
                            .get_data(as_text=True))
        self.db = store.connect(app.config["DATABASE"])
        self.clean = snapshot(self.db)
        # Every example starts from this state, so these never change.
        self.slot_ids = {g: self.slots(g) for g in self.games}
        self.versions = {g: self.version(g) for g in self.games}

    def post(self, path: str, data: dict):
        """POST through the test client."""
        return self.phone.client.post(path, data=data)

    def slots(self, game: str) -> list[int]:
        """Slot ids of a game (live and deleted)."""
        row = store.Store(store.connect(self.app.config["DATABASE"]))
        try:
            g = row.game_by_edit_token(game.rsplit("/", 1)[1])
            return [s.id for s in row.slots(g.id)]
        finally:
            row.db.close()

    def version(self, game: str) -> int:
        """The stored version of a game."""
        token = game.rsplit("/", 1)[1]
        return self.db.execute("select version from games where edit_token = ?",
                               [token]).fetchone()[0]

    def reset(self) -> None:
        """Put the three tables back as they were (after a successful write)."""
        games, deals, revisions = self.clean
        with self.db.conn:
            self.db.execute("delete from revisions where id > ?", [revisions[-1][0]])
            self.db.execute("delete from deals where id > ?", [deals[-1][0]])
            for row in games:
                self.db.execute("update games set version = ?, updated = ? where id = ?",
                                [row[4], row[6], row[0]])
        # The caches are keyed by (game, version): forget what the write cached.
        forget_caches(self.app)
        assert snapshot(self.db) == self.clean


def check(rig: Rig, r, path: str) -> None:
    """Never a 500; a refusal says why and changed nothing; a save changed one deal."""
    assert r.status_code < 500, (path, r.status_code)
    html = r.get_data(as_text=True)
    after = snapshot(rig.db)
    if r.status_code == 302 and after == rig.clean:
        COUNTS["unchanged"] += 1  # deleting a deleted deal, restoring a live one
        return
    if r.status_code == 302:
        games, deals, revisions = after
        assert len(revisions) == len(rig.clean[2]) + 1, path
        assert len(deals) - len(rig.clean[1]) in (0, 1), path
        new = revisions[-1]
        record = json.loads(new[3]) if new[3] else None
        assert record is None or record.get("type") in ("play", "raspis", "redeal",
                                                         "adjustment")
        COUNTS["saved"] += 1
        shown_everywhere(rig.phone, path.split("/deal", 1)[0])
        rig.reset()
        return
    assert after == rig.clean, (path, r.status_code)
    if r.status_code == 200:
        assert "pv-delta" in html  # only the no-JS preview answers 200 to a POST
        COUNTS["previews"] += 1
        return
    assert r.status_code in (404, 409, 422), (path, r.status_code)
    COUNTS[f"refused {r.status_code}"] += 1
    if r.status_code in (409, 422):
        assert re.search(r'class="error[^"]*"[^>]*role="alert"', html), (path, html[:500])


def shown_everywhere(phone: Phone, game: str) -> None:
    """After a save the game page, the read-only page and the PDF sheet all render (a value
    the form let through must not brick the game)."""
    for path in (game, phone.view_path(game), game + "/sheet.pdf"):
        r = phone.client.get(path)
        assert r.status_code == 200, (path, r.status_code)
    assert r.data.startswith(b"%PDF")


def test_fuzz_the_deal_form(app):
    """Odd values in every deal form field: a page or a refusal, never a 500 or a bad record;
    and the examples asked for all ran (checked here, so the test holds alone)."""
    rig = Rig(app)
    COUNTS.update(dict.fromkeys(COUNTS, 0))

    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=st.data())
    def one_form(data):
        """One drawn form posted to one drawn deal route."""
        game = data.draw(st.sampled_from(rig.games), label="game")
        slots = rig.slot_ids[game]
        target = data.draw(st.sampled_from(["new", "new", "new", "edit", "delete", "restore"]),
                           label="target")
        slot = data.draw(st.one_of(st.sampled_from(slots), st.integers(0, 10**6)), label="slot")
        path = {"new": f"{game}/deal", "edit": f"{game}/deal/{slot}",
                "delete": f"{game}/deal/{slot}/delete",
                "restore": f"{game}/deal/{slot}/restore"}[target]
        form = data.draw(deal_forms, label="form")
        current = str(rig.versions[game])
        version = data.draw(st.one_of(st.just(current), st.just(current), st.just(current),
                                      st.sampled_from([None, *ODD])), label="version")
        if version is not None:
            form["version"] = version
        form["csrf_token"] = rig.csrf
        r = rig.post(path, form)
        COUNTS["examples"] += 1
        check(rig, r, path)

    one_form()
    assert COUNTS["examples"] >= EXAMPLES, COUNTS
    print(f"\ndeal form fuzz: {COUNTS}")
