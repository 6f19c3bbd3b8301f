"""The examples in the small pure helpers' docstrings and in docs/ENGINE-API.md run as
tests (doctest), so an example that drifts from the code fails."""

import contextlib
import dataclasses
import doctest
import inspect
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


# -- the listings: every name ENGINE-API.md lists is there, with the parameters it shows --

LISTED = re.compile(r"^(?P<head>[A-Za-z_]\w*)(?:\.(?P<attr>\w+))?(?P<call>\((?P<args>[^)]*))?")


def listing_lines() -> list[str]:
    """The lines of the fenced python blocks that list the API (not the examples)."""
    text = ENGINE_API.read_text(encoding="utf-8")
    return [line.split("  #")[0].rstrip() for match in FENCED.finditer(text)
            if ">>>" not in match.group(1) for line in match.group(1).splitlines()
            if line and not line[0].isspace() and not line.startswith(("#", "class "))]


def top_level_names(args: str) -> list[str]:
    """The parameter names of a listed call: ``points: tuple[int, ...], dark=False`` gives
    points and dark (commas inside brackets do not split)."""
    parts, depth, current = [], 0, ""
    for char in args:
        if char in "[{(":
            depth += 1
        elif char in "]})":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    names = [re.match(r"\s*(\w+)", part) for part in parts]
    return [found.group(1) for found in names if found]


def members(thing: object) -> set[str]:
    """What a listed name may be followed by: attributes, dataclass and NamedTuple fields,
    or a function's parameters."""
    found = set(dir(thing))
    if dataclasses.is_dataclass(thing):
        found |= {f.name for f in dataclasses.fields(thing)}
    if callable(thing):
        with contextlib.suppress(TypeError, ValueError):
            found |= set(inspect.signature(thing).parameters)
    return found


def problems(line: str) -> list[str]:
    """What a listing line names that scorer.engine (or its texts) does not have."""
    import scorer.engine
    from scorer.engine import texts

    found = LISTED.match(line)
    if found is None or len(found["head"]) == 1:  # `t.append(...)`: a variable
        return []
    if found["head"] == "texts":  # texts.tr(...): a function of the text catalog
        thing, attr = getattr(texts, found["attr"], None), None
    else:
        thing, attr = getattr(scorer.engine, found["head"], None), found["attr"]
    if thing is None:
        return [f"{line}: not in scorer.engine"]
    owner = thing  # what ``.rows, .score`` after ``Protocol.players`` belong to
    if attr:
        if attr not in members(thing):
            return [f"{line}: no {attr}"]
        thing = getattr(thing, attr, None)
    out = []
    if found["call"] and thing is not None:
        unknown = set(top_level_names(found["args"])) - members(thing)
        if unknown:
            out.append(f"{line}: no parameter {sorted(unknown)}")
    rest = line[found.end():].split(")")[-1]
    extra = set(re.findall(r"(?:^|,\s*)\.(\w+)", rest)) - members(owner)
    if extra:
        out.append(f"{line}: no {sorted(extra)}")
    return out


def test_every_listed_name_and_parameter_exists():
    """``replay_state(game, resume=None)`` in the document means scorer.engine has
    replay_state taking game and resume; ``Protocol.rows`` that Protocol has rows."""
    lines = listing_lines()
    assert len(lines) > 30
    missing = [problem for line in lines for problem in problems(line)]
    assert not missing, "\n".join(missing)
