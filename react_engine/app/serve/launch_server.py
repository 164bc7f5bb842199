"""Starting the server: the roots and bind checked, then uvicorn until Ctrl-C."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from react_engine.app.serve.limits import ServeLimits, check_bind, is_loopback, resolved_roots
from react_engine.errors import InputError


def build(host: str, roots: tuple[str, ...], **limits: Any) -> Any:
    """The guarded ASGI app for `host` (refused off loopback without a token); on loopback it answers to loopback
    Host names only."""
    check_bind(host, limits.get("token"))
    trace_dir = limits.pop("trace_dir", None)
    found = ServeLimits(roots=resolved_roots(roots), trace_dir=Path(trace_dir) if trace_dir else None, **limits)
    from react_engine.app.serve.api import create_app

    return create_app(found, hosts=found.hosts if is_loopback(host) else None)


def serve(host: str, port: int, roots: tuple[str, ...], **limits: Any) -> None:
    """Run the server on `host`:`port` until interrupted."""
    try:
        import fastapi  # noqa: F401  (the API's framework: imported here to name the extra when it is missing)
        import uvicorn
    except ImportError:
        raise InputError("the server needs the serve extra: pip install 'react-engine[serve]'") from None
    app = build(host, roots, **limits)
    roots_shown = ", ".join(str(r) for r in app.server.limits.roots)
    print(f"serving {roots_shown} on http://{host if ':' not in host else f'[{host}]'}:{port}/ (Ctrl-C stops)",
          flush=True)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False, server_header=False,
                            timeout_graceful_shutdown=5)

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            """Ctrl-C: every run is cancelled first, so its event stream ends and the server stops at once (a
            stream still open after 5 s, behind a long tool call, is cut)."""
            app.server.queue.cancel_all()
            super().handle_exit(sig, frame)

    Server(config).run()
