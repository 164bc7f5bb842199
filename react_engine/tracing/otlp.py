"""The trace file format: OTLP-JSON (`resourceSpans` / `scopeSpans` / `spans`), read and written by one model."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, PlainSerializer, ValidationError
from pydantic.alias_generators import to_camel

from react_engine.errors import InputError


def _encode_value(value: Any) -> dict[str, Any]:
    """One attribute value as an OTLP `AnyValue`."""
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value} if math.isfinite(value) else {"stringValue": str(value)}
    if isinstance(value, (list, tuple)):
        return {"arrayValue": {"values": [_encode_value(v) for v in value]}}
    return {"stringValue": str(value)}


def _decode_value(value: dict[str, Any]) -> Any:
    if "arrayValue" in value:
        return [_decode_value(v) for v in value["arrayValue"].get("values", [])]
    if "intValue" in value:
        return int(value["intValue"])
    for key in ("boolValue", "doubleValue", "stringValue"):
        if key in value:
            return value[key]
    raise ValueError(f"unsupported attribute value {value!r}")


def _decode_attributes(raw: Any) -> Any:
    if isinstance(raw, list):
        return {item["key"]: _decode_value(item["value"]) for item in raw}
    return raw


def _encode_attributes(attributes: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"key": k, "value": _encode_value(v)} for k, v in attributes.items()]


Attributes = Annotated[dict[str, Any], BeforeValidator(_decode_attributes), PlainSerializer(_encode_attributes)]
Nanos = Annotated[int, PlainSerializer(str)]  # OTLP-JSON writes 64-bit integers as strings


class _Model(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, serialize_by_alias=True)


class EventRecord(_Model):
    name: str
    time_unix_nano: Nanos
    attributes: Attributes = Field(default_factory=dict)


class StatusRecord(_Model):
    code: int = 0  # 0 unset, 1 ok, 2 error
    message: str = ""


class SpanRecord(_Model):
    trace_id: str
    span_id: str
    parent_span_id: str = ""
    name: str
    kind: int = 1  # SPAN_KIND_INTERNAL
    start_time_unix_nano: Nanos
    end_time_unix_nano: Nanos
    attributes: Attributes = Field(default_factory=dict)
    events: list[EventRecord] = Field(default_factory=list)
    status: StatusRecord = Field(default_factory=StatusRecord)

    @property
    def duration_ms(self) -> float:
        return (self.end_time_unix_nano - self.start_time_unix_nano) / 1e6

    def event(self, name: str) -> EventRecord | None:
        return next((e for e in self.events if e.name == name), None)


class Scope(_Model):
    name: str
    version: str = ""


class ScopeSpans(_Model):
    scope: Scope
    spans: list[SpanRecord] = Field(default_factory=list)


class Resource(_Model):
    attributes: Attributes = Field(default_factory=dict)


class ResourceSpans(_Model):
    resource: Resource = Field(default_factory=Resource)
    scope_spans: list[ScopeSpans] = Field(default_factory=list)


class TraceRecord(_Model):
    """One run's trace, as written to its JSON file."""

    resource_spans: list[ResourceSpans] = Field(default_factory=list)
    path: str | None = Field(None, exclude=True)

    @property
    def spans(self) -> list[SpanRecord]:
        """Every span, in start order."""
        found = [s for rs in self.resource_spans for ss in rs.scope_spans for s in ss.spans]
        return sorted(found, key=lambda s: s.start_time_unix_nano)

    @property
    def root(self) -> SpanRecord:
        """The `ask` span (the one without a parent)."""
        roots = [s for s in self.spans if not s.parent_span_id]
        if not roots:
            raise InputError(f"{self.path or 'trace'}: the trace has no root span: it is incomplete")
        return roots[0]

    def children(self, span: SpanRecord, name: str | None = None) -> list[SpanRecord]:
        """Direct children of `span` in start order, optionally only those called `name`."""
        return [s for s in self.spans if s.parent_span_id == span.span_id and (name is None or s.name == name)]

    def descendants(self, name: str) -> list[SpanRecord]:
        """All spans called `name`, in start order."""
        return [s for s in self.spans if s.name == name]


def json_attribute(value: Any) -> Any:
    """An attribute recorded as JSON text (params, value), decoded; other values as they are."""
    try:
        return json.loads(value)
    except (TypeError, ValueError):
        return value


def read_trace(path: str | Path) -> TraceRecord:
    """Load a trace file; a missing or malformed file is an `InputError` naming the path."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        record = TraceRecord.model_validate(data)
    except FileNotFoundError:
        raise InputError(f"{path}: trace file not found: give a file from the trace directory") from None
    except (OSError, ValueError, ValidationError, KeyError, TypeError) as exc:
        reason = str(exc).splitlines()[0]
        raise InputError(f"{path}: not a react-engine trace file ({reason}): give a file written by a run") from None
    if not record.spans:
        raise InputError(f"{path}: the trace holds no spans: the run did not record anything")
    record.path = str(path)
    return record
