"""systemd journal export as JSON (`journalctl -o json`): one object per entry, with the journal's field names.

`__REALTIME_TIMESTAMP` is microseconds since the epoch (as text), `PRIORITY` the syslog severity 0-7.
`MESSAGE` is text, or an array of bytes when the message was not valid UTF-8.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from react_engine.logs.formats.jsonl import _epoch_text, _objects, _text
from react_engine.logs.formats.logformat import Columns, Format

# canonical column -> journal fields, first present wins
FIELDS: dict[str, tuple[str, ...]] = {
    "host": ("_HOSTNAME",),
    "component": ("SYSLOG_IDENTIFIER", "_COMM", "_SYSTEMD_UNIT"),
    "pid": ("_PID", "SYSLOG_PID"),
    "unit": ("_SYSTEMD_UNIT", "_SYSTEMD_USER_UNIT"),
}
_MARKS = ("__REALTIME_TIMESTAMP", "__CURSOR", "_BOOT_ID")


def is_entry(obj: dict[str, Any] | None) -> bool:
    """A journal entry: a MESSAGE with at least one of the journal's own trusted fields."""
    return obj is not None and "MESSAGE" in obj and any(mark in obj for mark in _MARKS)


def message(value: Any) -> str | None:
    """MESSAGE as text; a byte array (non-UTF-8 message) is decoded with replacement characters."""
    if isinstance(value, list) and all(isinstance(b, int) and 0 <= b < 256 for b in value):
        return bytes(value).decode("utf-8", errors="replace")
    return _text(value)


def _microseconds(value: Any) -> str | None:
    text = _text(value)
    return _epoch_text(int(text)) if text and text.isdigit() else None


def _first(obj: dict[str, Any], names: tuple[str, ...]) -> str | None:
    return next((_text(obj[name]) for name in names if obj.get(name) is not None), None)


def _read(lines: pa.Array) -> tuple[Columns, pa.Array]:
    entries = [obj if is_entry(obj) else None for obj in _objects(lines)]
    values: dict[str, list[str | None]] = {"ts": [], "sev": [], "message": [], **{name: [] for name in FIELDS}}
    for obj in entries:
        obj = obj or {}
        values["ts"].append(_microseconds(obj.get("__REALTIME_TIMESTAMP")))
        values["sev"].append(_text(obj.get("PRIORITY")))
        values["message"].append(message(obj.get("MESSAGE")))
        for name, fields in FIELDS.items():
            values[name].append(_first(obj, fields))
    columns: Columns = {name: pa.array(v, pa.large_string()) for name, v in values.items()}
    return columns, pa.array([obj is not None for obj in entries], pa.bool_())


JOURNALD = Format(
    name="journald",
    description="systemd journal JSON (journalctl -o json): time, PRIORITY 0-7, host, identifier, pid, unit",
    reader=_read,
    shapes=("epoch",),
    extras=("unit",),
)
