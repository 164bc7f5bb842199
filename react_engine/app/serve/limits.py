"""What the server allows: its roots, the sizes and counts it takes, and who may call it."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from pathlib import Path

from react_engine.errors import InputError
from react_engine.settings import Settings


@dataclass(frozen=True)
class ServeLimits:
    """The server's limits. `roots`: the only folders whose files it reads or writes (resolved); `token`: the bearer
    token every API call must carry (required unless bound to loopback)."""

    roots: tuple[Path, ...]
    token: str | None = None
    max_body_bytes: int = 64 * 1024
    max_question_chars: int = Settings.model_fields["max_question_chars"].default
    max_runs: int = 2  # runs at once; more wait in a queue
    max_queued: int = 64  # runs waiting beyond that are refused (429)
    max_sessions: int = 64
    run_timeout: float = Settings.model_fields["timeout_seconds"].default
    approval_timeout: float = 300.0  # seconds an approval waits for its answer
    memory_budget_bytes: int = 4 * 1024**3  # loaded frames kept beyond it are dropped, least recently used first
    trace_dir: Path | None = None
    trace: bool = True
    kept_runs: int = 1000  # finished runs remembered for GET /v1/runs/{id}
    hosts: tuple[str, ...] = field(default=("127.0.0.1", "localhost", "[::1]"))  # Host headers taken on loopback


def is_loopback(host: str) -> bool:
    """Whether binding `host` serves this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, token: str | None) -> None:
    """InputError when `host` is reachable from other machines and no token guards it."""
    if not is_loopback(host) and not token:
        raise InputError(f"--host {host} serves other machines: give a token (--token or REACT_ENGINE_TOKEN) that "
                         "every request must carry, or bind 127.0.0.1")


def resolved_roots(roots: tuple[str, ...] | list[str]) -> tuple[Path, ...]:
    """Each root resolved (symlinks followed); InputError when one is not a folder."""
    found = []
    for root in roots or (".",):
        path = Path(root).expanduser().resolve()
        if not path.is_dir():
            raise InputError(f"--root {root}: not a folder; give a folder whose logs may be read")
        found.append(path)
    return tuple(found)
