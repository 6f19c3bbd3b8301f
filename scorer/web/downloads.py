"""Downloads of a game: its GAME-FORMAT log and the PDF protocol sheet."""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections import OrderedDict
from urllib.parse import quote

from flask import Response, abort, request
from flask_babel import gettext as _

from scorer.engine import game_to_json
from scorer.store import GameRow
from scorer.web.i18n import lang
from scorer.web.replay_cache import load, log_of


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
    data = game_to_json(loaded.game) if loaded.game else log_of(row, loaded.records)
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
_cache: OrderedDict[str, bytes] = OrderedDict()
_cache_lock = threading.Lock()

# Tests set this to a callable run while a render holds its slot (see tests/reliability).
render_hook = None


def sheet_key(log: dict, lang: str, landscape: bool, appendix: bool) -> str:
    """The cache key: a digest of the whole log (so a restore or an edit is another
    key, whatever the game id and version) and the options."""
    body = json.dumps([log, lang, landscape, appendix], ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(body.encode()).hexdigest()


def cached(key: str) -> bytes | None:
    """A cached sheet, freshly used, or None."""
    with _cache_lock:
        data = _cache.get(key)
        if data is not None:
            _cache.move_to_end(key)
        return data


def keep(key: str, data: bytes) -> None:
    """Cache a sheet, dropping the least recently used beyond CACHE_BYTES."""
    with _cache_lock:
        _cache[key] = data
        while sum(map(len, _cache.values())) > CACHE_BYTES and len(_cache) > 1:
            _cache.popitem(last=False)


def rendered(game, key: str, **options) -> bytes | None:
    """The sheet from the cache, else rendered within the limit; None when all slots are busy."""
    data = cached(key)
    if data is not None:
        return data
    if not _renders.acquire(timeout=RENDER_WAIT):
        return None
    try:
        data = cached(key)  # rendered by another request while this one waited
        if data is None:
            if render_hook is not None:
                render_hook()
            # Imported on the first sheet asked for: WeasyPrint takes half a second to
            # import, which a server would otherwise pay before its first page.
            from scorer.sheet import render_sheet

            data = render_sheet(game, **options)
            keep(key, data)
        return data
    finally:
        _renders.release()


def pdf(row: GameRow) -> Response:
    """The PDF sheet of a game whose log replays (cached; at most MAX_RENDERS at once)."""
    loaded = load(row)
    if loaded.game is None:
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
