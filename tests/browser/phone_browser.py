"""How the browser tests run Chromium: Debian's binary, phone-sized, offline."""

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
PHONE = {"width": 390, "height": 844}
HOST_KEY = "browser-host-key-abcdefghijklmnop"
