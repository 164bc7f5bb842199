"""Checks every request passes before a route sees it: a Host this server answers to (no DNS rebinding onto
loopback), the token when one is set, JSON bodies only, and a bounded body size. Refusals are `{"error": ...}`."""

from __future__ import annotations

import hmac
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qs

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


TOO_LARGE = "react_engine.body_too_large"


class BodyTooLarge(Exception):
    """A body sent without a length that grew past the limit (413)."""


async def refuse(send: Send, status: int, error: str) -> None:
    """Answer `{"error": error}` with `status`."""
    body = json.dumps({"error": error}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            ]})
    await send({"type": "http.response.body", "body": body})


class Guards:
    """ASGI middleware. `hosts`: the Host names taken (None: any); `token`: required on /v1/ (as `Authorization:
    Bearer TOKEN`, or `?token=` where a header cannot be set, as for an event stream); `max_body`: bytes."""

    def __init__(self, app: ASGIApp, *, hosts: tuple[str, ...] | None, token: str | None, max_body: int) -> None:
        self.app, self.hosts, self.token, self.max_body = app, hosts, token, max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        problem = self._problem(scope, headers)
        if problem is not None:
            await refuse(send, *problem)
            return
        await self._limited(scope, receive, send)

    def _problem(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str] | None:
        if self.hosts is not None and _host(headers) not in self.hosts:
            return 421, f"this server answers to {', '.join(self.hosts)} only; use one of them in the address"
        path = scope.get("path", "")
        if self.token and path.startswith("/v1/") and not self._authorised(scope, headers):
            return 401, "missing or wrong token: send the header 'Authorization: Bearer TOKEN'"
        if scope.get("method") in ("POST", "PUT", "PATCH"):
            return self._body_problem(headers)
        return None

    def _body_problem(self, headers: dict[str, str]) -> tuple[int, str] | None:
        """Why a request's body is refused (not JSON, or declared over the limit), or None."""
        if not headers.get("content-type", "").startswith("application/json"):
            return 415, "send the body as JSON with the header 'Content-Type: application/json'"
        length = headers.get("content-length", "")
        if length.isdigit() and int(length) > self.max_body:
            return 413, f"the body has {int(length):,} bytes, over the limit of {self.max_body:,}"
        return None

    def _authorised(self, scope: Scope, headers: dict[str, str]) -> bool:
        assert self.token is not None
        given = headers.get("authorization", "").removeprefix("Bearer ").strip()
        if not given:
            given = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token", [""])[0]
        return hmac.compare_digest(given.encode(), self.token.encode())

    async def _limited(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Run the app, cutting a body sent without a length (chunked) once it passes the limit."""
        received, started = 0, False

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    scope[TOO_LARGE] = True  # what a route that wraps this error into its own still answers
                    raise BodyTooLarge
            return message

        async def tracked(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited, tracked)
        except BodyTooLarge:
            if not started:
                await refuse(send, 413, f"the body is over the limit of {self.max_body:,} bytes")


def _host(headers: dict[str, str]) -> str:
    """The host a request names, without its port (an IPv6 address in brackets kept whole)."""
    host = headers.get("host", "")
    return host if host.endswith("]") else host.rsplit(":", 1)[0]
