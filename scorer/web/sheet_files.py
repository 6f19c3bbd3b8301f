"""Downloads of a game: its GAME-FORMAT log and the PDF protocol sheet."""

from __future__ import annotations

import json
import re
from urllib.parse import quote

from flask import Response, abort, request
from flask_babel import gettext as _

from scorer import pdf as sheet
from scorer.engine import game_to_json
from scorer.store import GameRow
from scorer.web.i18n import lang
from scorer.web.logs import load


def stem(row: GameRow) -> str:
    """A file name stem from the title, else the game number."""
    text = re.sub(r"[^\w-]+", "-", row.head.get("title") or "", flags=re.UNICODE).strip("-")
    return text or f"game-{row.id}"


# Russian letters in Latin, for the plain-ASCII file name old clients fall back to.
# Written as code points (а…е, ё, ж…я) so no Russian text lives outside the catalog.
_ALPHABET = ([chr(c) for c in range(0x430, 0x436)] + [chr(0x451)]
             + [chr(c) for c in range(0x436, 0x450)])
TRANSLIT = dict(zip(
    _ALPHABET,
    ["a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p",
     "r", "s", "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya"],
    strict=True))


def ascii_name(name: str, fallback: str) -> str:
    """The file name in plain ASCII: transliterated, else the fallback (never "--.pdf")."""
    stem, dot, ext = name.rpartition(".")
    latin = "".join(
        TRANSLIT.get(c, TRANSLIT.get(c.lower(), c).capitalize() if c.lower() in TRANSLIT else c)
        for c in stem
    )
    latin = re.sub(r"[^A-Za-z0-9_]+", "-", latin).strip("-_")
    return f"{latin}{dot}{ext}" if re.search(r"[A-Za-z0-9]", latin) else fallback


def attachment(name: str, fallback: str = "game") -> str:
    """A Content-Disposition value that survives non-ASCII names."""
    plain = ascii_name(name, fallback)
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(name)}"


def fallback_name(row: GameRow, ext: str) -> str:
    """thousand-YYYY-MM-DD.ext, for a title with nothing to transliterate."""
    return f"thousand-{row.created[:10]}.{ext}"


def export_json(row: GameRow) -> Response:
    """The game log (live deals) as a JSON download."""
    loaded = load(row)
    if loaded.game is not None:
        data = game_to_json(loaded.game)
    else:
        data = {**row.head, "deals": loaded.records}
    body = json.dumps(data, ensure_ascii=False, indent=1)
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = attachment(
        f"{stem(row)}.json", fallback_name(row, "json")
    )
    return response


def pdf(row: GameRow) -> Response:
    """The PDF sheet of a game whose log replays."""
    loaded = load(row)
    if loaded.game is None:
        abort(404, _("The printable sheet is not available."))
    data = sheet.render_sheet(
        loaded.game, lang=lang(), landscape=request.args.get("landscape") == "1",
        appendix=request.args.get("appendix") == "1",
    )
    response = Response(data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = attachment(
        f"{stem(row)}.pdf", fallback_name(row, "pdf")
    ).replace("attachment", "inline", 1)
    return response
