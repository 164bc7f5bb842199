"""Run tracing with the OpenTelemetry SDK: one trace per question, one JSON file per run.

Each tracer owns a private `TracerProvider` (never the global one) with a `SimpleSpanProcessor`, so runs are
isolated and spans are exported as they end. When an OTLP endpoint is configured (`tracing.collector`), spans
also go to that collector. Tracing never breaks a run: failures become `tracer.warnings`.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from opentelemetry import trace
from opentelemetry.context import Context
from opentelemetry.sdk.resources import Resource as OtelResource
from opentelemetry.sdk.trace import ReadableSpan, SpanLimits, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter, SpanExportResult
from opentelemetry.trace import Span, Status, StatusCode

from react_engine.tracing.collector import collector_processor
from react_engine.tracing.otlp import (
    EventRecord,
    Resource,
    ResourceSpans,
    Scope,
    ScopeSpans,
    SpanRecord,
    StatusRecord,
    TraceRecord,
)
from react_engine.tracing.spans import SERVICE, SpanHandle, Tracer

try:
    _VERSION = version("react-engine")
except PackageNotFoundError:  # running from a source tree
    _VERSION = ""


def _attribute(value: Any) -> Any:
    """An OpenTelemetry-legal attribute value: primitives, homogeneous primitive lists, else JSON text."""
    if isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return list(value)
    return json.dumps(value, default=str, ensure_ascii=False)


def _attributes(attributes: dict[str, Any]) -> dict[str, Any]:
    return {k: _attribute(v) for k, v in attributes.items() if v is not None}


class _OtelSpanHandle(SpanHandle):
    def __init__(self, span: Span, tracer: OtelTracer) -> None:
        self._span = span
        self._tracer = tracer

    def set(self, **attributes: Any) -> None:
        with self._tracer.guard("set attributes"):
            self._span.set_attributes(_attributes(attributes))

    def event(self, name: str, **attributes: Any) -> None:
        with self._tracer.guard(f"add event {name!r}"):
            self._span.add_event(name, _attributes(attributes))


def _span_id(value: int) -> str:
    return format(value, "016x")


def _plain(attributes: Any) -> dict[str, Any]:
    """SDK attributes (sequences kept as tuples) as plain JSON-able values."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in (attributes or {}).items()}


def _record(span: ReadableSpan) -> SpanRecord:
    """An SDK span in the file's model."""
    status = span.status
    return SpanRecord(
        trace_id=format(span.context.trace_id, "032x"),
        span_id=_span_id(span.context.span_id),
        parent_span_id=_span_id(span.parent.span_id) if span.parent else "",
        name=span.name,
        kind=span.kind.value + 1,  # the SDK's INTERNAL is 0; OTLP's SPAN_KIND_INTERNAL is 1
        start_time_unix_nano=span.start_time or 0,
        end_time_unix_nano=span.end_time or 0,
        attributes=_plain(span.attributes),
        events=[EventRecord(name=e.name, time_unix_nano=e.timestamp, attributes=_plain(e.attributes))
                for e in span.events],
        status=StatusRecord(code={StatusCode.UNSET: 0, StatusCode.OK: 1, StatusCode.ERROR: 2}[status.status_code],
                            message=status.description or ""),
    )


