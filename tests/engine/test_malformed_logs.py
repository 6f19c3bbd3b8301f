"""Any JSON a file can hold gets a RuleError from the engine, never another exception."""

import copy
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.engine import RuleError, parse_game, replay

EXAMPLE = json.loads((Path(__file__).resolve().parents[2] / "examples" / "friday.json")
                     .read_text(encoding="utf-8"))

LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20),
                   st.floats(allow_nan=True), st.text(max_size=5))
JSON = st.recursive(LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)),
    max_leaves=6)


def _paths(node, path=()):
    """Every place in a JSON document, as a tuple of keys and indexes."""
    yield path
    items = node.items() if isinstance(node, dict) else (
        enumerate(node) if isinstance(node, list) else ())
    for key, child in items:
        yield from _paths(child, (*path, key))


PATHS = list(_paths(EXAMPLE))[1:]


@settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(PATHS), JSON)
def test_any_value_anywhere_is_refused_cleanly(path, value):
    """Replace one value of a valid log by arbitrary JSON: replay works or says RuleError."""
    doc = copy.deepcopy(EXAMPLE)
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    try:
        replay(parse_game(doc))
    except RuleError as err:
        assert err.message("en") and err.message("ru")


def test_the_example_replays():
    """The unmutated example is valid, so the property above starts from a good log."""
    assert replay(parse_game(EXAMPLE)).rows
