"""Downloads of a game: its GAME-FORMAT log and the PDF protocol sheet."""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypedDict
from urllib.parse import quote

from flask import Flask, Response, abort, current_app, request
from flask_babel import gettext as _

from scorer.engine import game_to_json, visible_only
from scorer.renders import RenderFailed, render_in_child, sheet_pdf
from scorer.store import GameRow, JsonDict
from scorer.web.access import is_host
from scorer.web.db import get_store
from scorer.web.game.versions import Broken, load, log_of
from scorer.web.i18n import lang
from scorer.web.lru import Lru
from scorer.web.turns import Turns


def stem(row: GameRow) -> str:
    """A file name stem from the title, else the game number."""
    text = re.sub(r"[^\w-]+", "-", row.head.get("title") or "", flags=re.UNICODE).strip("-")
    # No title: the game's name and date in the page's language (no game number: ids are
    # not public); the date stays ISO so downloaded files sort by it.
    return text or _("thousand-%(date)s", date=row.created[:10])


# Russian letters in Latin, for the plain-ASCII file name old clients fall back to.
# Written as code points (а…е, ё, ж…я) so no Russian text lives outside the catalog.
_ALPHABET = ([chr(c) for c in range(0x430, 0x436)] + [chr(0x451)]
             + [chr(c) for c in range(0x436, 0x450)])
TRANSLIT = dict(zip(
    _ALPHABET,
    ["a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p",
     "r", "s", "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya"],
    strict=True))
# Ukrainian and Polish letters in Latin too (і ї є ґ, ą ć ę ł ń ó ś ź ż), as code points;
# the apostrophe inside Ukrainian words is dropped.
TRANSLIT.update({chr(0x456): "i", chr(0x457): "yi", chr(0x454): "ye", chr(0x491): "g",
                 chr(0x2019): "", "'": "",
                 "ą": "a", "ć": "c", "ę": "e", "ł": "l", "ń": "n", "ó": "o", "ś": "s",
                 "ź": "z", "ż": "z"})
# Ukrainian reads some letters its own way (the national romanisation: и y, г h, я ia):
# тисяча is tysiacha, not the Russian tisyacha.
UKRAINIAN = {chr(0x438): "y", chr(0x433): "h", chr(0x439): "i", chr(0x44E): "iu",
             chr(0x44F): "ia", chr(0x454): "ie", chr(0x457): "i"}


def ascii_name(name: str, fallback: str, language: str = "ru") -> str:
    """The file name in plain ASCII: transliterated, else the fallback (never "--.pdf")."""
    stem, dot, ext = name.rpartition(".")
    table = {**TRANSLIT, **UKRAINIAN} if language == "uk" else TRANSLIT
    latin = "".join(
        table.get(c, table.get(c.lower(), c).capitalize() if c.lower() in table else c)
        for c in stem
    )
    latin = re.sub(r"[^A-Za-z0-9_]+", "-", latin).strip("-_")
    return f"{latin}{dot}{ext}" if re.search(r"[A-Za-z0-9]", latin) else fallback


def attachment(name: str, fallback: str = "game") -> str:
    """A Content-Disposition value that survives non-ASCII names and carries none of the
    characters the text rules refuse (a text stored before the rules may hold U+202E,
    which would turn «xcod.exe» around in a file manager) nor a path or shell sign."""
    name = re.sub(r'[\\/:*?"<>|]+', "-", visible_only(name))
    if not re.search(r"\w", name.rpartition(".")[0]):
        name = fallback
    plain = ascii_name(name, fallback, lang())
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


# A 2000-deal sheet takes WeasyPrint a minute of CPU and hundreds of MB: each render runs
# in a child process (scorer/renders.py) limited to RENDER_SECONDS and RENDER_MEMORY_MB
# (config keys of the same names change them). The host has a slot of its own, so a
# stranger's renders never make the host wait; other browsers share MAX_RENDERS slots,
# one render per address at a time. A request that cannot start within RENDER_WAIT
# seconds gets 503 with Retry-After instead of holding one of waitress' few threads.
MAX_RENDERS = 2
HOST_RENDERS = 1
RENDER_WAIT = 2.0
RETRY_AFTER = 10
RENDER_SECONDS = 180
RENDER_MEMORY_MB = 1024
_turns = Turns(MAX_RENDERS, HOST_RENDERS, RENDER_WAIT)

# Rendered sheets by content: the same log, language and options give the same bytes.
CACHE_BYTES = 64 * 1024 * 1024

