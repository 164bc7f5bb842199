"""One deadline for a whole HTTP exchange: connect, headers and every byte of the body.

httpx's timeouts bound each read, so a server that sends one byte every few seconds is never timed out.
`DeadlineTransport` caps every timeout at the time left and, once the headers are in, shuts the socket down when
the deadline passes, so a read that is still waiting returns at once and surfaces as `httpx.ReadTimeout`.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx

_PHASES = ("connect", "read", "write", "pool")


class DeadlineTransport(httpx.BaseTransport):
    """An `httpx.HTTPTransport` whose requests end by `deadline` (a `time.monotonic()` value, or None)."""

    def __init__(self, inner: httpx.BaseTransport | None = None) -> None:
        self.inner = inner or httpx.HTTPTransport()
        self.deadline: float | None = None

    @contextmanager
    def bound(self, deadline: float | None) -> Iterator[None]:
        """Requests made inside the block end by `deadline`."""
        self.deadline = deadline
        try:
            yield
        finally:
            self.deadline = None

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        deadline = self.deadline
        if deadline is None:
            return self.inner.handle_request(request)
        left = deadline - time.monotonic()
        if left <= 0:
            raise httpx.ConnectTimeout("no time left for the request", request=request)
        timeouts = request.extensions.get("timeout", {})
        request.extensions["timeout"] = {p: left if timeouts.get(p) is None else min(timeouts[p], left)
                                         for p in _PHASES}  # fmt: skip
        try:
            response = self.inner.handle_request(request)
        except httpx.TransportError:
            if time.monotonic() >= deadline:
                raise httpx.ReadTimeout("the deadline passed", request=request) from None
            raise
        response.stream = _DeadlineStream(response, deadline, request)
        return response

    def close(self) -> None:
        self.inner.close()


class _DeadlineStream(httpx.SyncByteStream):
    """The body of a response, cut off when the deadline passes."""

    def __init__(self, response: httpx.Response, deadline: float, request: httpx.Request) -> None:
        self.inner = response.stream
        self.deadline = deadline
        self.request = request
        network = response.extensions.get("network_stream")
        sock = network.get_extra_info("socket") if network is not None else None
        self.timer = threading.Timer(max(0.0, deadline - time.monotonic()), _shutdown, (sock,))
        self.timer.daemon = True
        if sock is not None:
            self.timer.start()

    def __iter__(self) -> Iterator[bytes]:
        try:
            for chunk in self.inner:  # type: ignore[union-attr]
                self._check()
                yield chunk
        except httpx.TransportError:
            self._check()
            raise
        self._check()  # a body cut short by the shutdown ends without an error

    def _check(self) -> None:
        if time.monotonic() >= self.deadline:
            raise httpx.ReadTimeout("the deadline passed while reading the reply", request=self.request)

    def close(self) -> None:
        self.timer.cancel()
        if isinstance(self.inner, httpx.SyncByteStream):
            self.inner.close()


def _shutdown(sock: socket.socket | None) -> None:
    """Wake a blocked read on `sock` (it then returns end-of-stream or an error)."""
    try:
        sock.shutdown(socket.SHUT_RDWR)  # type: ignore[union-attr]
    except OSError:
        pass
