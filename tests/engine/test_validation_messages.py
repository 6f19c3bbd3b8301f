"""Every validation rule of docs/RULES.md §3 (and the §10 record rules) has its exact message.

The cases are the scenario files that carry ``error`` and ``rule``; this module checks
the structured error behind each message and that no rule of §3 lacks a case.
"""

import json
import subprocess
import sys

import pytest
from scenario_files import load, scenario_id, scenario_paths

from scorer.engine import RuleError, parse_game, replay

# The rules of docs/RULES.md §3 and the record rules of §10, by the engine's stable codes.
SECTION_3 = {
    "declarer.active", "declarer.golden",
    "contract.step", "contract.min", "contract.max", "contract.golden",
    "contract.golden_raise", "contract.dark",
    "points.count", "points.inactive", "points.missing", "points.range", "points.one",
    "points.sum", "points.sum2",
    "marriages.suit", "marriages.inactive", "marriages.twice", "marriages.half_used",
    "marriages.ace_off", "marriages.half_off", "marriages.no_tricks",
    "marriages.no_tricks_declarer",
    "no_tricks.inactive", "no_tricks.points", "no_tricks.all",
    "dark.off", "dark.first_hand", "dark.barrel", "dark.golden",
    "raspis.off", "raspis.limit", "raspis.golden", "raspis.dark", "raspis.barrel_player",
    "raspis.barrel_anybody",
    "prikup.four_only", "prikup.off", "prikup.required", "prikup.points", "prikup.marriage",
    "prikup.aces", "prikup.aces_required", "prikup.fit",
    "after_win",
    "player.range", "reason.unknown", "reason.cut_nines_off", "reason.four_nines_off",
    "amount.cut_nines", "amount.four_nines", "amount.zero", "amount.range", "amount.total",
}

CASES = [(p, load(p)) for p in scenario_paths()]
CASES = [(p, d) for p, d in CASES if "error" in d]
IDS = [scenario_id(p) for p, _ in CASES]


def refusal(game: dict) -> RuleError:
    """The RuleError a game log raises (failing the test if it raises none)."""
    with pytest.raises(RuleError) as info:
        replay(parse_game(game))
    return info.value


def test_every_section_3_rule_has_a_case():
    """No rule of §3 is left without a scenario showing its message."""
    covered = {d.get("rule") for _, d in CASES}
    assert not SECTION_3 - covered, sorted(SECTION_3 - covered)


def test_every_error_scenario_names_its_rule():
    """An error scenario without ``rule`` could not be checked structurally."""
    assert [scenario_id(p) for p, d in CASES if not d.get("rule")] == []


@pytest.mark.parametrize("path,doc", CASES, ids=IDS)
def test_message(path, doc):
    """Exact English text; the structured fields agree with it; Russian is worded apart."""
    err = refusal(doc["game"])
    assert err.message("en") == doc["error"]
    assert str(err) == doc["error"]
    assert err.rule == doc["rule"]
    where, field, text = doc["error"].split(": ", 2)
    assert err.field == field
    assert err.text("en") == text
    if where == "game":
        assert err.deal is None
        assert err.message("ru").startswith(f"игра: {field}: ")
    else:
        assert where == f"deal {err.deal}"
        assert err.message("ru").startswith(f"кон {err.deal}: {field}: ")
    # The Russian text must be a translation, not the English one or a raw code.
    assert err.text("ru") != err.text("en")
    assert err.rule not in err.text("ru")
    if "[" in text:
        assert text.endswith(f"[{err.agreement}]")
        assert f"[{err.agreement}]" in err.message("ru")


@pytest.mark.parametrize("path,doc", CASES, ids=IDS)
def test_refusal_changes_nothing(path, doc):
    """The records before the refused one replay as if the bad one was never there."""
    err = refusal(doc["game"])
    if err.deal is None:
        return
    good = {**doc["game"], "deals": doc["game"]["deals"][:err.deal - 1]}
    assert len(replay(parse_game(good)).rows) == err.deal - 1


CLI_CASES = ["validation/points_sum", "validation/raspis_barrel_player",
             "validation/adjustment_amount_huge",
             "validation/game_unknown_agreement", "adjustments/cut_nines_amount"]


@pytest.mark.parametrize("name", CLI_CASES)
def test_cli_prints_one_line_and_exits_2(name, tmp_path):
    """``python -m scorer replay`` refuses with status 2, one stderr line, empty stdout."""
    doc = dict(CASES)[next(p for p, _ in CASES if scenario_id(p) == name)]
    game_file = tmp_path / "game.json"
    game_file.write_text(json.dumps(doc["game"], ensure_ascii=False), encoding="utf-8")
    for lang in ("en", "ru"):
        done = subprocess.run([sys.executable, "-m", "scorer", "replay", str(game_file),
                               "--lang", lang], cwd=tmp_path, capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 2
        assert done.stdout == ""
        lines = done.stderr.splitlines()
        assert len(lines) == 1, done.stderr
        if lang == "en":
            assert lines[0] == doc["error"]
        else:
            assert lines[0].startswith(("кон ", "игра: "))


def _log(deal: dict) -> dict:
    """A three-player classic log with one record."""
    return {"format": "thousand-game/1", "players": ["A", "B", "C"],
            "agreements": {"preset": "classic"}, "deals": [deal]}


def test_a_float_beyond_range_is_not_an_integer():
    """JSON's -1e400 reads as -inf: refused as "integer", with a message that prints."""
    deal = json.loads('{"type": "adjustment", "player": 0, "amount": -1e400, "reason": "other"}')
    err = refusal(_log(deal))
    assert (err.deal, err.field, err.rule) == (1, "amount", "integer")
    assert err.message("en") == "deal 1: amount: must be an integer (got -inf)"


@pytest.mark.parametrize("deal,field,rule", [
    ({"type": "adjustment", "player": 0, "amount": 10 ** 5000, "reason": "other"},
     "amount", "amount.range"),
    ({"type": "adjustment", "player": 0, "amount": -(10 ** 5000), "reason": "misdeal"},
     "amount", "amount.range"),
    ({"type": "play", "declarer": 0, "contract": 100, "points": [10 ** 5000, 0, 0]},
     "points", "points.range"),
    ({"type": "play", "declarer": 0, "contract": -(10 ** 5000), "points": [120, 0, 0]},
     "contract", "contract.min"),
])
def test_numbers_past_python_s_str_limit_are_refused_in_one_short_line(deal, field, rule):
    """Ints of 5000 digits (past Python's int-to-str limit) give a short refusal, both languages."""
    err = refusal(_log(deal))
    assert (err.deal, err.field, err.rule) == (1, field, rule)
    for lang in ("en", "ru"):
        assert len(err.message(lang)) < 120
    if rule == "amount.range":
        assert "e5000" in err.message("en") and "e5000" in err.message("ru")


def test_an_adjustment_at_the_bounds_is_accepted():
    """100 000 either way is allowed, and a total of exactly ±1 000 000 too."""
    log = _log({"type": "adjustment", "player": 0, "amount": 100_000, "reason": "other"})
    log["agreements"] = {"preset": "classic", "overrides": {"barrel": False}}
    assert replay(parse_game(log)).winner == 0
    down = {"type": "adjustment", "player": 1, "amount": -100_000, "reason": "other"}
    log = {**_log(down), "deals": [down] * 10}
    assert replay(parse_game(log)).score == (0, -1_000_000, 0)
