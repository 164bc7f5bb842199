"""What the engine records a run through: a tracer of spans. These base classes record nothing.

They import nothing heavy, so the engine loads without OpenTelemetry; `tracer.OtelTracer` records for real.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir

SERVICE = "react-engine"


def default_trace_dir() -> Path:
    """`$XDG_DATA_HOME/react-engine/traces` (the platform's user data dir)."""
    return Path(user_data_dir(SERVICE)) / "traces"


class SpanHandle:
    """A span being recorded: attributes and events can be added until it ends. This one drops them."""

    def set(self, **attributes: Any) -> None:
        """Add attributes to the span."""

    def event(self, name: str, **attributes: Any) -> None:
        """Add a timestamped event (e.g. the raw prompt or reply)."""


class Tracer:
    """Records one trace per run; a tracer never raises into the run. This base class records nothing."""

    warnings: list[str]
    recording = False  # whether spans are kept: attributes that cost work to compute are skipped when not

    def __init__(self) -> None:
        self.warnings = []

    @contextmanager
    def span(self, name: str, /, **attributes: Any) -> Iterator[SpanHandle]:
        yield SpanHandle()

    def close(self) -> str | None:
        """Flush and return the path of the trace file written, if any."""
        return None


NULL_TRACER = Tracer()


class NotedTracer(Tracer):
    """`tracer` with `extra` attributes on every span named `root` (a run's `ask`), e.g. what a chat question
    follows."""

    def __init__(self, tracer: Tracer, root: str, **extra: Any) -> None:
        super().__init__()
        self.tracer, self.root, self.extra = tracer, root, extra
        self.warnings, self.recording = tracer.warnings, tracer.recording

    @contextmanager
    def span(self, name: str, /, **attributes: Any) -> Iterator[SpanHandle]:
        with self.tracer.span(name, **attributes, **(self.extra if name == self.root else {})) as handle:
            yield handle

    def close(self) -> str | None:
        return self.tracer.close()
