"""How the browser tests run Chromium: Debian's binary, phone-sized, offline."""

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
PHONE = {"width": 390, "height": 844}
HOST_KEY = "browser-host-key-abcdefghijklmnop"


def score(text: str) -> int:
    """A total as the page writes it (a real minus sign, U+2212) as an int."""
    return int(text.strip().replace("\u2212", "-"))
