"""Two phones write to one game at once: every write names the version it was based on,
a stale one is refused (409) with a message and the fresh protocol, nothing is lost
and nothing is stored twice. Every assertion holds for any interleaving."""

from __future__ import annotations

import re
import threading

import pytest
from reliability_rig import Phone, csrf_of, version_of

from scorer import store

STALE = "Ничего не сохранено: пока форма была открыта, игра изменилась"
PER_PHONE = 100


def stored(app, game: str):
    """(live records, revision notes per slot, version) straight from the database."""
    db = store.connect(app.config["DATABASE"])
    try:
        st = store.Store(db)
        row = st.game_by_edit_token(game.rsplit("/", 1)[1])
        notes = [[h["note"] for h in st.history(row.id, s.id)] for s in st.slots(row.id)]
        return st.records(row.id), notes, st.version(row.id)
    finally:
        db.close()


def test_two_phones_race_200_deals(app):
    """Two phones race 200 deals: each saved once or refused as stale, none lost."""
    game = Phone(app).new_game()
    phones = [Phone(app), Phone(app)]
    start = threading.Barrier(2)
    accepted: list[list[int]] = [[], []]
    refused: list[list[int]] = [[], []]
    odd: list[tuple[int, int]] = []

    def play(i: int) -> None:
        """Phone i posts its 100 adjustments; a refused one is read again and re-sent."""
        phone = phones[i]
        start.wait()
        for k in range(PER_PHONE):
            amount = -(2 * k + 1 + i)  # unique per deal: -1..-200
            while True:
                fields = phone.form(game + "/deal")
                r = phone.client.post(game + "/deal", data={
                    **fields, "action": "adjustment", "player": str(k % 3),
                    "amount": str(amount), "reason": "other"})
                if r.status_code == 302:
                    accepted[i].append(amount)
                    break
                html = r.get_data(as_text=True)
                if r.status_code == 409 and STALE in html and 'id="fresh"' in html:
                    refused[i].append(amount)
                    continue
                odd.append((r.status_code, amount))
                break

    threads = [threading.Thread(target=play, args=(i,)) for i in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert odd == []
    records, notes, version = stored(app, game)
    amounts = [r["amount"] for r in records]
    # Every accepted deal is stored exactly once; every refused attempt was answered 409.
    assert sorted(amounts, reverse=True) == sorted(accepted[0] + accepted[1], reverse=True)
    assert sorted(amounts, reverse=True) == list(range(-1, -2 * PER_PHONE - 1, -1))
    assert len(set(amounts)) == len(amounts) == 2 * PER_PHONE
    assert notes == [["add"]] * (2 * PER_PHONE)
    assert version == 1 + 2 * PER_PHONE  # one version step per accepted write, no more
    # A phone is refused only when the other wrote in between, so never more often
    # than the other phone's accepted writes.
    assert len(refused[0]) <= len(accepted[1]) and len(refused[1]) <= len(accepted[0])
    print(f"\nrace: {2 * PER_PHONE} deals from 2 phones, accepted {len(accepted[0])} + "
          f"{len(accepted[1])}, refused (409, then re-sent) {len(refused[0])} + "
          f"{len(refused[1])}, stored {len(amounts)}, each exactly once")


def test_blind_race_refused_deals_are_absent(app):
    """Both phones post the same next deal from the same version: exactly one wins."""
    game = Phone(app).new_game()
    phones = [Phone(app), Phone(app)]
    outcomes: list[tuple[int, int]] = []
    for k in range(20):
        forms = [p.form(game + "/deal") for p in phones]
        assert forms[0]["version"] == forms[1]["version"]
        barrier = threading.Barrier(2)

        def post(i: int, k=k, forms=forms, barrier=barrier) -> None:
            """Post one adjustment when both phones are ready."""
            barrier.wait()
            r = phones[i].client.post(game + "/deal", data={
                **forms[i], "action": "adjustment", "player": str(i),
                "amount": str(-(1000 * i + k + 1)), "reason": "other"})
            outcomes.append((i, r.status_code))

        threads = [threading.Thread(target=post, args=(i,)) for i in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    records, _notes, _v = stored(app, game)
    codes = [c for _i, c in outcomes]
    assert codes.count(302) == 20 and codes.count(409) == 20
    assert len(records) == 20
    stored_amounts = {r["amount"] for r in records}
    for k in range(20):  # exactly one of each pair is stored
        assert len(stored_amounts & {-(k + 1), -(1000 + k + 1)}) == 1


@pytest.fixture
def two(app):
    """A game with three deals and two phones on it."""
    a, b = Phone(app), Phone(app)
    game = a.new_game()
    for declarer in (0, 1, 2):
        form = a.form(game + "/deal")
        others = {f"points_{s}": "10" for s in range(3) if s != declarer}
        r = a.client.post(game + "/deal", data={**form, "action": "play",
                                                "declarer": str(declarer), "contract": "100",
                                                **others})
        assert r.status_code == 302
    slots = [int(x) for x in re.findall(re.escape(game) + r"/deal/(\d+)\"",
                                        a.client.get(game).get_data(as_text=True))]
    return a, b, game, slots


def edit_fields(form, declarer="1", contract="120", p0="10", p2="20"):
    """An edit of the second deal."""
    return {**form, "action": "play", "declarer": declarer, "contract": contract,
            "points_0": p0, "points_2": p2}


def test_stale_edit_is_refused_and_keeps_what_was_typed(app, two):
    """A stale edit is refused, keeps what was typed and changes nothing."""
    a, b, game, slots = two
    slot = slots[1]
    old_form = a.form(f"{game}/deal/{slot}")
    r = b.client.post(f"{game}/deal/{slot}", data=edit_fields(b.form(f"{game}/deal/{slot}")))
    assert r.status_code == 302
    before = stored(app, game)
    r = a.client.post(f"{game}/deal/{slot}", data=edit_fields(old_form, contract="105",
                                                              p0="15", p2="15"))
    html = r.get_data(as_text=True)
    assert r.status_code == 409
    assert STALE in html and 'id="fresh"' in html
    assert 'value="105"' in html  # what the phone typed is still in the form
    assert version_of(html) == str(before[2])  # ...now based on the fresh version
    assert stored(app, game) == before
    r = a.client.post(f"{game}/deal/{slot}", data=edit_fields(
        {"csrf_token": csrf_of(html), "version": version_of(html)}, contract="105",
        p0="15", p2="15"))
    assert r.status_code == 302
    assert stored(app, game)[0][1]["contract"] == 105


@pytest.mark.parametrize("action", ["delete", "restore"])
def test_stale_delete_and_restore_are_refused(app, two, action):
    """A stale delete or restore is refused and changes nothing."""
    a, b, game, slots = two
    if action == "restore":
        r = a.client.post(f"{game}/deal/{slots[2]}/delete", data=a.form(game + "/deal"))
        assert r.status_code == 302
    old_form = a.form(game + "/deal")
    r = b.client.post(game + "/deal", data={**b.form(game + "/deal"), "action": "redeal"})
    assert r.status_code == 302
    before = stored(app, game)
    r = a.client.post(f"{game}/deal/{slots[2]}/{action}", data=old_form)
    html = r.get_data(as_text=True)
    assert r.status_code == 409 and STALE in html and 'id="protocol"' in html
    assert stored(app, game) == before


@pytest.mark.parametrize("version", [None, "", "abc", "-1", "1.0", "１", "²", "9" * 40, "0"])
def test_missing_or_garbled_version_is_refused(app, two, version):
    """A form without a readable version is refused and changes nothing."""
    a, _b, game, _slots = two
    form = a.form(game + "/deal")
    if version is None:
        form.pop("version")
    else:
        form["version"] = version
    before = stored(app, game)
    r = a.client.post(game + "/deal", data={**form, "action": "redeal"})
    assert r.status_code == 409
    html = r.get_data(as_text=True)
    assert "Ничего не сохранено" in html
    assert stored(app, game) == before


def test_stale_preview_is_reported(app, two):
    """The preview of a stale form warns that the game has changed."""
    a, b, game, _slots = two
    old = a.form(game + "/deal")
    b.client.post(game + "/deal", data={**b.form(game + "/deal"), "action": "redeal"})
    query = f"?declarer=0&contract=100&points_1=10&points_2=10&version={old['version']}"
    res = a.client.get(game + "/preview" + query).get_json()
    assert res["stale"] is True and res["version"] == int(old["version"]) + 1
    assert STALE in res["stale_text"]
    fresh = a.client.get(game + "/preview" + query.replace(
        f"version={old['version']}", f"version={res['version']}")).get_json()
    assert fresh["stale"] is False and fresh["ok"]
    # The no-JavaScript preview (a POST that saves nothing) says so as well.
    r = a.client.post(game + "/deal", data={**old, "action": "preview", "declarer": "0",
                                            "contract": "100", "points_1": "10",
                                            "points_2": "10"})
    assert r.status_code == 409


def test_deal_posted_after_someone_else_won_is_refused_not_dropped(app):
    """A deal posted after another phone's winning deal is refused, not dropped silently."""
    a, b = Phone(app), Phone(app)
    db = store.connect(app.config["DATABASE"])
    try:
        head = {"format": "thousand-game/1", "players": ["Аня", "Борис", "Вика"],
                "agreements": {"preset": "classic",
                               "overrides": {"barrel": False, "target": 100}},
                "first_dealer": 0}
        game = "/g/" + store.Store(db).create_game(head).edit_token
    finally:
        db.close()
    old = a.form(game + "/deal")
    win = {"action": "play", "declarer": "1", "contract": "120", "points_0": "10",
           "points_1": "100", "points_2": "10", "mar_1": "hearts"}
    r = b.client.post(game + "/deal", data={**b.form(game + "/deal"), **win})
    assert r.status_code == 302
    assert 'id="winner"' in b.client.get(game).get_data(as_text=True)
    before = stored(app, game)
    r = a.client.post(game + "/deal", data={**old, "action": "redeal"})
    assert r.status_code == 409
    html = r.get_data(as_text=True)
    assert STALE in html and 'id="winner"' in html
    assert stored(app, game) == before
    # Even a form based on the final version cannot add a deal after the win.
    r = a.client.post(game + "/deal", data={**old, "version": str(before[2]),
                                            "action": "redeal"})
    assert r.status_code == 409 and "Игра окончена" in r.get_data(as_text=True)
    assert stored(app, game) == before


def test_a_write_that_passed_the_early_check_is_refused_inside_the_write_lock(
        app, monkeypatch):
    """Phone A's post is held after its replay (the early version check passed) until phone B
    has saved: the check inside the write transaction must refuse A (409), store B once.
    (The 200-deal race rarely hits this window; this interleaving is forced.)"""
    from scorer.web.game import pages as game_pages

    game = Phone(app).new_game()
    a, b = Phone(app), Phone(app)
    form_a, form_b = a.form(game + "/deal"), b.form(game + "/deal")
    assert form_a["version"] == form_b["version"]
    reached, go = threading.Event(), threading.Event()
    original = game_pages.checked_replay

    def held(*args, **kwargs):
        """Replay as usual; in phone A's thread, wait for B to save before writing."""
        result = original(*args, **kwargs)
        if threading.current_thread().name == "phone-a":
            reached.set()
            assert go.wait(60)
        return result

    monkeypatch.setattr(game_pages, "checked_replay", held)
    answers = {}

    def post_a() -> None:
        """Phone A's adjustment of -1."""
        answers["a"] = a.client.post(game + "/deal", data={
            **form_a, "action": "adjustment", "player": "0", "amount": "-1", "reason": "other"})

    thread = threading.Thread(target=post_a, name="phone-a")
    thread.start()
    assert reached.wait(60)
    r = b.client.post(game + "/deal", data={**form_b, "action": "adjustment", "player": "1",
                                            "amount": "-2", "reason": "other"})
    assert r.status_code == 302
    go.set()
    thread.join(60)
    assert answers["a"].status_code == 409
    assert STALE in answers["a"].get_data(as_text=True)
    records, notes, version = stored(app, game)
    assert [r["amount"] for r in records] == [-2] and notes == [["add"]] and version == 2
