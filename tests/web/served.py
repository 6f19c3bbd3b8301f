"""`python -m scorer serve` in a subprocess on 127.0.0.1, on a port the server picks itself.

The command runs with ``--port 0``: the system gives it a free port and the printed link
names it, so no test guesses a free port and races another process for it.
"""

from __future__ import annotations

import os
import queue
import re
import resource
import signal
import subprocess
import sys
import threading
from pathlib import Path

START_SECONDS = 60


class Server:
    """The real serve command; ``start()`` again after ``kill()`` restarts it."""

    def __init__(self, instance: Path, open_files: int | None = None, options: tuple = ()):
        """A server for this data folder, not started yet (open_files: its RLIMIT_NOFILE;
        options: more command-line options)."""
        self.instance = Path(instance)
        self.open_files = open_files
        self.options = tuple(options)
        self.proc: subprocess.Popen | None = None
        self.port: int | None = None
        self.banner = ""
        self.starts = 0

    @property
    def base(self) -> str:
        """The base URL of the running server."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        """Start the command and read its link: by then it is bound and listening."""
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        env.pop("SCORER_INSTANCE", None)
        self.instance.parent.mkdir(parents=True, exist_ok=True)
        log = self.instance.parent / f"serve-{self.starts}.log"
        with open(log, "w", encoding="utf-8") as errors:
            # Warnings go to a file, not a pipe nobody drains, which could block the server.
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "scorer", "serve", "--host", "127.0.0.1",
                 "--port", "0", "--instance", str(self.instance), *self.options],
                stdout=subprocess.PIPE, stderr=errors, text=True, env=env,
                preexec_fn=self._limit_files if self.open_files else None)
        self.starts += 1
        self.banner = self._read_banner()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", self.banner)
        if not found:
            self.kill()
            raise AssertionError(f"server did not start:\n{self.banner}\n{log.read_text()}")
        self.port = int(found.group(1))
        return self

    def _limit_files(self) -> None:
        """In the child before exec: the open-files limit (soft and hard) it runs with."""
        resource.setrlimit(resource.RLIMIT_NOFILE, (self.open_files, self.open_files))

    def _read_banner(self) -> str:
        """What the command prints up to its ``data:`` line (empty if it dies first)."""
        lines: queue.Queue[str | None] = queue.Queue()

        def read() -> None:
            """Hand over stdout lines until the banner's last one or the end."""
            for line in self.proc.stdout:
                lines.put(line)
                if line.startswith("data:"):
                    break
            lines.put(None)

        threading.Thread(target=read, daemon=True).start()
        text = []
        try:
            while (line := lines.get(timeout=START_SECONDS)) is not None:
                text.append(line)
        except queue.Empty:
            pass  # no banner in time: reported by the caller
        return "".join(text)

    def kill(self) -> None:
        """SIGKILL: no clean shutdown, no flush, no checkpoint."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(30)
        self.proc.stdout.close()
