"""Gzip for text answers: the level of the pages kept gzipped on their version and of every
other text answer as it leaves, and the list of types worth compressing, which the
static files (gzipped once, at the highest level) share."""

from __future__ import annotations

import gzip

from flask import Response, request

# Level 3: the first GET after each save compresses its page once, and the deal form is
# compressed on every GET. A 35 kB page of 1000 deals takes 0.17 ms to 8.6 kB (level 6:
# 0.52 ms to 7.9 kB).
GZIP_LEVEL = 3
COMPRESSIBLE = ("text/", "application/json", "application/javascript", "image/svg+xml")
MIN_COMPRESSED = 1024  # smaller answers gain nothing worth the header


def wants_gzip() -> bool:
    """Whether the client accepts gzip."""
    return request.accept_encodings["gzip"] > 0


def packed(body: bytes) -> bytes:
    """``body`` gzipped at the app's level, the same bytes every time (no timestamp)."""
    return gzip.compress(body, GZIP_LEVEL, mtime=0)


def compressed(response: Response) -> Response:
    """Gzip a text answer when the client accepts it (kept pages and static files arrive
    gzipped already); an after_request hook."""
    response.vary.add("Accept-Encoding")
    if response.mimetype == "text/html":  # a page's words follow the browser's languages
        response.vary.add("Accept-Language")
    if (response.direct_passthrough or response.status_code < 200
            or response.status_code in (204, 304) or "Content-Encoding" in response.headers
            or not (response.mimetype or "").startswith(COMPRESSIBLE) or not wants_gzip()):
        return response
    body = response.get_data()
    if len(body) < MIN_COMPRESSED:
        return response
    response.set_data(packed(body))
    response.headers["Content-Encoding"] = "gzip"
    return response
