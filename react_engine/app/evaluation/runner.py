"""Running a suite: each case through an engine, scored; or replaying the replies a report recorded."""

from __future__ import annotations

from collections.abc import Callable

from react_engine.app.evaluation.report import Report
from react_engine.app.evaluation.scoring import Scenario, score, skipped
from react_engine.app.evaluation.suite import Case, Suite
from react_engine.logs.options import LoadOptions
from react_engine.loop.engine import Engine
from react_engine.loop.frames import FrameCache
from react_engine.planners.script import ScriptPlanner

EngineFor = Callable[[Case], Engine]


def run_suite(suite: Suite, engine_for: EngineFor, *, frames: FrameCache | None = None,
              on_case: Callable[[Scenario], None] | None = None) -> list[Scenario]:
    """Ask every case with the engine `engine_for(case)` gives, and score it; skip those missing what they require."""
    frames = frames or FrameCache(LoadOptions(year=suite.year))
    scenarios = []
    for case in suite.cases:
        if missing := case.missing:
            scenarios.append(skipped(case, missing))
        else:
            result = engine_for(case).ask(case.question, case.logs, frame=frames.get(case.logs), now=case.now,
                                          load_options=frames.options)
            scenarios.append(score(case, result))
        if on_case:
            on_case(scenarios[-1])
    return scenarios


def replay_engines(recorded: Report, make_engine: Callable[[ScriptPlanner], Engine]) -> EngineFor:
    """Engines whose script planner sends, for each case, the replies recorded for it in `recorded`.

    A case without a recording gets an empty script, so it fails visibly instead of being skipped.
    """
    replies = {s.id: s.replies for s in recorded.scenarios}

    def engine_for(case: Case) -> Engine:
        planner = ScriptPlanner(replies.get(case.id, []), model=recorded.model)
        planner.deterministic = recorded.deterministic  # so the engine treats it as it treated the original
        return make_engine(planner)

    return engine_for
