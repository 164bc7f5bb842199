"""One deadline and one size limit for a whole HTTP exchange: connect, headers and every byte of the body.

httpx's timeouts bound each read, so a server that sends one byte every few seconds is never timed out.
`DeadlineTransport` caps every timeout at the time left and, once the headers are in, shuts the socket down when
the deadline passes, so a read that is still waiting returns at once and the request fails. It also stops
reading a body past `MAX_REPLY_BYTES` (a reply that never ends would otherwise grow memory without limit). It
wraps an `HTTPTransport` of httpx or of httpx2 (which the anthropic SDK uses); both have the same interface.
"""

from __future__ import annotations

import socket
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx

from react_engine.errors import ReplyTooLargeError

_PHASES = ("connect", "read", "write", "pool")
MAX_REPLY_BYTES = 4 * 1024 * 1024  # one action is a few hundred bytes; a thinking model's reply a few KB


class DeadlineTransport(httpx.BaseTransport):
    """A transport whose requests made inside `bound(deadline)` end by `deadline` (a `time.monotonic()` value)."""

    def __init__(self, inner: Any = None, max_bytes: int = MAX_REPLY_BYTES) -> None:
        self.inner = inner if inner is not None else httpx.HTTPTransport()
        self.max_bytes = max_bytes
        # the byte-stream class of the inner transport's library: its responses accept only streams of that class
        self._stream_class = sys.modules[type(self.inner).__module__.split(".")[0]].SyncByteStream
        self.deadline: float | None = None
        self._timers: list[threading.Timer] = []

    @contextmanager
    def bound(self, deadline: float) -> Iterator[None]:
        """Requests made inside the block end by `deadline`; a request cut short fails with a transport error."""
        self.deadline = deadline
        try:
            yield
        finally:
            self.deadline = None
            for timer in self._timers:
                timer.cancel()
            self._timers.clear()

    def handle_request(self, request: Any) -> Any:
        deadline = self.deadline
        if deadline is None:
            return self._capped(self.inner.handle_request(request))
        left = max(0.001, deadline - time.monotonic())
        timeouts = request.extensions.get("timeout", {})
        request.extensions["timeout"] = {p: left if timeouts.get(p) is None else min(timeouts[p], left)
                                         for p in _PHASES}  # fmt: skip
        response = self.inner.handle_request(request)
        network = response.extensions.get("network_stream")
        sock = network.get_extra_info("socket") if network is not None else None
        if sock is not None:
            timer = threading.Timer(max(0.0, deadline - time.monotonic()), _shutdown, (sock,))
            timer.daemon = True
            timer.start()
            self._timers.append(timer)
        return self._capped(response)

    def _capped(self, response: Any) -> Any:
        """`response`, its body read no further than `max_bytes`."""
        inner, limit = response.stream, self.max_bytes

        class Capped(self._stream_class):  # type: ignore[name-defined]
            def __iter__(self) -> Iterator[bytes]:
                seen = 0
                for chunk in inner:
                    seen += len(chunk)
                    if seen > limit:
                        raise ReplyTooLargeError(f"the model server sent more than {limit // 2**20} MB for one reply: "
                                                 "stopped reading it; check the server and the model")
                    yield chunk

            def close(self) -> None:
                inner.close()

        response.stream = Capped()
        return response

    def close(self) -> None:
        self.inner.close()


def _shutdown(sock: socket.socket) -> None:
    """Wake a blocked read on `sock`: it returns end-of-stream and the request fails."""
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
