"""Docker's json-file log driver: `{"log": "text\\n", "stream": "stdout|stderr", "time": "RFC 3339 nanos"}`.

The container's own line is the message; its level is the level word found in it (as in the generic format).
"""

from __future__ import annotations

import pyarrow as pa

from react_engine.logs.arrow import group
from react_engine.logs.formats.generic import LEVEL_ANYWHERE
from react_engine.logs.formats.jsonl import _objects, _text
from react_engine.logs.formats.logformat import Columns, Format

_KEYS = ("log", "stream", "time")


def _read(lines: pa.Array) -> tuple[Columns, pa.Array]:
    entries = [obj if obj is not None and all(k in obj for k in _KEYS) else None for obj in _objects(lines)]
    logs = [(_text(obj["log"]) or "").rstrip("\r\n") if obj else None for obj in entries]
    messages = pa.array(logs, pa.large_string())
    columns: Columns = {
        "ts": pa.array([_text(obj["time"]) if obj else None for obj in entries], pa.large_string()),
        "level": group(messages, LEVEL_ANYWHERE, "level"),
        "message": messages,
        "stream": pa.array([_text(obj["stream"]) if obj else None for obj in entries], pa.large_string()),
    }
    return columns, pa.array([obj is not None for obj in entries], pa.bool_())


DOCKER = Format(
    name="docker",
    description="Docker json-file logs ({log, stream, time}): the container's lines, level words found in them",
    reader=_read,
    shapes=("iso",),
    extras=("stream",),
)
