"""``python -m scorer compare``: the JSON shape, the readable text and one-line refusals."""

import json
import subprocess
import sys

import pytest

GAME = {
    "format": "thousand-game/1", "players": ["Аня", "Борис", "Вика"],
    "agreements": {"preset": "classic", "overrides": {"bolt_penalty": "none"}},
    "deals": [
        {"type": "play", "declarer": 0, "contract": 100, "points": [60, 30, 30],
         "marriages": {"0": ["hearts"]}},
        {"type": "raspis", "declarer": 1, "contract": 110},
        {"type": "play", "declarer": 2, "contract": 100, "points": [20, 20, 80],
         "marriages": {}},
    ],
}


def scorer(tmp_path, *args: str) -> subprocess.CompletedProcess:
    """Run ``python -m scorer compare GAME ARGS`` on the game above."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(GAME, ensure_ascii=False), encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "scorer", "compare", str(path), *args],
                          capture_output=True, text=True, timeout=60)


def test_json_has_the_documented_shape(tmp_path):
    """Both totals, no refusal, the first differing row and a row per deal."""
    out = scorer(tmp_path, "--set", "target=100", "--set", "barrel_threshold=100", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) == {"base", "other", "first_difference", "rows"}
    assert data["base"] == {"score": [175, -60, -15], "winner": None}
    assert data["other"] == {"score": [100, -60, -15], "winner": None, "refused": None,
                             "ended_at": None}
    assert data["first_difference"] == 2
    assert [r["n"] for r in data["rows"]] == [1, 2, 3]
    assert [r["differs"] for r in data["rows"]] == [False, True, True]
    assert data["rows"][1]["other"]["score"] == [100, -80, 85]
    assert any("бочк" in why for why in data["rows"][1]["other"]["why"][0])


def test_a_refusal_is_reported_not_an_error(tmp_path):
    """Concession off: deal 2 refused, named with the player and the agreement's title."""
    out = scorer(tmp_path, "--set", "raspis=off", "--json", "--lang", "en")
    assert out.returncode == 0, out.stderr
    other = json.loads(out.stdout)["other"]
    assert other["refused"] == {
        "deal": 2, "message": "deal 2: Борис: a concession is not agreed — Concession allowed"}
    assert other["ended_at"] is None
    rows = json.loads(out.stdout)["rows"]
    assert rows[1]["other"] is None and rows[0]["other"] is not None


def test_an_early_win_ends_the_comparison(tmp_path):
    """To 100 without a barrel: Аня wins at deal 1; the text says so."""
    out = scorer(tmp_path, "--set", "target=100", "--set", "barrel=no", "--json")
    assert json.loads(out.stdout)["other"]["ended_at"] == 1
    text = scorer(tmp_path, "--set", "target=100", "--set", "barrel=no", "--lang", "en")
    assert "Аня wins at deal 1" in text.stdout


def test_preset_replaces_the_whole_set_and_drops_the_overrides(tmp_path):
    """--preset classic undoes the game's bolt_penalty override; no --preset keeps it."""
    text = scorer(tmp_path, "--preset", "classic", "--lang", "en").stdout
    assert "[bolt_penalty]" in text
    kept = scorer(tmp_path, "--set", "target=1000", "--lang", "en").stdout
    assert "[bolt_penalty]" not in kept and "No deal scores differently." in kept


def test_readable_text_shows_both_totals_and_the_first_parting(tmp_path):
    """Totals under both sets, the differing rows and both «why» texts."""
    out = scorer(tmp_path, "--set", "target=100", "--set", "barrel_threshold=100")
    assert out.returncode == 0
    assert "175" in out.stdout and "100" in out.stdout
    assert "Расходятся на коне 2:" in out.stdout
    assert "Порог бочки: 880 → 100" in out.stdout


@pytest.mark.parametrize("args, words", [
    (["--set", "nosuch=1"], "nosuch"),
    (["--set", "target=abc"], "target"),
    (["--set", "target"], "'target'"),
    (["--preset", "nope"], "nope"),
])
def test_bad_input_is_one_line_and_status_2(tmp_path, args, words):
    """Unknown agreement, bad value, missing '=', unknown preset: one line, exit 2."""
    out = scorer(tmp_path, *args)
    assert out.returncode == 2
    assert out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1 and words in out.stderr
