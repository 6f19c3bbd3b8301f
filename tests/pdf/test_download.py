"""The game page's "Print / PDF" link serves the same sheet as ``python -m scorer pdf``."""

import io
import json
import re
import subprocess
import sys

import pypdf
from sheet_games import long_log

from scorer import store


def page_texts(pdf: bytes) -> list[str]:
    """The text of every page of a PDF."""
    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages]


def test_print_button_gives_the_cli_sheet(app, client, tmp_path):
    """Follow the button's link on the game page; the PDF reads exactly as the CLI's."""
    log = long_log(40)
    games = store.Store(store.connect(app.config["DATABASE"]))
    row = games.create_game({k: v for k, v in log.items() if k != "deals"}, log["deals"])
    games.db.close()
    page = client.get(f"/g/{row.edit_token}").get_data(as_text=True)
    link = re.search(r'<a [^>]*href="([^"]+)"[^>]*id="pdf-link"', page)
    assert link, "the game page has no Print / PDF link"
    served = client.get(link.group(1))
    assert served.status_code == 200 and served.mimetype == "application/pdf"

    (tmp_path / "game.json").write_text(json.dumps(log, ensure_ascii=False), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "scorer", "pdf", "game.json", "-o", "cli.pdf"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    expected = page_texts((tmp_path / "cli.pdf").read_bytes())
    assert len(expected) >= 2
    assert page_texts(served.data) == expected
