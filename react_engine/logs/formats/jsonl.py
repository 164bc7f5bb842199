"""JSON lines: one object per line; time, level and message are found by their usual key names.

A log that writes no level but an HTTP response's status (`status`, `response.status`, ...) gets its severity from
the status by the access log's rule (>= 500 error, >= 400 warning), named in `severity_rule`; a written level wins.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from react_engine.logs.formats.logformat import Columns, Format
from react_engine.logs.formats.status import status_rule
from react_engine.logs.schema import CANONICAL_COLUMNS, RAW_COLUMN

KEYS: dict[str, tuple[str, ...]] = {
    "ts": ("timestamp", "@timestamp", "time", "ts", "datetime", "date", "asctime", "t", "eventTime", "t.$date",
           "timeUnixNano", "started_at", "EdgeStartTimestamp", "instant.epochSecond"),
    "level": ("level", "severity", "levelname", "lvl", "loglevel", "log.level", "level_name", "priority",
              "severityText", "@fields.lvl", "@fields.level", "s"),
    "message": ("message", "msg", "@message", "text", "log", "event", "body", "@fields.msg", "body.stringValue"),
    "host": ("host", "hostname", "host.name", "@host", "server"),
    "component": ("logger", "logger_name", "name", "component", "module", "service", "app", "program", "source"),
    "pid": ("pid", "process", "process.pid", "thread", "thread_name"),
}
STATUS_KEYS = ("status", "status_code", "statusCode", "response.status", "response.status_code", "http.status_code",
               "http.response.status_code", "EdgeResponseStatus")
"""Keys that hold an HTTP response's status, by their usual names (nested objects one level down are dotted)."""
_STATUS_SET = frozenset(STATUS_KEYS)
MAX_EXTRAS = 20
EXTRA_MIN_SHARE = 0.1
_RESERVED = set(CANONICAL_COLUMNS) | {RAW_COLUMN, "ts", "level"}


def _flatten(obj: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested objects one level down become dotted keys (`log.level`)."""
    flat: dict[str, Any] = {}
    for key, value in obj.items():
        if isinstance(value, dict) and not prefix:
            flat.update(_flatten(value, f"{key}."))
        else:
            flat[prefix + key] = value
    return flat


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _epoch_text(value: Any) -> str | None:
    """Numbers are epoch seconds (or ms/us/ns by magnitude), written as `seconds.nanoseconds`."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return _text(value)
    scale = next((s for limit, s in ((10**17, 10**9), (10**14, 10**6), (10**11, 10**3)) if abs(value) >= limit), 1)
    if isinstance(value, float):
        return f"{value / scale:.9f}"
    seconds, rest = divmod(value, scale)
    return f"{seconds}.{rest * (10**9 // scale):09d}"


_CONVERT = {"ts": _epoch_text}
_BUNYAN_NUMBER = r"^[1-6]0$"


def _objects(lines: pa.Array) -> list[dict[str, Any] | None]:
    objects: list[dict[str, Any] | None] = []
    for line in lines.to_pylist():
        try:
            obj = json.loads(line) if line and line.lstrip().startswith("{") else None
        except (ValueError, RecursionError):  # RecursionError: absurdly deep nesting
            obj = None
        objects.append(_flatten(obj) if isinstance(obj, dict) else None)
    return objects


def _pick(obj: dict[str, Any], names: tuple[str, ...]) -> tuple[str | None, Any]:
    for name in names:
        if name in obj:
            return name, obj[name]
    return None, None


_INT64 = range(-(2**63), 2**63)


def _extra_column(values: list[Any]) -> pa.Array:
    """Numbers stay numbers (int64 or float64) when every present value is one; otherwise text. An integer past
    int64 is a float, and one past a float's range (`1` and 400 zeros) is inf, which the tools leave out as too
    large to read."""
    present = [v for v in values if v is not None]
    if present and all(isinstance(v, int) and not isinstance(v, bool) and v in _INT64 for v in present):
        return pa.array(values, pa.int64())
    if present and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        return pa.array([None if v is None else _float(v) for v in values], pa.float64())
    return pa.array([_text(v) for v in values], pa.large_string())


def _float(number: int | float) -> float:
    try:
        return float(number)
    except OverflowError:
        return math.inf if number > 0 else -math.inf


def _read(lines: pa.Array) -> tuple[Columns, pa.Array]:
    objects = _objects(lines)
    columns, matched = object_columns(objects)
    present = set().union(*(o.keys() & _STATUS_SET for o in objects if o))  # one pass, not one per key
    key = next((k for k in STATUS_KEYS if k in present), None)
    if key is not None:
        columns["_status"] = pa.array([_text(o.get(key)) if o else None for o in objects], pa.large_string())
        status_rule(columns, "_status")
        del columns["_status"]
    return columns, matched


def object_columns(objects: list[dict[str, Any] | None]) -> tuple[Columns, pa.Array]:
    """Columns from each line's key-value object (None where the line is not one), and which lines were:
    time, level, message and the canonical columns found by their usual key names, common other keys as extras."""
    values, used = _canonical(objects)
    columns: Columns = {name: pa.array(v, pa.large_string()) for name, v in values.items()}
    numeric = pc.match_substring_regex(columns["level"], _BUNYAN_NUMBER)  # bunyan and pino: `"level": 30`
    columns["blevel"] = pc.if_else(numeric, columns["level"], pa.scalar(None, pa.large_string()))
    for key in _extras(objects, used):
        columns[key] = _extra_column([o.get(key) if o else None for o in objects])
    matched = pa.array([o is not None for o in objects], pa.bool_())
    return columns, matched


def _canonical(objects: list[dict[str, Any] | None]) -> tuple[dict[str, list[str | None]], list[set[str]]]:
    """Each canonical column's values, found by their usual key names, and the keys each object used for them."""
    values: dict[str, list[str | None]] = {name: [] for name in KEYS}
    used: list[set[str]] = []
    for obj in objects:
        taken: set[str] = set()
        for column, names in KEYS.items():
            key, value = _pick(obj, names) if obj else (None, None)
            if key:
                taken.add(key)
            values[column].append(_CONVERT.get(column, _text)(value))
        used.append(taken)
    return values, used


def _extras(objects: list[dict[str, Any] | None], used: list[set[str]]) -> list[str]:
    """The other keys common enough to keep as columns (at most `MAX_EXTRAS`)."""
    counts = Counter(k for obj, taken in zip(objects, used) if obj for k in obj if k not in taken)
    minimum = max(1, int(EXTRA_MIN_SHARE * len(objects)))
    return [k for k, n in counts.most_common(MAX_EXTRAS) if n >= minimum and k not in _RESERVED]


JSONL = Format(
    name="jsonl",
    description="JSON lines; time/level/message keys found by usual names, other common keys kept as columns",
    reader=_read,
    shapes=("iso", "epoch", "bsd", "clf", "us"),
)
