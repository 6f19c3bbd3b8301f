"""Static files under content-hashed names, gzipped once, cached by browsers for a year.

``static_url('app.css')`` gives ``/static/app.3f9a1c2b.css``: the name changes whenever
the content does, so a browser may keep the file for a year without asking again
(``immutable``), and after an upgrade no page is drawn with the old stylesheet. The
files are read and compressed once, when the app is made. A page cached before an
upgrade still asks for an unhashed or older name: it gets today's file, revalidated on
every use instead of kept, so it is never stuck with the wrong one.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, Response, abort, current_app, request, url_for

from scorer.paths import data_dir
from scorer.web.compression import COMPRESSIBLE

YEAR = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
HASHED = re.compile(r"^(?P<stem>.+)\.(?P<digest>[0-9a-f]{8})(?P<ext>\.[A-Za-z0-9]+)$")


@dataclass(frozen=True, slots=True)
class Asset:
    """One static file: its names, its bytes and their gzip (None when gzip gains nothing);
    the content digest is also its ETag under the revalidated (unhashed or stale) names."""

    name: str
    hashed: str
    digest: str
    body: bytes
    gzipped: bytes | None
    mimetype: str


def sources(app: Flask) -> dict[str, Path]:
    """Every file served under /static: the static folder, and the print stylesheet
    that lives with the PDF sheet so that both print alike."""
    folder = Path(app.static_folder or "")
    files = {p.name: p for p in sorted(folder.iterdir()) if p.is_file()}
    files["print.css"] = data_dir("templates") / "sheet" / "print.css"
    return files


def load(name: str, path: Path) -> Asset:
    """Read one file, name it by its content and compress it if that helps."""
    body = path.read_bytes()
    digest = hashlib.sha256(body).hexdigest()[:8]
    stem, dot, ext = name.rpartition(".")
    mimetype = mimetypes.guess_type(name)[0] or "application/octet-stream"
    packed = gzip.compress(body, 9, mtime=0) if mimetype.startswith(COMPRESSIBLE) else None
    return Asset(name, f"{stem}.{digest}{dot}{ext}" if dot else f"{name}.{digest}", digest,
                 body, packed if packed is not None and len(packed) < len(body) else None, mimetype)


class Assets:
    """The app's static files by plain and by hashed name."""

    def __init__(self, app: Flask):
        self.by_name = {name: load(name, path) for name, path in sources(app).items()}
        self.by_hash = {a.hashed: a for a in self.by_name.values()}
        # (script root, name) -> URL: a page links seven files, each the same every time.
        self.urls: dict[tuple[str, str], str] = {}

    def url(self, name: str) -> str:
        """The hashed URL of a static file (KeyError for a file that does not exist)."""
        key = (request.script_root, name)
        found = self.urls.get(key)
        if found is None:
            found = self.urls[key] = url_for("static", filename=self.by_name[name].hashed)
        return found


def assets() -> Assets:
    """This app's static files."""
    found: Assets = current_app.extensions["scorer_assets"]
    return found


def static_url(name: str) -> str:
    """The URL a page links a static file by: its content-hashed name."""
    return assets().url(name)


def static(filename: str) -> Response:
    """A static file: kept a year under its hashed name, revalidated under any other."""
    found = assets()
    asset = found.by_hash.get(filename)
    caching = YEAR
    if asset is None:
        # An unhashed name, or the hash of an older version: today's file, not for keeping.
        match = HASHED.match(filename)
        plain = f"{match['stem']}{match['ext']}" if match else filename
        asset = found.by_name.get(plain)
        caching = REVALIDATE
        if asset is None:
            abort(404)
    return answer(asset, caching)


def answer(asset: Asset, caching: str) -> Response:
    """The file's bytes (gzipped when the client accepts it), or 304 when revalidated."""
    response = Response(mimetype=asset.mimetype)
    response.headers["Cache-Control"] = caching
    response.set_etag(asset.digest, weak=True)  # weak: the gzipped bytes share it
    if asset.gzipped is not None:
        response.vary.add("Accept-Encoding")
    if caching == REVALIDATE and request.if_none_match.contains_weak(asset.digest):
        response.status_code = 304
        return response
    if asset.gzipped is not None and request.accept_encodings["gzip"] > 0:
        response.set_data(asset.gzipped)
        response.headers["Content-Encoding"] = "gzip"
    else:
        response.set_data(asset.body)
    return response


def init_app(app: Flask) -> None:
    """Read and compress every static file once; serve them and give templates static_url."""
    app.extensions["scorer_assets"] = Assets(app)
    app.add_template_global(static_url, "static_url")
    # Flask's own /static/<filename> route, answered from memory instead of the disk.
    app.view_functions["static"] = static
