"""``python -m scorer host-key --rotate``: a browser holding the old key loses host rights."""

from __future__ import annotations

import subprocess
import sys

from reliability_rig import Phone

from scorer import create_app


def app_on(folder):
    """The app on this instance reading its config.py, as `serve` starts it."""
    return create_app({"TESTING": True, "INSTANCE_PATH": str(folder)})


def host_key(folder, *flags) -> subprocess.CompletedProcess:
    """Run the host-key command on the instance."""
    return subprocess.run([sys.executable, "-m", "scorer", "host-key", *flags,
                           "--instance", str(folder)], capture_output=True, text=True,
                          timeout=60, check=True)


def test_rotating_the_host_key_takes_host_rights_from_old_browsers(tmp_path):
    """The old key (in the cookie and in the link) stops working after a restart; the new one
    works; a game link the browser holds still opens its game."""
    folder = tmp_path / "inst"
    app = app_on(folder)
    old = app.config["HOST_KEY"]
    assert old in host_key(folder).stdout
    player = Phone(app)
    theirs = player.new_game(names=("Глеб", "Дина"))
    host = Phone(app)
    host.client.get("/?key=" + old)
    mine = host.new_game()
    assert theirs in host.client.get("/").get_data(as_text=True)

    done = host_key(folder, "--rotate")
    new = app_on(folder).config["HOST_KEY"]
    assert new != old and new in done.stdout
    restarted = app_on(folder)
    host.client.application = restarted  # the same browser (its cookie) after the restart
    page = host.client.get("/").get_data(as_text=True)
    assert theirs not in page and mine in page
    host.client.get("/?key=" + old)
    assert theirs not in host.client.get("/").get_data(as_text=True)
    assert host.client.get(mine).status_code == 200
    host.client.get("/?key=" + new)
    assert theirs in host.client.get("/").get_data(as_text=True)
