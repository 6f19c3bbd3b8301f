"""«А если бы…» keeps each comparison per (game version, agreement set): a kept answer is
the answer worked out afresh, the same question is worked out once, and a comparison
takes a turn like a PDF render (one per address, the host's own)."""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import urlencode

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer import create_app
from scorer.engine import resolve_agreements
from scorer.web.db import get_store
from scorer.web.game import compare
from scorer.web.lru import clear_caches

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from strategies import agreement_sets  # noqa: E402

HEAD = {"format": "thousand-game/1", "players": ["Аня", "Борис", "Вика"],
        "agreements": {"preset": "classic", "overrides": {}}, "first_dealer": 0}


def record(n: int) -> dict:
    """Deal n+1: each seat in turn makes 100 or fails 120; every fifth deal a redeal."""
    if n % 5 == 4:
        return {"type": "redeal"}
    declarer = n % 3
    points = [5, 5, 5]
    points[declarer] = 110
    return {"type": "play", "declarer": declarer, "contract": 100 if n % 2 else 120,
            "points": points}


def query(preset: str, overrides: dict) -> str:
    """The form's query string for this preset with these overrides."""
    fields = {"agreements_shown": "1", "preset": preset, "action": "compare"}
    for key, value in dict(resolve_agreements(preset, overrides)).items():
        if value is True:
            fields[f"ag_{key}"] = "1"
        elif value is not False:
            fields[f"ag_{key}"] = "" if value is None else str(value)
    return urlencode(fields)


def config(folder: Path) -> dict:
    """One instance folder and secret for both apps."""
    return {"TESTING": True, "INSTANCE_PATH": str(folder), "SECRET_KEY": "compare-secret",
            "HOST_KEY": "h" * 24}


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    """(served app, reference app, game row) on one database file: the reference has
    every cache emptied before each answer."""
    folder = tmp_path_factory.mktemp("compare") / "instance"
    served, reference = create_app(config(folder)), create_app(config(folder))
    with served.app_context():
        row = get_store().create_game(HEAD, [record(n) for n in range(30)])
    return served, reference, row


@settings(max_examples=20)  # each step renders eight pages: bounded to keep CI quick
@given(steps=st.lists(st.tuples(agreement_sets(), st.booleans(), st.sampled_from(["ru", "en"]),
                                st.booleans()), min_size=1, max_size=3))
def test_a_kept_comparison_is_the_comparison_worked_out_afresh(pair, steps):
    """Over random agreement sets, languages and links, asked again and after a deal
    was added (a new version), the served page equals what an app with nothing kept
    renders."""
    served, reference, row = pair
    for (preset, overrides), add, code, editable in steps:
        if add:
            with served.app_context():
                version = get_store().version(row.id)
                get_store().add_deal(row.id, {"type": "redeal"}, based_on=version)
        token = row.edit_token if editable else row.view_token
        path = f"/{'g' if editable else 'v'}/{token}/compare?{query(preset, overrides)}"
        client = served.test_client()
        client.set_cookie("lang", code)
        # A first visit, then one with the cookies the first one set.
        for _visit in range(2):
            jar = {name: c.value for name in ("lang", "session")
                   if (c := client.get_cookie(name)) is not None}
            kept = client.get(path)
            clear_caches(reference)
            fresh_client = reference.test_client()
            for name, value in jar.items():
                fresh_client.set_cookie(name, value)
            fresh = fresh_client.get(path)
            assert kept.status_code == fresh.status_code, path
            assert kept.get_data() == fresh.get_data(), path


def test_the_same_question_is_worked_out_once(app, monkeypatch):
    """Two browsers, two languages, both links: one replay per (version, set); another set
    or a new version is another question."""
    calls = []
    real = compare.compare
    monkeypatch.setattr(compare, "compare", lambda *a: calls.append(1) or real(*a))
    with app.app_context():
        row = get_store().create_game(HEAD, [record(n) for n in range(12)])
    ask = query("classic", {"barrel_threshold": 700})
    for code, link in (("ru", f"/v/{row.view_token}"), ("en", f"/g/{row.edit_token}")):
        client = app.test_client()
        client.set_cookie("lang", code)
        assert client.get(f"{link}/compare?{ask}").status_code == 200
    assert len(calls) == 1
    app.test_client().get(f"/v/{row.view_token}/compare?{query('classic', {'penalty': 60})}")
    assert len(calls) == 2
    with app.app_context():
        get_store().add_deal(row.id, {"type": "redeal"}, based_on=get_store().version(row.id))
    app.test_client().get(f"/v/{row.view_token}/compare?{ask}")
    assert len(calls) == 3


def test_a_comparison_waits_for_its_address_s_turn(app):
    """While an address has a comparison in progress, its next one gets 503 with
    Retry-After and the reason; another address and the host are answered."""
    with app.app_context():
        row = get_store().create_game(HEAD, [record(n) for n in range(6)])
    path = f"/v/{row.view_token}/compare?{query('classic', {'penalty': 60})}"
    stranger = app.test_client()
    stranger.environ_base["REMOTE_ADDR"] = "10.0.0.9"
    host = app.test_client()
    host.environ_base["REMOTE_ADDR"] = "10.0.0.9"
    host.get(f"/?key={app.config['HOST_KEY']}")
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "10.0.0.10"
    with compare._turns.turn(False, "10.0.0.9") as held:
        assert held
        busy = stranger.get(path)
        assert busy.status_code == 503 and busy.headers["Retry-After"]
        assert "считает другие сравнения" in busy.get_data(as_text=True)
        assert other.get(path).status_code == 200
        assert host.get(path).status_code == 200
    assert stranger.get(path).status_code == 200
