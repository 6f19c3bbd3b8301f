"""A Babel extractor for the agreement catalog, so ``pybabel extract`` finds its texts.

``rules/catalog.toml`` and ``rules/presets/*.toml`` keep their words in English only
(``en``, ``title_en``, ``explain_en``, ``description_en``); those are msgids of the one
gettext catalog. An agreement that a native preset (catalog.NATIVE_PRESETS) sets is
yielded twice: plainly, and under the context ``preset:NAME`` for that preset's own words.
Registered in babel.cfg under ``[extractors]``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

TEXT_KEYS = ("en", "title_en", "explain_en", "description_en")
_HEADER = re.compile(r"^\[(?P<name>[^\]]+)\]\s*$")
_TEXT = re.compile(rf"^(?P<key>{'|'.join(TEXT_KEYS)})\s*=")
# Kept here rather than imported so that extraction reads no engine module state.
NATIVE_PRESETS = ("polish",)

Extracted = tuple[int, str, str | tuple[str, str], list[str]]


def _native_agreements(catalog_file: Path) -> dict[str, set[str]]:
    """Agreement id -> the contexts it is also read under, from the native presets' files."""
    found: dict[str, set[str]] = {}
    for name in NATIVE_PRESETS:
        path = catalog_file.parent / "presets" / f"{name}.toml"
        if not path.is_file():
            continue
        values = tomllib.loads(path.read_text(encoding="utf-8")).get("values", {})
        for id in values:
            found.setdefault(id, set()).add(f"preset:{name}")
    return found


def extract(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
            options: Any) -> Iterator[Extracted]:
    """Yield (line, funcname, message, comments) for every text of a catalog/preset file."""
    name = Path(getattr(fileobj, "name", "catalog.toml"))
    native = _native_agreements(name) if name.name == "catalog.toml" else {}
    table = ""
    for number, line in enumerate(fileobj.read().decode("utf-8").splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            table = header["name"]
            continue
        if not _TEXT.match(line):
            continue
        text = tomllib.loads(line)
        msgid = next(iter(text.values()))
        where = f"{table}.{next(iter(text))}" if table else f"{name.stem}.{next(iter(text))}"
        yield number, "gettext", msgid, [where]
        parts = table.split(".")
        if parts[0] == "agreements" and len(parts) > 1:
            for context in sorted(native.get(parts[1], ())):
                yield number, "pgettext", (context, msgid), [where]
