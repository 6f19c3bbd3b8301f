"""Every enforced agreement changes the outcome of at least one scenario.

A grep for the id would not prove anything: each toggle scenario is replayed with and
without its override, and the protocol (or the validation result) must differ.
"""

import pytest
from scenario_files import load, outcome, scenario_id, scenario_paths, without_override

from scorer.engine import catalog

TOGGLED = [(p, load(p)) for p in scenario_paths()]
TOGGLED = [(p, d) for p, d in TOGGLED if "toggle" in d]


def test_every_enforced_agreement_has_a_toggle_scenario():
    """The catalog's enforced ids minus the toggled ids must be empty."""
    enforced = {i for i, spec in catalog().agreements.items() if spec.enforced}
    toggled = {d["toggle"]["id"] for _, d in TOGGLED}
    assert enforced, "the catalog lists no enforced agreement"
    missing = sorted(enforced - toggled)
    assert not missing, f"enforced agreements without a toggle scenario: {missing}"
    unknown = sorted(toggled - set(catalog().agreements))
    assert not unknown, f"toggle scenarios for ids the catalog lacks: {unknown}"


@pytest.mark.parametrize("path,doc", TOGGLED, ids=[scenario_id(p) for p, _ in TOGGLED])
def test_toggle_changes_the_outcome(path, doc):
    """With the override the result differs from the preset's value."""
    toggle = doc["toggle"]
    overrides = doc["game"]["agreements"]["overrides"]
    assert overrides.get(toggle["id"]) == toggle["value"], "the file's game must carry the toggle"
    preset = doc["game"]["agreements"].get("preset", "classic")
    base = catalog().presets[preset].values.get(toggle["id"],
                                                catalog().agreements[toggle["id"]].default)
    assert base != toggle["value"], "the toggle value equals the preset's: nothing to compare"
    with_it = outcome(doc["game"])
    without_it = outcome(without_override(doc["game"], toggle["id"]))
    assert with_it != without_it, f"{toggle} changes nothing in {path.name}"
