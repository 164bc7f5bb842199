"""`inspect()`: what a log file looks like once loaded — the first thing to run on an unfamiliar log."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
from pydantic import BaseModel, Field

from react_engine.logs.field_catalog import FieldCatalog, with_catalogued
from react_engine.logs.fields import SAMPLE_ROWS, discover, read
from react_engine.logs.formats.logformat import RULE_COLUMN
from react_engine.logs.loader import PathsArg, load_tables, year_assumed
from react_engine.logs.options import LoadOptions
from react_engine.logs.schema import INTERNAL_COLUMNS
from react_engine.logs.severity import SEVERITIES

MISSING = "missing"
PATTERNS_LISTED = 20  # the patterns with fields a report lists, those covering the most sampled lines first


class TimeRange(BaseModel):
    """First and last parsed timestamp (ISO 8601, UTC)."""

    first: str
    last: str


class NumberField(BaseModel):
    """A numeric field: a numeric column or a number the messages carry (`len`, `bytes sent`)."""

    name: str
    type: str = Field(description="column or message")
    unit: str = Field(description="bytes, s, or empty when none is written")
    rows: int = Field(description="rows that carry it")


class FieldReport(BaseModel):
    """A field of a message pattern: named by the log's word beside it, typed from its values."""

    name: str
    type: str = Field(description="integer, float, ip, port, duration, bytes, time, id or text")
    unit: str = Field("", description="the unit its values are written in, when one is")
    examples: list[str]


class PatternReport(BaseModel):
    """A message pattern (`<*>` where its lines differ), the sampled lines it covers, and its fields."""

    template: str
    rows: int = Field(description="sampled lines it covers")
    fields: list[FieldReport]


class FileReport(BaseModel):
    """What one input loaded as (or, in `InspectReport`, all inputs together)."""

    path: str | None = None
    format: str | None
    rows: int
    timestamp_parsed: int = Field(description="rows with a parsed timestamp")
    time_range: TimeRange | None
    severity_counts: dict[str, int] = Field(description="rows per severity, most severe first; `missing` last")
    severity_rules: dict[str, int] = Field(default_factory=dict, description="rows whose severity no line wrote, "
                                           "inferred by the format's rule (see `severity_rule`), per rule")
    year_assumed: int | bool | None = Field(None, description="the year given to dates written without one (True "
                                            "when several); None when every date wrote its year")
    columns: list[str]
    fields: list[NumberField] = Field(default_factory=list, description="numeric fields a statistic can be asked of")
    patterns: list[PatternReport] = Field(default_factory=list, description="message patterns and their fields")
    warnings: list[str]


class InspectReport(FileReport):
    """Per-file reports (`files`, only with several inputs) and totals at the top level."""

    files: list[FileReport] | None = None

    def to_json_dict(self) -> dict[str, Any]:
        """The `--json` shape: one file's keys, or totals plus `files` (without a top-level `path`)."""
        return self.model_dump(mode="json", exclude={"files"} if self.files is None else {"path"})


def _time_range(table: pa.Table) -> TimeRange | None:
    stamps = table.column("timestamp")
    if stamps.null_count == len(stamps):
        return None
    bounds = pc.min_max(stamps)
    return TimeRange(first=bounds["min"].as_py().isoformat(), last=bounds["max"].as_py().isoformat())


def _severity_counts(table: pa.Table) -> dict[str, int]:
    column = table.column("severity")
    counts = {row["values"]: row["counts"] for row in pc.value_counts(column).to_pylist()}
    ordered = {name: counts[name] for name in SEVERITIES if counts.get(name)}
    if column.null_count:
        ordered[MISSING] = column.null_count
    return ordered


def _severity_rules(table: pa.Table) -> dict[str, int]:
    if RULE_COLUMN not in table.column_names:
        return {}
    return {row["values"]: row["counts"] for row in pc.value_counts(table.column(RULE_COLUMN)).to_pylist()
            if row["values"] is not None}


def _file_report(table: pa.Table, info: dict[str, Any]) -> FileReport:
    stamps, sample = table.column("timestamp"), _sample(table)
    catalog = FieldCatalog.build(sample)
    return FileReport(
        path=info["path"],
        format=info["format"],
        rows=table.num_rows,
        timestamp_parsed=len(stamps) - stamps.null_count,
        time_range=_time_range(table),
        severity_counts=_severity_counts(table),
        severity_rules=_severity_rules(table),
        year_assumed=info.get("year_assumed"),
        columns=[c for c in table.column_names if c not in INTERNAL_COLUMNS],
        fields=_number_fields(table, sample, catalog),
        patterns=_patterns(catalog),
        warnings=info["warnings"],
    )


