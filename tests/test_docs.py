"""The docs say what the code does (datasette's test_docs.py): every engine name that
docs/ENGINE-API.md lists exists, README's command table is the CLI's parser, every doc a
doc cites exists, and no issue number is left in the code or the docs."""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import re
import subprocess
from pathlib import Path

import pytest

import scorer.engine as engine
from scorer.cli import build_parser
from scorer.engine import texts

ROOT = Path(__file__).resolve().parents[1]
NAME = r"[A-Za-z_][A-Za-z0-9_]*"


def tracked(*patterns: str) -> list[Path]:
    """The checkout's tracked files matching the git pathspecs."""
    out = subprocess.run(["git", "ls-files", "--", *patterns], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.split()
    return [ROOT / p for p in out]


def api_lines() -> list[str]:
    """The signature lines of ENGINE-API.md's code blocks (no doctest lines)."""
    text = (ROOT / "docs" / "ENGINE-API.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    return [line for block in blocks for line in block.splitlines()
            if re.match(NAME, line) and not line.startswith(("class ", "deal ", "True"))]


def has(owner: object, attr: str) -> bool:
    """Whether a class or module has the attribute, a dataclass field included."""
    fields = ({f.name for f in dataclasses.fields(owner)}
              if dataclasses.is_dataclass(owner) else set())
    slots = set(getattr(owner, "__slots__", ()))
    assigned = isinstance(owner, type) and f"self.{attr} =" in inspect.getsource(owner)
    return hasattr(owner, attr) or attr in fields or attr in slots or assigned


def documented_names() -> list[tuple[str, str | None]]:
    """(name, attribute) for every name a signature line documents."""
    found: list[tuple[str, str | None]] = []
    for line in api_lines():
        code = line.split("#", 1)[0]
        head = re.match(rf"(?:texts\.)?({NAME})(?:\.({NAME}))?", code)
        assert head, line
        name, attr = head.groups()
        if code.startswith("texts."):
            found.append(("texts", name))
            continue
        if name == "t":  # t.append(...): a Timeline
            name = "Timeline"
        found.append((name, attr))
        # «Protocol.players, .rows, .score»: the other attributes of the same owner.
        if attr is not None:
            found += [(name, more) for more in re.findall(rf",\s*\.({NAME})", code)]
        if attr is None and re.fullmatch(rf"\s*{NAME}(\s*,\s*{NAME})+\s*", code):
            found += [(n, None) for n in re.findall(NAME, code)]  # a list of constants
        found += [(n, None) for n in re.findall(rf";\s*({NAME})\(", code)]
    return found


def test_every_name_engine_api_lists_exists():
    """Each function, class, attribute and constant of ENGINE-API.md is in the engine."""
    names = documented_names()
    assert len(names) > 60  # the scan really reads the signatures
    missing = []
    for name, attr in names:
        owner = texts if name == "texts" else getattr(engine, name, None)
        target = attr if name != "texts" else None
        if name == "texts":
            ok = has(texts, attr or "")
        else:
            ok = owner is not None and (target is None or has(owner, target))
        if not ok:
            missing.append(f"{name}.{attr}" if attr else name)
    assert missing == []


def commands() -> dict[str, argparse.ArgumentParser]:
    """Each subcommand of ``python -m scorer`` and its parser."""
    sub = next(a for a in build_parser()._actions
               if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def readme_rows() -> list[str]:
    """The command cells of README's command-line table."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"^\| `python -m scorer ([^`]+)`", text, re.M)


def test_readme_lists_every_command_with_options_the_parser_knows():
    """Every subcommand has a row; every option a row shows is one its parser takes."""
    parsers = commands()
    rows = readme_rows()
    shown = {re.split(r"[ |\\]", row)[0] for row in rows}
    for row in rows:  # «backup|restore …», «games archive\|unarchive …»
        shown |= set(re.findall(r"^(\w[\w-]*)(?:\\?\|(\w[\w-]*))+", row)[0]) if (
            re.match(r"^\w[\w-]*\\?\|\w", row)) else set()
    shown.discard("")
    assert shown == set(parsers), (shown ^ set(parsers))
    for row in rows:
        command = re.split(r"[ |\\]", row)[0]
        known = {o for a in parsers[command]._actions for o in a.option_strings}
        for sub in parsers[command]._actions:  # «games list --shelf»: a nested parser's
            if isinstance(sub, argparse._SubParsersAction):
                known |= {o for p in sub.choices.values() for a in p._actions
                          for o in a.option_strings}
        unknown = set(re.findall(r"--[a-z][a-z-]*", row)) - known
        assert not unknown, (row, unknown)


DOC = re.compile(r"\b((?:docs/)?[A-Z][A-Z0-9-]+\.md)\b")


@pytest.mark.parametrize("doc", ["README.md", *sorted(
    p.name for p in (ROOT / "docs").glob("*.md"))])
def test_every_doc_a_doc_cites_exists(doc):
    """A cited «PERFORMANCE.md» or «docs/STATS.md» is a file of the checkout."""
    path = ROOT / doc if doc == "README.md" else ROOT / "docs" / doc
    for cited in set(DOC.findall(path.read_text(encoding="utf-8"))):
        name = cited.removeprefix("docs/")
        assert (ROOT / "docs" / name).exists() or (ROOT / name).exists(), (doc, cited)


def test_no_issue_numbers_outside_the_changelog():
    """Code and docs say why, not which ticket: «issue 19» means nothing to a reader."""
    found = []
    for path in tracked("*.py", "*.md", "*.js", "*.css", "*.html", "*.toml", "*.po"):
        if path.name == "CHANGELOG.md" or not path.exists():
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"\bissues? #?\d+", line, re.I) and "test_docs.py" not in str(path):
                found.append(f"{path.relative_to(ROOT)}:{n}")
    assert found == []


def layout_paths(text: str) -> list[str]:
    """The files and folders a layout block draws (DESIGN.md's, indented four spaces), as
    paths: nesting by indentation."""
    block = re.search(r"## Layout[^\n]*\n\n((?:    [^\n]*\n|\n)+)", text)
    assert block, "no layout block"
    stack: list[tuple[int, str]] = []
    paths = []
    for line in block.group(1).splitlines():
        found = re.match(r"(\s*)(\S+)", line)
        if not found or not re.fullmatch(r"[\w.-]+(/|\.\w+)", found.group(2)):
            continue
        depth, name = len(found.group(1)), found.group(2)
        stack = [(d, n) for d, n in stack if d < depth]
        paths.append("".join(n for _, n in stack) + name)
        if name.endswith("/"):
            stack.append((depth, name))
    return paths


def test_design_layout_names_what_exists():
    """Every file and folder DESIGN.md's layout draws is in the checkout."""
    paths = layout_paths((ROOT / "docs" / "DESIGN.md").read_text(encoding="utf-8"))
    assert len(paths) > 15
    assert [p for p in paths if not (ROOT / p).exists()] == []


def test_readme_is_a_first_page():
    """README stays a first page: what it is, the two commands, the command table, and
    where to read more (the rest lives in docs/)."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 160
