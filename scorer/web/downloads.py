"""Downloads of a game: its GAME-FORMAT log and the PDF protocol sheet."""

from __future__ import annotations

import hashlib
import json
import re
import threading
from urllib.parse import quote

from flask import Flask, Response, abort, current_app, request
from flask_babel import gettext as _

from scorer.engine import game_to_json
from scorer.store import GameRow
from scorer.web.i18n import lang
from scorer.web.lru import Lru
from scorer.web.versions import Broken, load, log_of


def stem(row: GameRow) -> str:
    """A file name stem from the title, else the game number."""
    text = re.sub(r"[^\w-]+", "-", row.head.get("title") or "", flags=re.UNICODE).strip("-")
    return text or f"thousand-{row.created[:10]}"  # no game number: ids are not public


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
    # A log that no longer replays is still handed out exactly as stored.
    data = (log_of(row, loaded.slots.records()) if isinstance(loaded, Broken)
            else game_to_json(loaded.game))
    body = json.dumps(data, ensure_ascii=False, indent=1)
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = attachment(
        f"{stem(row)}.json", fallback_name(row, "json")
    )
    return response


# A 2000-deal sheet takes WeasyPrint seconds of CPU and hundreds of MB: at most this many
# render at once in a server; a request that cannot start within RENDER_WAIT seconds gets
# 503 with Retry-After instead of holding one of waitress' few threads.
MAX_RENDERS = 2
RENDER_WAIT = 2.0
RETRY_AFTER = 10
_renders = threading.BoundedSemaphore(MAX_RENDERS)

# Rendered sheets by content: the same log, language and options give the same bytes.
CACHE_BYTES = 64 * 1024 * 1024

# Tests set this to a callable run while a render holds its slot (see tests/reliability).
render_hook = None


def sheet_key(log: dict, lang: str, landscape: bool, appendix: bool) -> str:
    """The cache key: a digest of the whole log (so a restore or an edit is another
    key, whatever the game id and version) and the options."""
    body = json.dumps([log, lang, landscape, appendix], ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(body.encode()).hexdigest()


def init_app(app: Flask) -> None:
    """Give the app its cache of rendered sheets, bounded by their bytes."""
    app.extensions["scorer_sheets"] = Lru(CACHE_BYTES, len)


def sheets() -> Lru:
    """This app's rendered sheets."""
    return current_app.extensions["scorer_sheets"]


def rendered(game, key: str, **options) -> bytes | None:
    """The sheet from the cache, else rendered within the limit; None when all slots are busy."""
    data = sheets().get(key)
    if data is not None:
        return data
    if not _renders.acquire(timeout=RENDER_WAIT):
        return None
    try:
        data = sheets().get(key)  # rendered by another request while this one waited
        if data is None:
            if render_hook is not None:
                render_hook()
            # Imported on the first sheet asked for: WeasyPrint takes half a second to
            # import, which a server would otherwise pay before its first page.
            from scorer.sheet import render_sheet

            data = sheets().put(key, render_sheet(game, **options))
        return data
    finally:
        _renders.release()


def pdf(row: GameRow) -> Response:
    """The PDF sheet of a game whose log replays (cached; at most MAX_RENDERS at once)."""
    loaded = load(row)
    if isinstance(loaded, Broken):
        abort(404, _("The printable sheet is not available."))
    options = {"lang": lang(), "landscape": request.args.get("landscape") == "1",
               "appendix": request.args.get("appendix") == "1"}
    key = sheet_key(game_to_json(loaded.game), **options)
    data = rendered(loaded.game, key, **options)
    if data is None:
        response = Response(_("Other sheets are being printed; try again in a few seconds."),
                            status=503, mimetype="text/plain")
        response.headers["Retry-After"] = str(RETRY_AFTER)
        return response
    response = Response(data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = attachment(
        f"{stem(row)}.pdf", fallback_name(row, "pdf")
    ).replace("attachment", "inline", 1)
    return response
