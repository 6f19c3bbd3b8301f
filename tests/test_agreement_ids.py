"""Every agreement id the code names exists in rules/catalog.toml (a datasette-style check).

Ids are fields beside the texts (``Text.agreement``, ``RuleError(agreement=)``) and keys of
the resolved agreements (``ag["barrel"]``); a typo in either would quietly name nothing.
"""

from __future__ import annotations

import ast
from pathlib import Path

from scorer.engine import catalog
from scorer.engine.errors import RULE_TEXTS
from scorer.engine.protocol import REASON_TEXTS

SCORER = Path(__file__).resolve().parents[1] / "scorer"
# The engine, the marks, the deal input, the chart and everything else that reads agreements.
SOURCES = sorted(SCORER.glob("engine/*.py")) + sorted(SCORER.glob("web/*.py")) + [
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
