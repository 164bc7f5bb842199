"""Sending spans to an OpenTelemetry collector as well as to the trace file, when the standard variables say so.

`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (a full URL, e.g. `http://127.0.0.1:4318/v1/traces`) or
`OTEL_EXPORTER_OTLP_ENDPOINT` (a base URL; `/v1/traces` is appended) turn it on; headers, timeout, compression and
certificates follow the other `OTEL_EXPORTER_OTLP_*` variables. The exporter (http/protobuf) is an optional
dependency, imported only when an endpoint is set: `pip install 'react-engine[otlp]'`. Spans are sent in batches
while the run goes on; the last batch is waited for FLUSH_SECONDS at most when the run ends, whatever the
exporter's own timeout, so a collector that hangs delays the answer that long (with a warning), not for minutes.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from typing import Any

from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanExportResult

from react_engine.rows.bounded import Overdue, within

ENDPOINT_VARIABLES = ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT")
TIMEOUT_VARIABLES = ("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "OTEL_EXPORTER_OTLP_TIMEOUT")
DEFAULT_TIMEOUT_S = 3.0  # a collector that is down must not hold every run for the SDK's default 10 s
FLUSH_SECONDS = 3.0


class _Reporting(SpanExporter):
    """Delegates to the OTLP exporter and turns its failures into one warning instead of log noise."""

    def __init__(self, exporter: SpanExporter, warn: Callable[[str], None]) -> None:
        self._exporter = exporter
        self._warn = warn
        self._warned = False

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        try:
            result = self._exporter.export(spans)
        except Exception as exc:  # an exporter must never break a run
            result = SpanExportResult.FAILURE
            reason = f"{type(exc).__name__}: {exc}"
        else:
            reason = "the collector did not accept the spans"
        if result is not SpanExportResult.SUCCESS and not self._warned:
            self._warned = True
            self._warn(f"spans not sent to the OTLP collector ({reason}): check {' / '.join(ENDPOINT_VARIABLES)}")
        return result

    def shutdown(self) -> None:
        self._exporter.shutdown()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return self._exporter.force_flush(timeout_millis)


class _BoundedBatch(BatchSpanProcessor):
    """Batches spans for the collector; its shutdown (the last export) is given up after FLUSH_SECONDS."""

    def __init__(self, exporter: SpanExporter, warn: Callable[[str], None]) -> None:
        super().__init__(exporter)
        self._warn = warn

    def shutdown(self) -> None:
        try:
            within(super().shutdown, FLUSH_SECONDS, "otlp-flush")
        except Overdue:
            self._warn(f"spans not sent to the OTLP collector (it did not answer within {FLUSH_SECONDS:g}s): "
                       f"check {' / '.join(ENDPOINT_VARIABLES)}")


def collector_processor(warn: Callable[[str], None]) -> BatchSpanProcessor | None:
    """A processor sending spans to the OTLP collector when an endpoint variable is set, else None."""
    exporter = collector_exporter(warn)
    return _BoundedBatch(exporter, warn) if exporter is not None else None


def collector_exporter(warn: Callable[[str], None]) -> SpanExporter | None:
    """An OTLP http/protobuf exporter when an endpoint variable is set, else None (a missing package warns)."""
    if not any(os.environ.get(name) for name in ENDPOINT_VARIABLES):
        return None
    try:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    except ImportError:
        warn("OTEL_EXPORTER_OTLP_ENDPOINT is set but the OTLP exporter is not installed: "
             "pip install 'react-engine[otlp]'")
        return None
    logging.getLogger("opentelemetry.exporter.otlp").setLevel(logging.CRITICAL)  # failures become our warning
    options: dict[str, Any] = {}
    if not any(os.environ.get(name) for name in TIMEOUT_VARIABLES):
        options["timeout"] = DEFAULT_TIMEOUT_S
    return _Reporting(OTLPSpanExporter(**options), warn)
