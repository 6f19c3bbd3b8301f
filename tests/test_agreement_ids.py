"""Every agreement id the code names exists in rules/catalog.toml, and every agreement and
bound of the catalog is stated in docs/RULES.md §7 (datasette-style checks).

Ids are fields beside the texts (``Text.agreement``, ``RuleError(agreement=)``) and keys of
the resolved agreements (``ag["barrel"]``); a typo in either would quietly name nothing.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from scorer.engine import catalog
from scorer.engine.errors import RULE_TEXTS
from scorer.engine.protocol import REASON_TEXTS

SCORER = Path(__file__).resolve().parents[1] / "scorer"
# The engine, the marks, the deal input, the chart and everything else that reads agreements.
SOURCES = sorted(SCORER.glob("engine/*.py")) + sorted(SCORER.glob("web/**/*.py")) + [
    SCORER / "marks.py", SCORER / "chart.py", SCORER / "sheet.py"]
AGREEMENT_NAMES = {"ag", "agreements"}


def _named(node: ast.AST) -> bool:
    """``ag``, ``agreements``, ``self.ag``, ``game.agreements``: a resolved agreement set."""
    name = node.id if isinstance(node, ast.Name) else getattr(node, "attr", None)
    return name in AGREEMENT_NAMES


def ids_in(path: Path) -> set[tuple[str, str]]:
    """(file, id) for every agreement id read or named in one source file."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        key = None
        if isinstance(node, ast.Subscript) and _named(node.value):
            key = node.slice
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "get" and _named(node.func.value) and node.args):
            key = node.args[0]
        elif isinstance(node, ast.keyword) and node.arg == "agreement":
            key = node.value
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            found.add((path.name, key.value))
    return found


def test_every_agreement_id_in_the_code_is_in_the_catalog():
    """Texts, refusals and every ``ag[...]`` read name agreements the catalog defines."""
    known = set(catalog().agreements)
    used = {("errors.py", t.agreement) for t in RULE_TEXTS.values() if t.agreement}
    used |= {("protocol.py", t.agreement) for t in REASON_TEXTS.values() if t.agreement}
    for path in SOURCES:
        used |= ids_in(path)
    assert len({i for _, i in used}) > 40  # the scan really finds the reads
    assert {"marks.py", "chart.py", "deal_input.py", "scoring.py"} <= {f for f, _ in used}
    unknown = sorted((f, i) for f, i in used if i not in known)
    assert unknown == []


def test_texts_carry_the_id_beside_the_words():
    """No text writes ``[id]`` into its prose: the id is a field, appended when shown."""
    texts = [t.msgid for t in (*RULE_TEXTS.values(), *REASON_TEXTS.values())]
    assert not [m for m in texts if "[" in m]
    from scorer.engine.errors import RuleError
    from scorer.engine.protocol import Reason

    err = RuleError(3, "dark", "dark.off")
    assert err.agreement == "dark" and err.text("ru").endswith(" [dark]")
    reason = Reason("bolt_penalty", {"amount": -120})
    assert reason.agreement == "bolt_penalty"
    assert reason.text("en") == "three bolts: −120 [bolt_penalty]"
    assert reason.text("ru", tags=False) == "три болта: −120"


RULES_MD = SCORER.parent / "docs" / "RULES.md"


def section_7_rows() -> dict[str, tuple[str, str]]:
    """Every row of docs/RULES.md §7's tables: id -> (type cell, the paragraph above the table)."""
    text = RULES_MD.read_text(encoding="utf-8")
    section = text.split("\n## 7.", 1)[1].split("\n## 8.", 1)[0]
    rows, heading = {}, ""
    for block in section.split("\n\n"):
        lines = block.strip().splitlines()
        if not lines or not lines[0].startswith("|"):
            heading = block.strip()
            continue
        for line in lines[2:]:  # past the header and its |---| line
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            assert cells[0].startswith("`") and cells[0] not in rows, line
            rows[cells[0].strip("`")] = (cells[1], heading)
    return rows


def test_every_agreement_of_the_catalog_is_in_rules_md_section_7():
    """A table settling a dispute by RULES.md finds every agreement the engine reads, and
    §7 names none the catalog lacks; the advisory table holds exactly the unenforced ones."""
    rows = section_7_rows()
    specs = catalog().agreements
    assert sorted(set(specs) - set(rows)) == []
    assert sorted(set(rows) - set(specs)) == []
    advisory = {id for id, (_, heading) in rows.items() if heading.startswith("Advisory")}
    assert advisory == {id for id, spec in specs.items() if not spec.enforced}


def test_every_bound_of_the_catalog_is_stated_in_section_7():
    """Each int range (min…max), int value list and choice of the catalog is in its §7 row."""
    rows = section_7_rows()
    missing = []
    for id, spec in catalog().agreements.items():
        cell = rows.get(id, ("", ""))[0].replace("−", "-")
        listed = cell.rsplit("(", 1)[0]  # the type, without the default in brackets
        if spec.type == "choice":
            stated, wanted = re.findall(r"`(\w+)`", listed), list(spec.values or ())
        elif spec.values is not None:
            stated, wanted = re.findall(r"-?\d+", listed), [str(v) for v in spec.values]
        else:
            stated = wanted = []
        if stated != wanted:
            missing.append((id, " | ".join(wanted)))
        bounded = spec.min is not None or spec.max is not None
        if bounded and f"{spec.min}…{spec.max}" not in cell:
            missing.append((id, f"{spec.min}…{spec.max}"))
    assert missing == []
