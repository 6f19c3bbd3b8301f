"""The sheet's header says how long a finished game was played («Играли 2 ч 40 мин»)."""

import io
import re
import subprocess
import sys
from pathlib import Path

import pypdf
from sheet_games import won_log

from scorer import store

ROOT = Path(__file__).resolve().parents[2]


def stored_won_game(app, minutes: int) -> store.GameRow:
    """A finished game in the app's database whose row was stored ``minutes`` before its deals."""
    log = won_log()
    games = store.Store(store.connect(app.config["DATABASE"]))
    row = games.create_game({k: v for k, v in log.items() if k != "deals"})
    with games.db.conn:
        games.db.execute("update games set created = strftime('%Y-%m-%dT%H:%M:%S+00:00',"
                         " 'now', ?)", [f"-{minutes} minutes"])
    for record in log["deals"]:
        games.add_deal(row.id, record)
    games.db.close()
    return row


def text_of(pdf: bytes) -> str:
    """Every page's text."""
    return "".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages)


def test_the_downloaded_and_the_cli_sheet_say_how_long_they_played(app, client, tmp_path):
    """The web's PDF and ``pdf --game`` both carry the length read from the stored times."""
    row = stored_won_game(app, 160)
    served = client.get(f"/g/{row.edit_token}/sheet.pdf")
    assert served.status_code == 200, served.status_code
    assert "Играли 2 ч 40 мин" in text_of(served.data)
    english = client.get(f"/g/{row.edit_token}/sheet.pdf",
                         headers={"Accept-Language": "en"})
    assert re.search(r"Played for 2 h 40 min", text_of(english.data))
    done = subprocess.run([sys.executable, "-m", "scorer", "pdf", "--game", str(row.id),
                           "--instance", app.instance_path, "-o", str(tmp_path / "s.pdf"),
                           "--lang", "uk"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Грали 2 год 40 хв" in text_of((tmp_path / "s.pdf").read_bytes())


def test_a_game_file_has_no_clock_and_says_nothing(app, client, tmp_path):
    """A log read from a file keeps no times: no length on its sheet."""
    from scorer.engine import parse_game
    from scorer.sheet import sheet_html

    assert "played-for" not in sheet_html(parse_game(won_log()))
    assert "Играли 1 ч 5 мин" in sheet_html(parse_game(won_log()), minutes=65)
