"""Waitress' own limits, against the real `serve` command: a huge body is refused with 413
before it is sent, and a crowd of idle connections does not lock the other tables out."""

from __future__ import annotations

import socket
import urllib.request

import pytest
from reliability_rig import Server

from scorer.cli import serve
from scorer.web import app as web_app


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One real server for the module."""
    server = Server(tmp_path_factory.mktemp("served") / "instance").start()
    yield server
    server.kill()


def test_the_waitress_settings_are_the_documented_ones():
    """The body limit is the app's 2 MB; more connections than waitress' 100; short idle."""
    options = serve.waitress_options(4096)
    assert options["max_request_body_size"] == web_app.MAX_CONTENT_LENGTH == 2 * 1024 * 1024
    assert options["connection_limit"] >= 500
    assert options["channel_timeout"] <= 30


def test_a_300_mb_body_is_refused_before_it_is_sent(served):
    """Only the headers announce 300 MB: the server answers 413 without waiting for (or
    spooling) the body."""
    with socket.create_connection(("127.0.0.1", served.port), timeout=20) as sock:
        sock.sendall(b"POST /import HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: multipart/form-data; boundary=x\r\n"
                     b"Content-Length: 314572800\r\n\r\n--x\r\n")
        answer = sock.recv(4096).decode("latin-1")
    assert answer.startswith("HTTP/1.1 413"), answer[:200]


def test_many_idle_connections_do_not_lock_out_a_phone(served):
    """150 connections from five other devices that send half a request and then nothing
    (more than waitress' default limit of 100, each device within its cap): a phone's page
    still answers."""
    idle = []
    try:
        for n in range(150):
            sock = socket.create_connection(("127.0.0.1", served.port), timeout=20,
                                            source_address=(f"127.0.0.{2 + n % 5}", 0))
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            idle.append(sock)
        with urllib.request.urlopen(served.base + "/manifest.webmanifest", timeout=20) as r:
            assert r.status == 200
    finally:
        for sock in idle:
            sock.close()
