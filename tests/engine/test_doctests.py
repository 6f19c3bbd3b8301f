"""The examples in the small pure helpers' docstrings run as tests (doctest)."""

import doctest

import pytest

from scorer.engine import protocol, scoring

HELPERS = {
    scoring: ("round_points", "raspis_payout", "marriage_value"),
    protocol: ("signed",),
}


@pytest.mark.parametrize("module", list(HELPERS), ids=lambda m: m.__name__)
def test_docstring_examples(module):
    """Every example of the module passes, and each listed helper has at least one."""
    finder = doctest.DocTestFinder()
    tests = {t.name.rsplit(".", 1)[-1]: t for t in finder.find(module) if t.examples}
    missing = [name for name in HELPERS[module] if name not in tests]
    assert not missing, f"no doctest examples in {missing}"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests.values():
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, result
