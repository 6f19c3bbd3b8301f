"""templates/sheet/print.css on the real game page, printed by the real Chromium."""

import io
import re
import sys
from pathlib import Path

import pypdf
import pytest

from scorer import store
from scorer.paths import data_dir

# The sheet tests' game (one copy); tests/pdf is on sys.path only when its tests run.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "pdf"))
from sheet_games import long_log  # noqa: E402


def printable_page(app, client, deals: int) -> str:
    """The game page's HTML with app.css inline and our print.css as the print sheet."""
    log = long_log(deals)
    games = store.Store(store.connect(app.config["DATABASE"]))
    row = games.create_game({k: v for k, v in log.items() if k != "deals"}, log["deals"])
    games.db.close()
    response = client.get(f"/g/{row.edit_token}?rows=all")  # every row, as on paper
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    static = Path(app.static_folder)
    screen = (static / "app.css").read_text(encoding="utf-8")
    paper = (data_dir("templates") / "sheet" / "print.css").read_text(encoding="utf-8")
    # Inline everything (nothing is fetched) and drop the page's own links and scripts.
    html = re.sub(r"<link [^>]*>|<script[^>]*>.*?</script>", "", html, flags=re.S)
    return html.replace("</head>", f"<style>{screen}</style>"
                                   f"<style media=\"print\">{paper}</style></head>")


@pytest.mark.browser
def test_browser_print_gives_a_clean_a4_sheet(app, client, browser):
    """Printed from Chromium: A4 pages, the table header on each, no buttons, the legend."""
    html = printable_page(app, client, 90)
    page = browser.new_page()
    try:
        page.route("**/*", lambda route: route.abort())  # no request leaves the page
        page.set_content(html)
        pdf = page.pdf(prefer_css_page_size=True)
    finally:
        page.close()
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) >= 2
    texts = [page.extract_text() for page in reader.pages]
    for page in reader.pages:
        assert abs(float(page.mediabox.width) - 595.3) <= 1.5
        assert abs(float(page.mediabox.height) - 841.9) <= 1.5
    with_rows = [t for t in texts if "сдача:" in t]
    assert len(with_rows) >= 2
    for text in with_rows:
        assert "№" in text and all(name in text for name in ("Аня", "Борис", "Вика"))
    everything = "\n".join(texts)
    for screen_only in ("Записать кон", "Печать / PDF", "Поделиться", "Экспорт"):
        assert screen_only not in everything
    assert "Обозначения" in everything
