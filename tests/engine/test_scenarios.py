"""Every scenario file: its game replays to the expected protocol subset or error."""

import pytest
from scenario_files import load, mismatches, outcome, scenario_id, scenario_paths

PATHS = scenario_paths()


def test_every_area_has_scenarios():
    """Every area of the rules (AREAS) is covered by at least one file."""
    from scenario_files import AREAS

    present = {p.parent.name for p in PATHS}
    assert set(AREAS) <= present, sorted(set(AREAS) - present)


@pytest.mark.parametrize("path", PATHS, ids=scenario_id)
def test_scenario(path):
    """Replay the file's game; compare with ``expect`` (a subset) or the exact ``error``."""
    doc = load(path)
    kind, result = outcome(doc["game"])
    if "error" in doc:
        assert kind == "error", f"expected refusal {doc['error']!r}, but the game replayed"
        assert result == doc["error"]
    else:
        assert kind == "ok", f"unexpected refusal: {result}"
        problems = mismatches(doc["expect"], result)
        assert not problems, "\n".join([doc["description"], *problems])


def test_matcher_catches_differences():
    """The subset matcher itself must fail on a wrong number, length or event."""
    from scenario_files import mismatches

    actual = {"rows": [{"delta": [1, 2], "events": [{"seat": 0, "kind": "bolt"},
                                                    {"seat": 1, "kind": "win"}]}]}
    assert not mismatches({"rows": [{}]}, actual)
    assert not mismatches({"rows": [{"events": [{"seat": 1, "kind": "win"},
                                                {"seat": 0, "kind": "bolt"}]}]}, actual)
    assert mismatches({"rows": [{"delta": [1, 3]}]}, actual)
    assert mismatches({"rows": [{}, {}]}, actual)
    assert mismatches({"rows": [{"events": [{"seat": 1, "kind": "win"}]}]}, actual)
    assert mismatches({"rows": [{"events": [{"seat": 1, "kind": "win"},
                                            {"seat": 1, "kind": "win"}]}]}, actual)
    assert mismatches({"winner": None}, {"winner": 0})
    assert mismatches({"dark": False}, {"dark": 0})
