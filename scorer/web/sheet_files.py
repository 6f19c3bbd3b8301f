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


def attachment(name: str) -> str:
    """A Content-Disposition value that survives non-ASCII names."""
    ascii_name = name.encode("ascii", "ignore").decode() or "game"
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(name)}"


def export_json(row: GameRow) -> Response:
    """The game log (live deals) as a JSON download."""
    loaded = load(row)
    if loaded.game is not None:
        data = game_to_json(loaded.game)
    else:
        data = {**row.head, "deals": loaded.records}
    body = json.dumps(data, ensure_ascii=False, indent=1)
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = attachment(f"{stem(row)}.json")
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
    response.headers["Content-Disposition"] = attachment(f"{stem(row)}.pdf").replace(
        "attachment", "inline", 1
    )
    return response
