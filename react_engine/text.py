"""Text cut to a width for one line of a prompt, a summary or a terminal."""

from __future__ import annotations

ELLIPSIS = "…"


def cut(text: str, limit: int) -> str:
    """`text` when it fits in `limit` characters, else its start and `…` in exactly `limit` characters."""
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + ELLIPSIS
