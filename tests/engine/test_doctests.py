"""The examples in the small pure helpers' docstrings and in docs/ENGINE-API.md run as
tests (doctest), so an example that drifts from the code fails."""

import doctest
import re
from pathlib import Path

import pytest

from scorer.engine import protocol, scoring

HELPERS = {
    scoring: ("round_points", "raspis_payout", "marriage_value"),
    protocol: ("signed",),
}
ENGINE_API = Path(__file__).resolve().parents[2] / "docs" / "ENGINE-API.md"
FENCED = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


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


def engine_api_examples() -> list[doctest.DocTest]:
    """One doctest per fenced python block of ENGINE-API.md that holds ``>>>`` examples."""
    parser = doctest.DocTestParser()
    text = ENGINE_API.read_text(encoding="utf-8")
    tests = []
    for match in FENCED.finditer(text):
        line = text.count("\n", 0, match.start(1))
        test = parser.get_doctest(match.group(1), {}, f"ENGINE-API.md:{line + 1}",
                                  str(ENGINE_API), line)
        if test.examples:
            tests.append(test)
    return tests


def test_engine_api_has_examples():
    """The API document keeps runnable examples (a rewrite cannot drop them unnoticed)."""
    assert len(engine_api_examples()) >= 5


@pytest.mark.parametrize("test", engine_api_examples(), ids=lambda t: t.name)
def test_engine_api_examples(test):
    """Each example block of docs/ENGINE-API.md gives the output written under it."""
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    failures = []
    runner.run(test, out=failures.append)
    assert runner.summarize(verbose=False).failed == 0, "".join(failures)
