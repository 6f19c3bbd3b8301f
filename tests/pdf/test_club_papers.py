"""The season table and a player's card on paper: real WeasyPrint PDFs read back."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pypdf

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from club_web import as_host, store_club  # noqa: E402


def pages(pdf: bytes) -> list[str]:
    """The text of each page."""
    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages]


def test_the_season_table_prints_with_its_rows_and_records(app, client):
    """One page: the title, every player in table order with points, the records."""
    store_club(app)
    as_host(client)
    r = client.get("/club/table.pdf")
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    text = pages(r.data)
    assert len(text) == 1
    body = text[0]
    assert "Турнирная таблица" in body and "Рекорды" in body
    order = [body.index(name) for name in ("Аня", "Вика", "Гоша", "Борис")]
    assert order == sorted(order)


def test_a_players_card_prints_every_figure(app, client):
    """The card holds the player's name, rating and the figures' Russian words."""
    store_club(app)
    as_host(client)
    r = client.get("/club/players/1/card.pdf")
    assert r.status_code == 200
    body = " ".join(" ".join(pages(r.data)).split())  # a narrow column wraps a label
    for word in ("Аня", "заказов взято", "болты", "слёты с бочки", "самосвалы",
                 "самая длинная серия побед"):
        assert word in body, word


def test_a_shared_table_prints_too(app, client):
    """The read-only link has its PDF; the stranger needs no host key."""
    store_club(app)
    as_host(client)
    share = client.get("/club/share?kind=season").get_data(as_text=True)
    path = share.split('value="http://localhost', 1)[1].split('"', 1)[0]
    r = app.test_client().get(f"{path}/paper.pdf")
    assert r.status_code == 200 and "Турнирная таблица" in pages(r.data)[0]


def test_the_records_name_each_game_as_the_table_knows_it(app, client):
    """«игра 2, кон 5» was the stored id: the paper says the game's day, the time it was
    started and its players (its title where it has one)."""
    import re

    store_club(app)
    as_host(client)
    body = " ".join(pages(client.get("/club/table.pdf").data)[0].split())
    assert not re.search(r"\b(игра|game) \d", body), body
    named = re.findall(r"\d{4}-\d\d-\d\d, \d\d:\d\d \([^)]*·[^)]*\)", body)
    assert len(named) >= 3, body
