"""The Russian catalog: every string of the app translated, the .mo built from the .po."""

from __future__ import annotations

from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
LC = ROOT / "scorer" / "translations" / "ru" / "LC_MESSAGES"


def source_ids() -> set:
    """Every msgid the app's code and templates use (as pybabel extract finds them)."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None,
                "_l": None}
    ids = set()
    for _file, _line, message, _comments, _ctx in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=keywords):
        ids.add(message if isinstance(message, str) else message[0])
    return ids


def catalog():
    """The Russian .po catalog."""
    with open(LC / "messages.po", "rb") as f:
        return read_po(f, locale="ru")


def test_every_msgid_in_the_code_is_in_the_catalog():
    """Every string the code and templates translate is in the Russian catalog."""
    known = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog() if m.id}
    missing = sorted(source_ids() - known)
    assert not missing, f"run pybabel extract/update and translate: {missing}"


def test_every_msgid_is_translated_with_three_plural_forms():
    """Every entry is translated, none fuzzy, plurals with three Russian forms."""
    cat = catalog()
    assert cat.num_plurals == 3
    for m in cat:
        if not m.id:
            continue
        assert not m.fuzzy, m.id
        if isinstance(m.id, tuple):
            assert len(m.string) == 3 and all(m.string), m.id
        else:
            assert m.string, m.id


def test_mo_file_matches_the_po_file():
    """The compiled .mo holds exactly what the .po says."""
    with open(LC / "messages.mo", "rb") as f:
        compiled = read_mo(f)
    def table(cat):
        """msgid -> translation of a catalog."""
        return {tuple(m.id) if isinstance(m.id, (list, tuple)) else m.id:
                tuple(m.string) if isinstance(m.string, (list, tuple)) else m.string
                for m in cat if m.id}

    po, mo = table(catalog()), table(compiled)
    assert mo == po, "run: pybabel compile -d scorer/translations"


def test_russian_plurals_render(app):
    """Russian plurals pick the right form (1 болт, 2 болта, 5 болтов, 21 болт)."""
    from flask_babel import ngettext

    with app.test_request_context():
        words = [ngettext("%(num)d bolt", "%(num)d bolts", n) for n in (1, 2, 5, 11, 21, 22)]
    assert words == ["1 болт", "2 болта", "5 болтов", "11 болтов", "21 болт", "22 болта"]
