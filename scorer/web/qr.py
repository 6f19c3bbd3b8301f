"""A link as a QR code, drawn inline (the share pages and the board)."""

from __future__ import annotations

import io

import segno
from markupsafe import Markup


def qr_svg(url: str) -> Markup:
    """A QR code of a link as inline SVG."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=5, border=2, xmldecl=False,
                                    svgns=True, dark="#000", light="#fff")
    return Markup(out.getvalue().decode())
