"""How the browser tests run Chromium (Debian's binary, phone-sized, offline) and the app."""

import re
import threading
from contextlib import contextmanager
from pathlib import Path

from waitress import create_server

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
PHONE = {"width": 390, "height": 844}
HOST_KEY = "browser-host-key-abcdefghijklmnop"
FORM = re.compile(r"/g/[^/?#]+/deal(/\d+)?(\?[^#]*)?(#[A-Za-z-]*)?$")
# axe-core, from the axe-playwright-python package (no download); a page it checks needs
# a context with bypass_csp=True, since it goes in as a script of its own.
AXE = Path(__import__("axe_playwright_python").__file__).parent / "axe.min.js"


def score(text: str) -> int:
    """A total as the page writes it (a real minus sign, U+2212) as an int."""
    return int(text.strip().replace("\u2212", "-"))


def open_form(page, link="#record-deal"):
    """Follow a link to a deal form and wait until it has loaded, stylesheet and all."""
    page.click(link)
    # A click returns once the navigation starts; what is read before the load may be the
    # old page, or the new one unstyled.
    page.wait_for_url(FORM)


@contextmanager
def served(app, port: int = 0):
    """Serve the app with waitress on 127.0.0.1 and a free port (or this one), in a thread;
    yield its URL."""
    server = create_server(app, host="127.0.0.1", port=port, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        # Closed from this thread, a socket can vanish under the loop's select (EBADF in
        # the server thread); closed from the loop's own thread, the loop just ends.
        server.trigger.pull_trigger(lambda: [d.close() for d in list(server._map.values())])
        thread.join(5)
        server.task_dispatcher.shutdown()


def axe_violations(page) -> list[tuple[str, list[str]]]:
    """axe-core's violations on the page: (rule, first offending elements)."""
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [(v["id"], [n["html"][:80] for n in v["nodes"][:3]]) for v in result["violations"]]
