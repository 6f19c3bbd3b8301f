"""PDF sheets rendered in a child process, each with a time limit and a memory limit.

A long game's sheet takes WeasyPrint seconds of CPU and hundreds of MB. Rendered in the
server, the memory stayed with the server (its threads' malloc arenas keep what a render
grew) and a render nobody waited for could not be stopped. In a child process, the
memory goes back to the system when the child exits, and a child past its time is killed.

Children are forked from a 'forkserver' process that has already imported WeasyPrint, so
starting one costs milliseconds, and no child is forked from the threaded server itself.
"""

from __future__ import annotations

import multiprocessing
import resource
import threading
import time
from collections.abc import Callable, Mapping
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext
from typing import Any

from scorer.engine import Game, parse_game

# How often a waiting render asks whether its client is still there (seconds).
GONE_CHECK = 0.5

_context: ForkServerContext | None = None
_context_lock = threading.Lock()


class RenderFailed(Exception):
    """The child did not hand a sheet back: ``reason`` is 'time', 'memory' or 'error'."""

    def __init__(self, reason: str, detail: str = ""):
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason


def context() -> ForkServerContext:
    """The forkserver context, its server preloading the sheet code (made once)."""
    global _context
    with _context_lock:
        if _context is None:
            ctx = multiprocessing.get_context("forkserver")
            ctx.set_forkserver_preload(["scorer.renders", "scorer.sheet", "scorer.papers"])
            _context = ctx
        return _context


def sheet_pdf(game: Game, **options: Any) -> bytes:
    """The protocol sheet's PDF bytes (run in the child: the server never imports WeasyPrint)."""
    from scorer.sheet import render_sheet  # preloaded by the forkserver, not by the server

    return render_sheet(game, **options)


def comparison_paper(game: Game, **options: Any) -> bytes:
    """The one-page comparison PDF (in the child, like sheet_pdf)."""
    from scorer.papers import render_comparison

    return render_comparison(game, **options)


def rules_paper(game: Game, **options: Any) -> bytes:
    """The agreement set on paper (in the child, like sheet_pdf)."""
    from scorer.papers import render_rules

    return render_rules(game, **options)


def html_paper(_game: Game | None, *, html: str) -> bytes:
    """Any paper already written as HTML (the club's), laid out in the child."""
    from scorer.sheet import html_to_pdf

    return html_to_pdf(html)


def _child(pipe: Connection, render: Callable[..., bytes], log: dict[str, Any],
           options: Mapping[str, Any], memory: int, seconds: int) -> None:
    """In the child: limit its address space and CPU time, render, send the bytes back."""
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    # A second guard on time: even if the parent is gone, the kernel ends the child.
    resource.setrlimit(resource.RLIMIT_CPU, (seconds + 2, seconds + 4))
    try:
        # An empty log: the paper is made of its options alone (html_paper).
        data = render(parse_game(log) if log else None, **options)
    except MemoryError:
        pipe.send_bytes(b"M")
        return
    except Exception as exc:  # noqa: BLE001 - reported to the parent, which logs it
        pipe.send_bytes(b"E" + repr(exc).encode("utf-8", "replace")[:2000])
        return
    pipe.send_bytes(b"P" + data)


def wait_for(reader: Connection, seconds: float, gone: Callable[[], bool] | None) -> None:
    """Wait until the child answers (or exits); RenderFailed past ``seconds`` or once
    nobody waits for the answer any more."""
    deadline = time.monotonic() + seconds
    while not reader.poll(max(0.0, min(GONE_CHECK, deadline - time.monotonic()))):
        if gone is not None and gone():
            raise RenderFailed("gone")
        if time.monotonic() >= deadline:
            raise RenderFailed("time")


def render_in_child(render: Callable[..., bytes], log: dict[str, Any], options: Mapping[str, Any],
                    *, seconds: float, memory: int,
                    gone: Callable[[], bool] | None = None) -> bytes:
    """render(parse_game(log), **options) in a child process; RenderFailed if it cannot.

    The child is killed once ``seconds`` have passed without an answer; its address space
    is limited to ``memory`` bytes. ``gone`` tells whether the client has hung up: then
    nobody waits for the sheet, and the child is killed at once.
    """
    ctx = context()
    reader, writer = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_child, daemon=True,
                        args=(writer, render, log, options, memory, int(seconds) + 1))
    child.start()
    writer.close()  # the child holds the only writing end: its exit ends the pipe
    try:
        wait_for(reader, seconds, gone)
        try:
            answer = reader.recv_bytes()
        except EOFError:  # died without a word: killed by a limit, or crashed
            raise RenderFailed("memory") from None
    finally:
        if child.is_alive():
            child.kill()
        child.join(10)
        reader.close()
    if answer[:1] == b"P":
        return answer[1:]
    if answer[:1] == b"M":
        raise RenderFailed("memory")
    raise RenderFailed("error", answer[1:].decode("utf-8", "replace"))