# Tests set this to a callable run while a render holds its slot (see tests/reliability).
render_hook = None


class SheetOptions(TypedDict):
    """How a sheet is asked for: its language and layout."""

    lang: str
    landscape: bool
    appendix: bool
    minutes: int | None  # how long a finished game was played (the store's times)


def sheet_key(log: JsonDict, lang: str, landscape: bool, appendix: bool,
              minutes: int | None = None) -> str:
    """The cache key: a digest of the whole log (so a restore or an edit is another
    key, whatever the game id and version) and the options."""
    body = json.dumps([log, lang, landscape, appendix, minutes], ensure_ascii=False,
                      sort_keys=True)
    return hashlib.sha256(body.encode()).hexdigest()


def init_app(app: Flask) -> None:
    """Give the app its cache of rendered sheets, bounded by their bytes."""
    app.extensions["scorer_sheets"] = Lru(CACHE_BYTES, len)


def sheets() -> Lru[str, bytes]:
    """This app's rendered sheets."""
    cache: Lru[str, bytes] = current_app.extensions["scorer_sheets"]
    return cache


@contextlib.contextmanager
def render_slot(host: bool, address: str) -> Iterator[bool]:
    """The host's own render slot, or for others one of theirs while this address has no
    render in progress; yields False when there is none."""
    with _turns.turn(host, address) as taken:
        yield taken


def client_gone() -> Callable[[], bool] | None:
    """waitress' test of whether this request's client has hung up (None elsewhere)."""
    # Given by waitress when channel_request_lookahead > 0 (serve sets it): the channel
    # keeps reading while the app runs, so it sees the client close its connection.
    found: Callable[[], bool] | None = request.environ.get("waitress.client_disconnected")
    return found


def rendered(render: Callable[..., bytes], log: JsonDict, key: str,
             options: Mapping[str, Any]) -> bytes | None:
    """The PDF ``render(game, **options)`` makes of this log, from the cache or rendered in a
    child within the limits; None when no slot is free.

    Raises RenderFailed when the render ran out of time or memory, or nobody waits for it.
    """
    data = sheets().get(key)
    if data is not None:
        return data
    with render_slot(is_host(), request.remote_addr or "") as slot:
        if not slot:
            return None
        data = sheets().get(key)  # rendered by another request while this one waited
        if data is None:
            if render_hook is not None:
                render_hook()
            config = current_app.config
            data = sheets().put(key, render_in_child(
                render, log, options,
                seconds=float(config.get("RENDER_SECONDS", RENDER_SECONDS)),
                memory=int(config.get("RENDER_MEMORY_MB", RENDER_MEMORY_MB)) << 20,
                gone=client_gone()))
        return data


def retry_later(text: str) -> Response:
    """A plain 503 that asks the browser to try again in RETRY_AFTER seconds."""
    response = Response(text, status=503, mimetype="text/plain")
    response.headers["Retry-After"] = str(RETRY_AFTER)
    return response


def pdf_response(row: GameRow, render: Callable[..., bytes], log: JsonDict, key: str,
                 options: Mapping[str, Any], name: str = "") -> Response:
    """Any of the game's PDFs, shown inline, or a 503 with Retry-After when it cannot be
    rendered now (slots busy) or at all (out of time or memory)."""
    try:
        data = rendered(render, log, key, options)
    except RenderFailed as failed:
        current_app.logger.warning("pdf not rendered: %s", failed)
        return retry_later(_("The sheet could not be printed: it took too long or needed "
                             "too much memory."))
    if data is None:
        return retry_later(_("Other sheets are being printed; try again in a few seconds."))
    response = Response(data, mimetype="application/pdf")
    suffix = f"-{name}" if name else ""
    response.headers["Content-Disposition"] = attachment(
        f"{stem(row)}{suffix}.pdf", fallback_name(row, "pdf")
    ).replace("attachment", "inline", 1)
    return response


def pdf(row: GameRow) -> Response:
    """The PDF sheet of a game whose log replays (cached; at most MAX_RENDERS at once)."""
    loaded = load(row)
    if isinstance(loaded, Broken):
        abort(404, _("The printable sheet is not available."))
    finished = loaded.protocol.winner is not None
    options: SheetOptions = {"lang": lang(), "landscape": request.args.get("landscape") == "1",
                             "appendix": request.args.get("appendix") == "1",
                             "minutes": get_store().span(row.id).minutes if finished else None}
    log = game_to_json(loaded.game)
    return pdf_response(row, sheet_pdf, log, sheet_key(log, **options), options)
