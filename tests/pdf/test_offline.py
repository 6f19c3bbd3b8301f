"""Rendering a sheet never reaches for the network."""

import pytest
from weasyprint.urls import URLFetcher

import scorer.sheet
from scorer.sheet import NetworkRefused, OfflineFetcher, html_to_pdf, render_sheet


class SpyFetcher(OfflineFetcher):
    """The real offline fetcher, noting every URL it is asked for."""

    asked: list[str] = []

    def fetch(self, url, headers=None):
        """Record the URL, then behave exactly like the sheet's fetcher."""
        SpyFetcher.asked.append(url)
        return super().fetch(url, headers)


def test_sheet_asks_for_no_http_url(make_won, monkeypatch):
    """A full sheet (chart and appendix included) asks the fetcher for no http(s) URL."""
    SpyFetcher.asked = []
    monkeypatch.setattr(scorer.sheet, "OfflineFetcher", SpyFetcher)
    # A name that looks like a URL stays text: it must never be fetched either.
    game = make_won(["Аня", "http://127.0.0.1:9/x.png", "Вика"])
    assert render_sheet(game, appendix=True).startswith(b"%PDF")
    assert not [u for u in SpyFetcher.asked if u.lower().startswith(("http:", "https:"))]


@pytest.mark.parametrize("url", ["http://127.0.0.1:9/style.css", "https://127.0.0.1:9/a.css",
                                 "ftp://127.0.0.1:9/a.css"])
def test_fetcher_refuses_network_urls(url):
    """The fetcher raises before opening anything that is not a local file or data."""
    with pytest.raises(NetworkRefused):
        OfflineFetcher().fetch(url)


def test_remote_stylesheet_stops_rendering(monkeypatch):
    """A remote resource in the HTML makes rendering fail instead of silently going out."""
    opened = []
    monkeypatch.setattr(URLFetcher, "open", lambda self, *a, **k: opened.append(a))
    html = '<link rel="stylesheet" href="http://127.0.0.1:9/x.css"><p>x</p>'
    with pytest.raises(NetworkRefused):
        html_to_pdf(html)
    assert opened == []


def test_local_data_urls_still_work():
    """Refusing the network does not break local data: URLs."""
    html = '<img src="data:image/svg+xml,<svg xmlns=%22http://www.w3.org/2000/svg%22/>"><p>x</p>'
    assert html_to_pdf(html).startswith(b"%PDF")
