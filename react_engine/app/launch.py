"""Opening an engine: build the planner, pass on its notice, and close the planner when done."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from react_engine.loop.engine import Engine
from react_engine.planners.factory import (
    PlannerSpec,
    fallback_if_unreachable,
    make_advisor,
    make_fallback,
    make_planner,
)
from react_engine.settings import Settings


@contextmanager
def open_engine(spec: PlannerSpec, settings: Settings | None = None, *,
                notify: Callable[[str], None] | None = None, **engine_options: Any) -> Iterator[Engine]:
    """An `Engine` with the planner `spec` asks for (and, for a model planner, the rules planner to finish a run
    that ends unverified); its notice (e.g. the rules planner instead of an absent model) goes to `notify`.

    `engine_options` are passed to `Engine` (tracer_factory, approver, output_dir, on_step, tools).
    """
    planner, notice = make_planner(spec)
    try:
        if notice and notify:
            notify(notice)
        yield Engine(planner, settings, fallback=make_fallback(spec, planner), advisor=make_advisor(),
                     fallback_if_unreachable=fallback_if_unreachable(spec), **engine_options)
    finally:
        planner.close()
