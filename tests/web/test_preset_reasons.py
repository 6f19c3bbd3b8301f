"""A game of the Polish preset says «pod kreską» in its why box too (docs/UX.md's
glossary), not only in the legend and the chart; other games keep «beczka»."""

from __future__ import annotations

import re

from scorer import store

PLAYERS = ["Ala", "Bartek", "Celina"]
DEALS = [{"type": "adjustment", "player": 0, "amount": 880, "reason": "other"},
         {"type": "play", "declarer": 1, "contract": 100, "points": [20, 100, 0]}]


def why_words(app, client, preset: str) -> str:
    """The Polish why page of deal 2 (Ala on the barrel, her 20 card points frozen)."""
    st = store.Store(store.connect(app.config["DATABASE"]))
    row = st.create_game({"format": "thousand-game/1", "players": PLAYERS,
                          "agreements": {"preset": preset}}, [dict(d) for d in DEALS])
    st.db.close()
    html = client.get(f"/v/{row.view_token}/why/2",
                      headers={"Accept-Language": "pl"}).get_data(as_text=True)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_polish_preset_says_pod_kreska_in_the_why_box(app, client):
    """The frozen points and the attempt, in the preset's own words."""
    words = why_words(app, client, "polish")
    assert "20 pkt z kart pod kreską: +20 się nie zapisuje" in words
    assert "rozdanie pod kreską 1" in words or "próba pod kreską 1" in words
    assert "na beczce" not in words


def test_other_presets_keep_the_general_word(app, client):
    """The classic preset, read in Polish, is still «na beczce»."""
    assert "na beczce" in why_words(app, client, "classic")
