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
from collections.abc import Callable, Mapping
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext
from typing import Any

from scorer.engine import parse_game

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
            ctx.set_forkserver_preload(["scorer.renders", "scorer.sheet"])
            _context = ctx
        return _context


def _child(pipe: Connection, render: Callable[..., bytes], log: dict[str, Any],
           options: Mapping[str, Any], memory: int, seconds: int) -> None:
    """In the child: limit its address space and CPU time, render, send the bytes back."""
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    # A second guard on time: even if the parent is gone, the kernel ends the child.
    resource.setrlimit(resource.RLIMIT_CPU, (seconds + 2, seconds + 4))
    try:
        data = render(parse_game(log), **options)
    except MemoryError:
        pipe.send_bytes(b"M")
        return
    except Exception as exc:  # noqa: BLE001 - reported to the parent, which logs it
        pipe.send_bytes(b"E" + repr(exc).encode("utf-8", "replace")[:2000])
        return
    pipe.send_bytes(b"P" + data)


def render_in_child(render: Callable[..., bytes], log: dict[str, Any], options: Mapping[str, Any],
                    *, seconds: float, memory: int) -> bytes:
    """render(parse_game(log), **options) in a child process; RenderFailed if it cannot.

    The child is killed once ``seconds`` have passed without an answer; its address space
    is limited to ``memory`` bytes.
    """
    ctx = context()
    reader, writer = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_child, daemon=True,
                        args=(writer, render, log, options, memory, int(seconds) + 1))
    child.start()
    writer.close()  # the child holds the only writing end: its exit ends the pipe
    try:
        if not reader.poll(seconds):
            raise RenderFailed("time")
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
