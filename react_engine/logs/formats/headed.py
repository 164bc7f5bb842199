"""Logs whose `#` header lines name their columns: Zeek (Bro) TSV logs and W3C extended logs (IIS and others).

The header lines are the file's metadata, not rows: they name the columns of the lines below them (a file may
start a new header part way down) and are left out of the rows, with a note. W3C logs write no level; an HTTP
status of 500 or more is an error and of 400 or more a warning, by the format's own rule (`severity_rule` says
so on those rows).
"""

from __future__ import annotations

import re
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from react_engine.logs.formats.jsonl import object_columns
from react_engine.logs.formats.logformat import Columns, Format
from react_engine.logs.formats.status import status_rule

METADATA_COLUMN = "_metadata"
"""True on the lines a format reads as the file's metadata (header lines): they are dropped from the rows."""
_ZEEK_NUMBERS = {"count": int, "int": int, "port": int, "double": float, "interval": float, "time": float}
_W3C_TOKEN = re.compile(r'"((?:[^"]|"")*)"|(\S+)')
_W3C_NAMES = {"sc-status": "status", "c-ip": "client_ip", "cs-method": "method", "cs-uri-stem": "path",
              "cs(User-Agent)": "user_agent", "cs(Referer)": "referer", "sc-bytes": "bytes"}
_NAME = re.compile(r"[^0-9A-Za-z]+")


def _column_name(field: str) -> str:
    """`id.orig_h` -> `id_orig_h`, `cs(User-Agent)` -> `cs_user_agent`."""
    return _NAME.sub("_", field).strip("_").lower() or "field"


class _Zeek:
    """Reads a Zeek log line by line, its `#separator`, `#unset_field`, `#fields` and `#types` lines as it goes."""

    def __init__(self) -> None:
        self.separator, self.unset, self.empty = "\t", "-", "(empty)"
        self.fields: list[str] = []
        self.types: list[str] = []

    def header(self, line: str) -> None:
        key, _, rest = line[1:].partition(self.separator if not line.startswith("#separator") else " ")
        if key == "separator":
            self.separator = rest.strip().encode().decode("unicode_escape")
        elif key == "unset_field":
            self.unset = rest
        elif key == "empty_field":
            self.empty = rest
        elif key == "fields":
            self.fields = [_column_name(name) for name in rest.split(self.separator)]
        elif key == "types":
            self.types = rest.split(self.separator)

    def row(self, line: str) -> dict[str, Any] | None:
        values = line.split(self.separator)
        if not self.fields or len(values) != len(self.fields):
            return None
        return {name: self._value(value, kind)
                for name, value, kind in zip(self.fields, values, self.types or [""] * len(values), strict=False)}

    def _value(self, value: str, kind: str) -> Any:
        if value in (self.unset, self.empty):
            return None
        convert = _ZEEK_NUMBERS.get(kind)
        try:
            return convert(value) if convert else value
        except ValueError:
            return value


def _read(lines: pa.Array, reader: _Zeek | _W3C) -> tuple[list[dict[str, Any] | None], list[bool]]:
    """Each line's fields (None on header lines and lines that fit no header) and whether it is a header line
    (blank lines count as one in a W3C log)."""
    objects: list[dict[str, Any] | None] = []
    metadata: list[bool] = []
    for line in lines.to_pylist():
        line = line or ""
        is_header = line.startswith("#") or (isinstance(reader, _W3C) and not line.strip())
        if line.startswith("#"):
            reader.header(line)
        objects.append(None if is_header else reader.row(line))
        metadata.append(is_header)
    return objects, metadata


def _read_zeek(lines: pa.Array) -> tuple[Columns, pa.Array]:
    return _headed_columns(lines, *_read(lines, _Zeek()), zeek=True)


def _headed_columns(lines: pa.Array, objects: list[dict[str, Any] | None], metadata: list[bool], *,
                    zeek: bool) -> tuple[Columns, pa.Array]:
    """Columns from the rows' fields; the lines as the messages; header lines marked as metadata (and matched, so
    that they count towards detection)."""
    columns, matched = object_columns(objects)
    columns["message"] = lines
    columns[METADATA_COLUMN] = pa.array(metadata, pa.bool_())
    # header lines count as the format's only where they named the columns of some row
    seen = pc.or_(matched, columns[METADATA_COLUMN]) if pc.any(matched).as_py() else matched
    status = "status_code" if zeek else "status"
    if status in columns:
        status_rule(columns, status)
    return columns, seen


class _W3C:
    """Reads a W3C extended log line by line, its `#Fields:` and `#Date:` lines as it goes."""

    def __init__(self) -> None:
        self.fields: list[str] = []
        self.date = ""

    def header(self, line: str) -> None:
        key, _, rest = line[1:].partition(":")
        if key.strip().lower() == "fields":
            self.fields = rest.split()
        elif key.strip().lower() in ("date", "start-date"):
            self.date = rest.split()[0] if rest.split() else ""

    def row(self, line: str) -> dict[str, Any] | None:
        values = [quoted.replace('""', '"') if quoted or plain is None else plain
                  for quoted, plain in _W3C_TOKEN.findall(line)]
        if not self.fields or len(values) < len(self.fields):
            return None
        fields = {_W3C_NAMES.get(name) or _column_name(name): None if value == "-" else value
                  for name, value in zip(self.fields, values, strict=False)}
        fields["timestamp"] = self._time(fields)
        for name in ("status", "bytes"):
            value = fields.get(name)
            if isinstance(value, str) and value.isdigit():
                fields[name] = int(value)
        return fields

    def _time(self, fields: dict[str, Any]) -> str | None:
        """`date time` from the row's fields; the date of the `#Date:` header where the row writes only a time."""
        day = fields.get("date") or fields.get("date_local") or self.date
        clock = fields.get("time") or fields.get("time_local")
        return f"{day} {clock}" if day and clock else None


def _read_w3c(lines: pa.Array) -> tuple[Columns, pa.Array]:
    return _headed_columns(lines, *_read(lines, _W3C()), zeek=False)


ZEEK = Format(
    name="zeek",
    description="Zeek (Bro) TSV logs (conn.log, http.log ...): columns named by the `#fields` header, `#` lines kept "
    "as metadata, not rows",
    reader=_read_zeek,
    shapes=("epoch",),
    detect_share=0.9,
    quick=r"^#",
)
W3C = Format(
    name="w3c",
    description="W3C extended logs (IIS and others): columns named by the `#Fields:` header, `#` lines kept as "
    "metadata, not rows; status >= 500 is an error and >= 400 a warning (severity_rule)",
    reader=_read_w3c,
    shapes=("iso", "clf", "us"),
    detect_share=0.9,
    quick=r"^#",
)
