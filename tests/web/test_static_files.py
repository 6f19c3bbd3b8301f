"""Static files: content-hashed names kept a year, gzipped, old names still answered;
the head orders what the first paint needs; the PDF code loads only for a sheet."""

from __future__ import annotations

import gzip
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from scorer.paths import data_dir

STATIC = Path(__file__).resolve().parents[2] / "scorer" / "web" / "static"
LINKED = re.compile(r'(?:href|src)="(/static/[^"]+)"')
FILES = {"app.css": STATIC / "app.css", "app.js": STATIC / "app.js",
         "outbox.js": STATIC / "outbox.js",
         "js-flag.js": STATIC / "js-flag.js", "icon.svg": STATIC / "icon.svg",
         "icon-192.png": STATIC / "icon-192.png",
         "print.css": data_dir("templates") / "sheet" / "print.css"}


def linked(client, path: str = "/") -> dict[str, str]:
    """The static URLs a page links, by the file's plain name."""
    html = client.get(path).get_data(as_text=True)
    found = {}
    for url in LINKED.findall(html):
        stem, digest, ext = url.rsplit("/", 1)[1].rsplit(".", 2)
        assert re.fullmatch(r"[0-9a-f]{8}", digest), url
        found[f"{stem}.{ext}"] = url
    return found


def test_pages_link_every_static_file_by_a_name_that_changes_with_its_content(client):
    """Two files of one content share no hash with another content: each name says it."""
    urls = linked(client)
    assert set(urls) == set(FILES)
    digests = {name: url.rsplit(".", 2)[1] for name, url in urls.items()}
    assert len(set(digests.values())) == len(digests)