class JsonFileExporter(SpanExporter):
    """Collects a run's spans and writes them as one OTLP-JSON file when a root span ends (and on shutdown).

    With `directory=None` nothing is written; the spans stay available through `record()`.
    """

    def __init__(self, directory: Path | None, warn: Callable[[str], None]) -> None:
        self.directory = directory
        self.path: Path | None = None
        self._warn = warn
        self._spans: list[SpanRecord] = []
        self._dirty = False
        self._failed = False

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        try:
            self._spans.extend(_record(s) for s in spans)
            self._dirty = True
            if any(s.parent is None for s in spans):
                self._write()
        except Exception as exc:  # the exporter must never break a run
            self._warn_once(f"trace not recorded: {type(exc).__name__}: {exc}")
            return SpanExportResult.FAILURE
        return SpanExportResult.SUCCESS

    def record(self) -> TraceRecord:
        """The spans collected so far as a trace document."""
        scope = ScopeSpans(scope=Scope(name="react_engine", version=_VERSION), spans=self._spans)
        resource = Resource(attributes={"service.name": SERVICE, "service.version": _VERSION})
        return TraceRecord(resource_spans=[ResourceSpans(resource=resource, scope_spans=[scope])],
                           path=str(self.path) if self.path else None)

    def _write(self) -> None:
        if self.directory is None or not self._dirty or self._failed or not self._spans:
            return
        tmp: str | None = None
        try:
            if self.path is None:
                self.directory.mkdir(parents=True, exist_ok=True)
                first = self._spans[0]
                started = datetime.fromtimestamp(first.start_time_unix_nano / 1e9, tz=UTC)
                self.path = self.directory / f"{started:%Y%m%dT%H%M%S}Z-{first.trace_id[:16]}.json"
            fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".trace-", suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(self.record().model_dump_json())
            os.replace(tmp, self.path)
            self._dirty = False
        except OSError as exc:
            if tmp is not None:  # e.g. a full disk: leave no partial file behind
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
            self.path = None
            self._warn_once(f"trace not written to {self.directory}: {exc.strerror or exc}: "
                            "pass --trace-dir with a writable directory, or --no-trace")

    def _warn_once(self, message: str) -> None:
        if not self._failed:
            self._failed = True
            self._warn(message)

    def shutdown(self) -> None:
        self._write()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        self._write()
        return True


class OtelTracer(Tracer):
    """A tracer backed by a private OpenTelemetry provider, exporting to one JSON file (or only to memory)."""

    recording = True

    def __init__(self, directory: str | Path | None) -> None:
        super().__init__()
        self.exporter = JsonFileExporter(Path(directory) if directory else None, self.warnings.append)
        # Prompts and replies are recorded whole, whatever OTEL_*_LIMIT says: replay needs them verbatim.
        unlimited = SpanLimits(max_attribute_length=SpanLimits.UNSET, max_span_attribute_length=SpanLimits.UNSET)
        self._provider = TracerProvider(resource=OtelResource.create({"service.name": SERVICE}), span_limits=unlimited)
        self._provider.add_span_processor(SimpleSpanProcessor(self.exporter))
        if (collector := collector_processor(self.warnings.append)) is not None:
            self._provider.add_span_processor(collector)
        self._tracer = self._provider.get_tracer("react_engine", _VERSION)
        self._stack: list[Span] = []
        self._closed = False

    @contextmanager
    def guard(self, what: str) -> Iterator[None]:
        """Turn any tracing failure into a warning."""
        try:
            yield
        except Exception as exc:
            self.warnings.append(f"tracing could not {what}: {type(exc).__name__}: {exc}")

    @contextmanager
    def span(self, name: str, /, **attributes: Any) -> Iterator[SpanHandle]:
        parent = trace.set_span_in_context(self._stack[-1]) if self._stack else Context()
        try:
            span = self._tracer.start_span(name, context=parent, attributes=_attributes(attributes))
        except Exception as exc:  # e.g. an attribute that cannot be serialised: record nothing, run on
            self.warnings.append(f"tracing could not start span {name!r}: {type(exc).__name__}: {exc}")
            yield SpanHandle()
            return
        self._stack.append(span)
        try:
            yield _OtelSpanHandle(span, self)
        except BaseException as exc:
            with self.guard("record the error"):
                span.record_exception(exc)
                span.set_status(Status(StatusCode.ERROR, f"{type(exc).__name__}: {exc}"))
            raise
        finally:
            self._stack.pop()
            span.end()

    def record(self) -> TraceRecord:
        """What this run recorded, without reading the file back."""
        return self.exporter.record()

    def close(self) -> str | None:
        if not self._closed:
            self._closed = True
            with self.guard("flush the trace"):
                self._provider.shutdown()
        return str(self.exporter.path) if self.exporter.path else None


def open_tracer(directory: str | Path | None) -> OtelTracer:
    """A tracer for one run writing its file under `directory` (None keeps the trace in memory only)."""
    return OtelTracer(directory)
