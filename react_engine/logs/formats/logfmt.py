"""logfmt: lines made only of `key=value` pairs (`ts=... level=info msg="request done" status=200`), as Go's
logfmt, Heroku and Grafana's tools write them. Keys are read as JSON lines' keys are (see `jsonl`); whole numbers
are numbers."""

from __future__ import annotations

import re
from typing import Any

import pyarrow as pa

from react_engine.logs.formats.jsonl import object_columns
from react_engine.logs.formats.logformat import Columns, Format

_PAIR = r'([A-Za-z_][\w.\-/@]*)=("(?:[^"\\]|\\.)*"|[^\s"]*)'
_LINE = re.compile(r"\s*" + _PAIR + r"(?:\s+" + _PAIR + r")+\s*")
_PAIRS = re.compile(_PAIR)
_ESCAPE = re.compile(r"\\(.)")
_INTEGER = re.compile(r"-?\d{1,18}")


def _value(text: str) -> Any:
    if text.startswith('"'):
        return _ESCAPE.sub(lambda m: {"n": "\n", "t": "\t"}.get(m[1], m[1]), text[1:-1])
    return int(text) if _INTEGER.fullmatch(text) else text


def _pairs(line: str | None) -> dict[str, Any] | None:
    """The line's keys and values, or None when it is not made of two or more pairs."""
    if not line or "=" not in line or not _LINE.fullmatch(line):
        return None
    return {key: _value(value) for key, value in _PAIRS.findall(line)}


def _read(lines: pa.Array) -> tuple[Columns, pa.Array]:
    return object_columns([_pairs(line) for line in lines.to_pylist()])


LOGFMT = Format(
    name="logfmt",
    description="logfmt (`key=value` pairs: ts, level, msg and the like by their usual names, other keys as columns)",
    reader=_read,
    shapes=("iso", "epoch", "bsd", "clf", "us"),
)