@pytest.mark.parametrize("name", sorted(FILES))
def test_a_hashed_name_is_kept_a_year_and_gzipped_when_accepted(client, name):
    """The hashed URL: immutable for a year; gzipped for a client that accepts it (text),
    the file's own bytes for one that does not; both equal the file on disk."""
    url = linked(client)[name]
    on_disk = FILES[name].read_bytes()
    packed = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert packed.status_code == 200
    assert packed.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert (packed.headers["Content-Security-Policy"]
            == client.application.config["CONTENT_SECURITY_POLICY"])
    if name.endswith(".png"):
        assert "Content-Encoding" not in packed.headers and packed.data == on_disk
    else:
        assert packed.headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(packed.data) == on_disk and len(packed.data) < len(on_disk)
        assert "Accept-Encoding" in packed.headers["Vary"]
    raw = client.get(url, headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in raw.headers and raw.data == on_disk


def test_the_big_text_files_go_out_at_a_third_of_their_size(client):
    """app.css and app.js (15 kB each) cross a slow network gzipped."""
    urls = linked(client)
    for name in ("app.css", "app.js"):
        got = client.get(urls[name], headers={"Accept-Encoding": "gzip"})
        assert len(got.data) * 3 < FILES[name].stat().st_size, name


@pytest.mark.parametrize("path", ["/static/app.css", "/static/app.00000000.css"])
def test_an_old_page_asking_an_unhashed_or_stale_name_gets_todays_file_revalidated(
        client, path):
    """A page cached before an upgrade still gets its stylesheet, never kept for a year:
    it is asked again each time (ETag, 304 while unchanged)."""
    first = client.get(path, headers={"Accept-Encoding": "gzip"})
    assert first.status_code == 200 and first.mimetype == "text/css"
    assert gzip.decompress(first.data) == FILES["app.css"].read_bytes()
    assert first.headers["Cache-Control"] == "no-cache"
    again = client.get(path, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


def test_the_hashed_name_of_a_changed_file_is_not_kept(client):
    """A hash that is not today's (an older app.css) is not answered as immutable."""
    today = linked(client)["app.css"]
    stale = today.replace(today.rsplit(".", 2)[1], "0123abcd")
    assert client.get(stale).headers["Cache-Control"] == "no-cache"


@pytest.mark.parametrize("path", ["/static/nothing.css", "/static/../app.py",
                                  "/static/app.css/x", "/static/sheet/print.css"])
def test_no_other_file_is_served(client, path):
    """Only the listed files: nothing else from the disk."""
    assert client.get(path).status_code == 404


def test_the_manifest_and_favicon_use_the_hashed_icons(client):
    """The home-screen icons are named by content too."""
    icons = [i["src"] for i in client.get("/manifest.webmanifest").get_json()["icons"]]
    assert all(re.fullmatch(r"/static/icon[-\w]*\.[0-9a-f]{8}\.(png|svg)", i) for i in icons)
    assert client.get(icons[0]).status_code == 200
    assert re.search(r"/static/icon-192\.[0-9a-f]{8}\.png$",
                     client.get("/favicon.ico").headers["Location"])


def test_the_head_asks_for_the_stylesheet_first_and_defers_the_script(table):
    """First in the head the stylesheet, then the html.js marker; app.js is deferred; no
    inline code anywhere (the CSP allows none)."""
    html = table.client.get(table.new_game()).get_data(as_text=True)
    head = html.split("</head>", 1)[0]
    tags = re.findall(r"<(?:script|link)\b[^>]*>", head)
    assert 'rel="stylesheet"' in tags[0] and "app." in tags[0]
    assert "js-flag." in tags[1]
    scripts = re.findall(r"<script\b[^>]*>", html)
    assert [("defer" in s) for s in scripts] == [False, True, True]  # app.js, outbox.js
    assert not re.search(r"<script\b[^>]*>\s*[^<\s]", html)  # every script is a file
    assert "<style" not in html and " style=" not in html


def test_no_page_names_preloads_or_prefetches(table):
    """No Link header and no prefetch: a page links its files in its head, and a repeat
    visit finds them in the browser's cache under their hashed names (phone.py measured
    the goals without the preloads, docs/PERFORMANCE.md)."""
    game = table.new_game()
    for response in (table.client.get("/"), table.client.get(game), table.client.get(game)):
        assert "Link" not in response.headers
        assert 'rel="prefetch"' not in response.get_data(as_text=True)


LAZY = textwrap.dedent("""
    import sys, tempfile
    from scorer import create_app
    from webtable import Table
    app = create_app({"INSTANCE_PATH": tempfile.mkdtemp(), "SECRET_KEY": "s",
                      "HOST_KEY": "h" * 24, "TESTING": True})
    table = Table(app.test_client())
    game = table.new_game()
    table.deal(game, declarer="0", contract="100", points_0="60", points_1="40")
    assert table.client.get(game).status_code == 200
    assert table.client.get(table.view_path(game)).status_code == 200
    print("before", "weasyprint" in sys.modules, "scorer.sheet" in sys.modules)
    sheet = table.client.get(game + "/sheet.pdf")
    assert sheet.status_code == 200 and sheet.data.startswith(b"%PDF")
    print("after", "weasyprint" in sys.modules, "scorer.sheet" in sys.modules)
""")


def test_making_the_app_and_serving_a_game_does_not_import_weasyprint():
    """WeasyPrint (half a second to import) never loads in the server: a sheet is rendered
    by a child of the render forkserver, which imports it."""
    here = Path(__file__).resolve().parent
    # The code under test, not an installed copy: the checkout first on the path.
    path = os.pathsep.join([str(here.parents[1]), str(here)])
    done = subprocess.run([sys.executable, "-c", LAZY], capture_output=True, text=True,
                          cwd=here, timeout=120, env={**os.environ, "PYTHONPATH": path})
    assert done.returncode == 0, done.stderr[-2000:]
    assert "before False False" in done.stdout and "after False False" in done.stdout


def test_a_first_visit_gets_the_page_every_visit_gets(table):
    """A browser without cookies gets the stylesheet and the html.js marker linked, as
    every later visit does: nothing inline, no cookie for them, and a policy that allows
    scripts and styles from our own files only (no hashes, nonces or 'unsafe-inline')."""
    game = table.new_game()
    urls = linked(table.client)
    for encoding in ("gzip", "identity"):
        fresh = table.client.application.test_client()
        first = fresh.get(game, headers={"Accept-Encoding": encoding})
        assert first.status_code == 200
        body = gzip.decompress(first.data) if encoding == "gzip" else first.data
        html = body.decode()
        assert "<style" not in html and not re.search(r"<script>", html)
        assert f'<link rel="stylesheet" href="{urls["app.css"]}">' in html
        assert f'<script src="{urls["js-flag.js"]}"></script>' in html
        policy = first.headers["Content-Security-Policy"]
        assert "script-src 'self';" in policy and "style-src 'self';" in policy
        assert "sha256" not in policy and "unsafe-inline" not in policy
        assert fresh.get_cookie("assets") is None
        again = fresh.get(game, headers={"Accept-Encoding": encoding})
        assert (gzip.decompress(again.data) if encoding == "gzip" else again.data) == body


def test_a_static_url_follows_the_script_root(app):
    """The hashed URLs are made once per script root (assets.Assets.url), so an app
    mounted under a prefix links its files there and the bare one does not."""
    from scorer.web.assets import static_url

    seen = []
    for root in ("", "/sub", ""):
        with app.test_request_context("/", base_url=f"http://localhost{root}/"):
            seen.append(static_url("app.css"))
    assert seen[1].startswith("/sub/static/app.")
    assert seen[0] == seen[2] == seen[1].removeprefix("/sub")



def test_a_gzipped_asset_says_it_varies_by_encoding_itself(app):
    """The asset answer names Accept-Encoding in Vary on its own, not only through the
    app-wide compression step: a cache between must not hand gzip to a client that
    cannot read it, whichever step later changes."""
    from scorer.web import assets as assets_module

    with app.test_request_context("/static/app.css", headers={"Accept-Encoding": "gzip"}):
        asset = assets_module.assets().by_name["app.css"]
        for caching in ("public, max-age=31536000, immutable", assets_module.REVALIDATE):
            assert "Accept-Encoding" in assets_module.answer(asset, caching).vary
