"""Opening an engine: build the planner, pass on its notice, and close the planner when done."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from react_engine.engine import Engine
from react_engine.planners.factory import PlannerSpec, make_planner
from react_engine.settings import Settings


@contextmanager
def open_engine(spec: PlannerSpec, settings: Settings | None = None, *,
                notify: Callable[[str], None] | None = None, **engine_options: Any) -> Iterator[Engine]:
    """An `Engine` with the planner `spec` asks for; its notice (e.g. the rules fallback) goes to `notify`.

    `engine_options` are passed to `Engine` (tracer_factory, approver, output_dir, on_step, tools).
    """
    planner, notice = make_planner(spec)
    try:
        if notice and notify:
            notify(notice)
        yield Engine(planner, settings, **engine_options)
    finally:
        planner.close()
