"""Run traces: recorded with OpenTelemetry, written as one OTLP-JSON file per run, read back for show and replay."""

from react_engine.tracing.otlp import EventRecord, SpanRecord, TraceRecord, read_trace
from react_engine.tracing.tracer import (
    NULL_TRACER,
    OtelTracer,
    SpanHandle,
    Tracer,
    default_trace_dir,
    open_tracer,
)

__all__ = [
    "NULL_TRACER", "EventRecord", "OtelTracer", "SpanHandle", "SpanRecord", "TraceRecord", "Tracer",
    "default_trace_dir", "open_tracer", "read_trace",
]
