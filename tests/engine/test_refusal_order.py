"""RULES.md §10 «Which refusal comes first»: the earliest bad record of a log is named,
whatever its kind, by the engine, `replay`, `compare` and `import` alike."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest

from scorer.engine import RuleError, checked_parts, load_game, parse_game, replay

HEAD = {"format": "thousand-game/2", "players": ["Аня", "Борис", "Вика"],
        "agreements": {"preset": "classic", "overrides": {"max_contract": 120}}}
# Deal 1 breaks a rule of §3 (a contract above max_contract): only a replay finds it.
TOO_HIGH = {"type": "play", "declarer": 1, "contract": 125, "points": [20, 100, 0],
            "marriages": {"1": ["hearts"]}}
FINE = {"type": "play", "declarer": 1, "contract": 100, "points": [20, 100, 0]}
# Records that cannot even be read: each is refused while the log is parsed.
UNREADABLE = [
    {"type": "agreements", "changes": {"penalty": 4}},
    {"type": "agreements", "changes": {"no_such_rule": 1}},
    {"type": "agreements", "changes": {"golden": True}},
    {"type": "bogus"},
    {"type": "play", "declarer": 1},
    "not an object",
]
ISSUE_LOG = {**HEAD, "deals": [TOO_HIGH, UNREADABLE[0]]}


def first_refusal(log: dict) -> RuleError:
    """The refusal of parse + replay, as every reader of a log does them."""
    with pytest.raises(RuleError) as caught:
        replay(parse_game(copy.deepcopy(log)))
    return caught.value


@pytest.mark.parametrize("bad", UNREADABLE, ids=range(len(UNREADABLE)))
def test_a_rule_broken_earlier_is_named_before_a_record_that_cannot_be_read(bad):
    """Deal 2 broken by a rule, deal 4 unreadable: deal 2 is named."""
    err = first_refusal({**HEAD, "deals": [FINE, TOO_HIGH, FINE, bad]})
    assert (err.deal, err.rule) == (2, "contract.max")


@pytest.mark.parametrize("bad", UNREADABLE, ids=range(len(UNREADABLE)))
def test_a_record_that_cannot_be_read_earlier_is_named_before_a_later_rule(bad):
    """The other way round: the unreadable deal 2 comes before the rule broken at deal 3."""
    assert first_refusal({**HEAD, "deals": [FINE, bad, TOO_HIGH]}).deal == 2


def test_a_version_1_log_with_a_change_record_after_a_bad_deal_names_the_deal():
    """`format.version` is a record's refusal too: the bad deal before it is named first."""
    log = {**HEAD, "format": "thousand-game/1",
           "deals": [TOO_HIGH, {"type": "agreements", "changes": {"penalty": 100}}]}
    assert first_refusal(log).deal == 1
    log["deals"][0] = FINE
    assert (first_refusal(log).deal, first_refusal(log).rule) == (2, "format.version")


def test_the_issue_log_is_refused_at_deal_1_by_load_and_by_import():
    """load_game (the CLI and the web import read through it) and checked_parts agree."""
    text = json.dumps(ISSUE_LOG)
    for read in (lambda: replay(load_game(text)), lambda: checked_parts(json.loads(text))):
        with pytest.raises(RuleError) as caught:
            read()
        assert caught.value.message("en") == "deal 1: contract: must be at most 120 [max_contract]"


def test_an_error_of_the_whole_game_comes_before_any_record():
    """A bad title (a game: error) is named before a bad record."""
    err = first_refusal({**ISSUE_LOG, "title": 5})
    assert err.deal is None and err.field == "title"


@pytest.mark.parametrize("command", ["replay", "compare"])
def test_the_command_line_names_the_earliest_record(tmp_path, command):
    """`replay` and `compare` print one line naming deal 1 and exit 2."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(ISSUE_LOG), encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "scorer", command, str(path), "--lang", "en"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "deal 1" in lines[0] and "deal 2" not in lines[0], out.stderr