def _sample(table: pa.Table) -> list[str]:
    """About `SAMPLE_ROWS` messages spread evenly over the table (none missing), which its numeric fields and
    patterns are found in."""
    if "message" not in table.column_names:
        return []
    messages = table.column("message")
    taken = messages.take(pa.array(range(0, len(messages), max(1, len(messages) // SAMPLE_ROWS)))).drop_null()
    return [str(m) for m in taken.to_pylist()]


def _number_fields(table: pa.Table, sample: list[str], catalog: FieldCatalog) -> list[NumberField]:
    """The numeric columns, then the fields found in the `sample` of the messages and the `catalog` of their
    patterns' numbers, each with the rows carrying it."""
    found = [NumberField(name=name, type="column", unit="", rows=len(column) - column.null_count)
             for name, column in zip(table.column_names, table.columns)
             if name not in ("line", *INTERNAL_COLUMNS) and (pa.types.is_integer(column.type)
                                                             or pa.types.is_floating(column.type))]
    if not sample:
        return found
    messages = table.column("message").to_pandas()
    taken = {f.name.lower() for f in found}
    carried = with_catalogued(discover(sample), catalog)
    return found + [NumberField(name=f.name, type="message", unit=f.unit, rows=int(read(messages, f).notna().sum()))
                    for f in carried if f.name.lower() not in taken]


def _patterns(catalog: FieldCatalog) -> list[PatternReport]:
    """The patterns of the sampled messages that have fields, with their fields (see `logs.field_catalog`)."""
    return [PatternReport(template=p.template, rows=p.rows, fields=[
        FieldReport(name=f.name, type=f.type, unit=f.unit, examples=list(f.examples)) for f in p.fields])
        for p in catalog.patterns[:PATTERNS_LISTED]]


def _skipped_report(info: dict[str, Any]) -> FileReport:
    return FileReport(
        path=info["path"], format=None, rows=0, timestamp_parsed=0, time_range=None,
        severity_counts={}, columns=[], warnings=info["warnings"],
    )


def _severities(files: list[FileReport]) -> dict[str, Any]:
    """The files' severity counts, rows per inference rule and assumed year, summed."""
    counts = sum((Counter(f.severity_counts) for f in files), Counter())
    return {"severity_counts": {name: counts[name] for name in (*SEVERITIES, MISSING) if counts.get(name)},
            "severity_rules": dict(sum((Counter(f.severity_rules) for f in files), Counter())),
            "year_assumed": year_assumed([f.model_dump() for f in files])}


def _span(files: list[FileReport]) -> TimeRange | None:
    """From the earliest first time of the files to their latest last time."""
    ranges = [f.time_range for f in files if f.time_range]
    return TimeRange(first=min(r.first for r in ranges), last=max(r.last for r in ranges)) if ranges else None


def _totals(files: list[FileReport]) -> InspectReport:
    formats = sorted({f.format for f in files if f.format})
    return InspectReport(
        format=",".join(formats) or None,
        rows=sum(f.rows for f in files),
        timestamp_parsed=sum(f.timestamp_parsed for f in files),
        time_range=_span(files),
        **_severities(files),
        **_held(files),
        files=files,
    )


def _held(files: list[FileReport]) -> dict[str, Any]:
    """The files' columns and fields, each once, and all their warnings."""
    return {"columns": list(dict.fromkeys(c for f in files for c in f.columns)),
            "fields": _merged([field for f in files for field in f.fields]),
            "patterns": list({p.template: p for f in reversed(files) for p in f.patterns}.values())[::-1],
            "warnings": [w for f in files for w in f.warnings]}


def _merged(fields: list[NumberField]) -> list[NumberField]:
    """One entry per field name, its rows summed over the files."""
    out: dict[str, NumberField] = {}
    for field in fields:
        seen = out.get(field.name)
        out[field.name] = field if seen is None else seen.model_copy(update={"rows": seen.rows + field.rows})
    return list(out.values())


def inspect(paths: PathsArg, options: LoadOptions | None = None) -> InspectReport:
    """Load `paths` and summarise each input: format, rows, parsed timestamps, time range, severities."""
    loaded = load_tables(paths, options)
    by_path = iter(loaded.tables)
    files = [_file_report(next(by_path), info) if info["format"] else _skipped_report(info) for info in loaded.files]
    report = InspectReport(**files[0].model_dump()) if len(files) == 1 else _totals(files)
    report.warnings[:0] = loaded.notes
    return report
