"""Text cut to a width for one line of a prompt, a summary or a terminal, and log text marked inside engine text."""

from __future__ import annotations

import json
from typing import Any

ELLIPSIS = "…"


def cut(text: str, limit: int) -> str:
    """`text` when it fits in `limit` characters, else its start and `…` in exactly `limit` characters."""
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + ELLIPSIS


def json_text(value: Any) -> str:
    """`value` as one line of JSON, non-ASCII kept and anything else JSON has no type for written as its text."""
    return json.dumps(value, default=str, ensure_ascii=False)


LOG_OPEN, LOG_CLOSE = "\x02", "\x03"
"""Around log text inside the engine's own words (a tool's note, an earlier result): the prompt shows it quoted
as log data. Control characters: log text never carries them into a prompt."""


def from_log(text: str) -> str:
    """`text`, which came from a log (or a tool result over one), marked so that the prompt quotes it as log data."""
    return LOG_OPEN + text.replace(LOG_OPEN, " ").replace(LOG_CLOSE, " ") + LOG_CLOSE
