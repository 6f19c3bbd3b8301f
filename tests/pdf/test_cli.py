"""``python -m scorer pdf`` run as a real process from another directory."""

import io
import json
import os
import subprocess
import sys

import pypdf
from sheet_games import long_log, won_log


def run_pdf(args, cwd, **kwargs):
    """Run the pdf subcommand in ``cwd`` and return the finished process."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([sys.executable, "-m", "scorer", "pdf", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300, env=env, **kwargs)


def test_cli_writes_the_sheet_from_another_directory(tmp_path):
    """From a folder outside the checkout, a game file becomes a readable PDF."""
    (tmp_path / "game.json").write_text(json.dumps(won_log(), ensure_ascii=False),
                                        encoding="utf-8")
    done = run_pdf(["game.json", "-o", "sheet.pdf"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "" and done.stderr == ""
    reader = pypdf.PdfReader(io.BytesIO((tmp_path / "sheet.pdf").read_bytes()))
    text = "".join(page.extract_text() for page in reader.pages)
    assert "Победитель" in text and "Борис" in text


def test_cli_landscape_english_appendix(tmp_path):
    """The options reach the sheet."""
    (tmp_path / "game.json").write_text(json.dumps(long_log(8)), encoding="utf-8")
    done = run_pdf(["game.json", "-o", "out.pdf", "--lang", "en", "--landscape",
                    "--appendix"], tmp_path)
    assert done.returncode == 0, done.stderr
    reader = pypdf.PdfReader(str(tmp_path / "out.pdf"))
    page = reader.pages[0]
    assert float(page.mediabox.width) > float(page.mediabox.height)
    text = "".join(p.extract_text() for p in reader.pages)
    assert "Why each number" in text and "Declarer" in text


def test_cli_invalid_json_is_one_line_and_status_2(tmp_path):
    """Unreadable JSON: one line on stderr, exit 2, no PDF written."""
    (tmp_path / "bad.json").write_text('{"format": "thousand-game/1", ', encoding="utf-8")
    done = run_pdf(["bad.json", "-o", "sheet.pdf"], tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert done.stderr.startswith("игра:")
    assert not (tmp_path / "sheet.pdf").exists()


def test_cli_invalid_deal_names_deal_field_rule(tmp_path):
    """A bad record is refused with the engine's message, in the chosen language."""
    log = won_log()
    log["deals"][1]["points"] = [100, 10, 5]
    (tmp_path / "game.json").write_text(json.dumps(log), encoding="utf-8")
    done = run_pdf(["game.json", "-o", "sheet.pdf", "--lang", "en"], tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("deal 2: points:"), lines
    assert not (tmp_path / "sheet.pdf").exists()


def test_cli_missing_file_is_one_line(tmp_path):
    """A file that is not there is reported the same way."""
    done = run_pdf(["nope.json", "-o", "sheet.pdf"], tmp_path)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "nope.json" in done.stderr


def test_cli_reads_a_game_from_the_app_database(app, tmp_path):
    """--game ID --instance DIR renders the stored game (live deals only) from SQLite."""
    from scorer import store

    log = won_log()
    games = store.Store(store.connect(app.config["DATABASE"]))
    row = games.create_game({k: v for k, v in log.items() if k != "deals"},
                            log["deals"] + [log["deals"][0]])
    # The fifth deal would follow the win; deleting it (a revision) makes the log valid.
    last = games.slots(row.id)[-1]
    games.revise_deal(row.id, last.id, None, "delete")
    games.db.close()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = run_pdf(["--game", str(row.id), "--instance", app.instance_path, "-o", "s.pdf"],
                   elsewhere)
    assert done.returncode == 0, done.stderr
    text = "".join(p.extract_text() for p in pypdf.PdfReader(str(elsewhere / "s.pdf")).pages)
    assert "Победитель" in text and "Аня" in text


def test_cli_unknown_game_id_is_one_line(app, tmp_path):
    """An id that is not in the database: one line, status 2."""
    done = run_pdf(["--game", "999", "--instance", app.instance_path, "-o", "s.pdf"], tmp_path)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "999" in done.stderr
    assert not (tmp_path / "s.pdf").exists()
