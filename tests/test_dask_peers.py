"""A `--dask` address where something other than a Dask scheduler listens (a socket that accepts and never
answers, an HTTP server, a peer announcing a huge frame): the run ends within `--timeout` with one line, exit 1."""

from __future__ import annotations

import http.server
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="needs the dask extra: pip install -e \".[dask]\"")

pytestmark = pytest.mark.dask
ROOT = Path(__file__).resolve().parents[1]
LOGS = str(ROOT / "sample_logs/cmts")
TIMEOUT = 3.0


@contextmanager
def _raw_server(on_accept: Callable[[socket.socket], None]) -> Iterator[str]:
    """A TCP server on loopback calling `on_accept` with each connection (kept open until the server stops)."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            held.append(conn)
            on_accept(conn)

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        server.close()
        for conn in held:
            conn.close()


@contextmanager
def _http_server() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"tcp://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def startup() -> float:
    """Seconds a process takes here to start the CLI and import Dask (long on a busy machine)."""
    return _startup()


def _startup() -> float:
    began = time.monotonic()
    subprocess.run([sys.executable, "-c", "import react_engine.app.cli, react_engine.loop.engine, distributed"],
                   check=True, timeout=120, cwd=ROOT)
    return time.monotonic() - began


def _ask(address: str, startup: float) -> tuple[subprocess.CompletedProcess, float, float]:
    """The run, how long it took and its --timeout: TIMEOUT past the time starting takes here, which the limit
    counts too (a command's --timeout runs from its start, imports included)."""
    timeout = TIMEOUT + startup
    began = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "react_engine", "ask", "How many lines?", LOGS, "--planner", "rules",
                           "--no-cache", "--dask", address, "--timeout", f"{timeout:.1f}"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    return done, time.monotonic() - began, timeout


def _assert_one_line_error(done: subprocess.CompletedProcess, elapsed: float, address: str, timeout: float) -> None:
    # the limit holds from the command's start: past it only the interpreter's own start-up and the exit
    assert elapsed < timeout + 2, f"ran {elapsed:.1f}s with --timeout {timeout:.1f}"
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and "Error:" not in done.stderr.split(address)[0]
    lines = [line for line in done.stderr.splitlines() if address in line]
    assert len(lines) == 1, done.stderr
    assert len(done.stderr.strip().splitlines()) <= 3, done.stderr


def test_an_address_that_accepts_and_never_answers_ends_within_the_timeout(startup: float) -> None:
    with _raw_server(lambda conn: None) as address:
        done, elapsed, timeout = _ask(address, startup)
    _assert_one_line_error(done, elapsed, address, timeout)
    assert "did not answer" in done.stderr


def test_an_http_server_on_the_port_ends_within_the_timeout(startup: float) -> None:
    with _http_server() as address:
        done, elapsed, timeout = _ask(address, startup)
    _assert_one_line_error(done, elapsed, address, timeout)


def test_a_peer_announcing_a_huge_frame_ends_with_one_line(startup: float) -> None:
    # the peer answers at once, so the error is its own, not the limit's: more time (the machine may be busy
    # starting this process) must not change it
    with _raw_server(lambda conn: conn.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")) as address:
        done, elapsed, timeout = _ask(address, 3 * startup)
    _assert_one_line_error(done, elapsed, address, timeout)
    assert "not a Dask scheduler" in done.stderr


def test_a_silent_address_ends_within_the_timeout_with_the_machine_busy(busy_core) -> None:
    with _raw_server(lambda conn: None) as address:
        done, elapsed, timeout = _ask(address, _startup())  # start-up under this load counts against the limit
    _assert_one_line_error(done, elapsed, address, timeout)
    assert "did not answer" in done.stderr or "time limit passed" in done.stderr


def test_a_limit_spent_before_connecting_ends_the_run_at_once_with_one_line(busy_core) -> None:
    with _raw_server(lambda conn: None) as address:
        done, elapsed, timeout = _ask(address, -TIMEOUT + 0.5)  # --timeout 0.5: spent on the imports
    _assert_one_line_error(done, elapsed + 0.0, address, timeout + _startup())
    assert "time limit" in done.stderr


def test_a_load_that_cannot_progress_ends_at_the_run_deadline() -> None:
    from dask_cluster import dask_cluster

    from react_engine import Engine, Settings
    from react_engine.logs.options import LoadOptions
    from react_engine.planners.rules import RulesPlanner

    with dask_cluster(0) as cluster:  # no worker: the load would wait STALL_SECONDS (20 s) before giving up
        engine = Engine(RulesPlanner(), Settings(timeout_seconds=TIMEOUT), dask=cluster.address)
        began = time.monotonic()
        result = engine.ask("How many lines?", [LOGS], load_options=LoadOptions(use_cache=False))
        elapsed = time.monotonic() - began
    assert elapsed < TIMEOUT + 2, elapsed
    assert result.stop_reason == "error"
    assert "did not finish loading the logs within the run's time limit: raise it (--timeout)" in (result.message or "")
