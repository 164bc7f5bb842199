"""Run traces: recorded with OpenTelemetry, written as one OTLP-JSON file per run, read back for show and replay.

The base tracer is imported at once; the OpenTelemetry tracer and the trace file models only when used.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from react_engine.tracing.spans import NULL_TRACER, SpanHandle, Tracer, default_trace_dir

if TYPE_CHECKING:
    from react_engine.tracing.otlp import EventRecord, SpanRecord, TraceRecord, read_trace
    from react_engine.tracing.tracer import OtelTracer, open_tracer

__all__ = [
    "NULL_TRACER", "EventRecord", "OtelTracer", "SpanHandle", "SpanRecord", "TraceRecord", "Tracer",
    "default_trace_dir", "open_tracer", "read_trace",
]
_HOMES = {
    "EventRecord": "otlp", "SpanRecord": "otlp", "TraceRecord": "otlp", "read_trace": "otlp",
    "OtelTracer": "tracer", "open_tracer": "tracer",
}


def __getattr__(name: str) -> Any:
    """Import OpenTelemetry and the trace models on first use."""
    if name in _HOMES:
        return getattr(import_module(f"react_engine.tracing.{_HOMES[name]}"), name)
    raise AttributeError(f"module 'react_engine.tracing' has no attribute {name!r}")
