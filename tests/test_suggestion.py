"""The suggestion a model planner gets: the rules planner's next reply, a final answer only with a computed value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from react_engine import Engine, Settings
from react_engine.app.evaluation.runner import run_suite
from react_engine.app.evaluation.suite import load_suite
from react_engine.contract.planner import HistoryItem, Planner, PlannerReply, PlanRequest
from react_engine.logs import LoadOptions, load
from react_engine.loop.context import SUGGESTED
from react_engine.loop.state import RunState
from react_engine.planners.rules import RulesPlanner

ROOT = Path(__file__).resolve().parents[1]
SYSLOG = ROOT / "sample_logs" / "syslog" / "messages"


class Copying(Planner):
    """A model-like planner that sends the replies in `first`, then the prompt's suggested reply when there is one,
    else `fallback`."""

    name, calls_model = "copying", True

    def __init__(self, first: list[dict] | None = None, fallback: dict | None = None) -> None:
        self.first = list(first or [])
        self.fallback = fallback or {"action": "finalize_answer", "params": {"answer": "I cannot tell."}}
        self.prompts: list[str] = []

    def plan(self, request: PlanRequest) -> PlannerReply:
        self.prompts.append(request.prompt)
        lines = request.prompt.splitlines()
        suggested = json.loads(lines[lines.index(SUGGESTED) + 1]) if SUGGESTED in lines else None
        reply = self.first.pop(0) if self.first else suggested or self.fallback
        return PlannerReply(content=json.dumps(reply))


def test_a_model_that_copies_each_suggested_reply_answers_the_suite_as_the_rules_do() -> None:
    suite = load_suite(ROOT / "evals" / "sample_suite.yaml")
    suite.cases = [c for c in suite.cases[::5] if not c.id.startswith("bad-")]
    scenarios = run_suite(suite, lambda case: Engine(Copying(), Settings(), advisor=RulesPlanner()))
    assert len(scenarios) >= 10
    assert [s.id for s in scenarios if not (s.passed and s.verified)] == []


def _view(question: str, history: list[HistoryItem]):
    state = RunState(question=question, frame=load([str(SYSLOG)], LoadOptions(year=2026, use_cache=False)),
                     now=None)  # fmt: skip
    view = state.view(len(history) + 1, 10, 3)
    view.history = history
    return view


def test_the_plan_done_the_suggestion_is_the_final_answer_with_the_computed_value() -> None:
    done = HistoryItem(iteration=1, action="get_log_count", params={}, summary="1,234 rows", value=1234)
    action, params = RulesPlanner().suggest(_view("How many log lines are there?", [done]))
    assert action == "finalize_answer" and params["value"] == 1234 and "1,234" in params["answer"]


@pytest.mark.parametrize("question,history", [
    ("Why did the giraffes leave?", []),  # the rules cannot map it: they would answer without a value
    ("How many log lines are there?", [HistoryItem(iteration=1, action="search_logs", params={"value": "x"})]),
])  # fmt: skip
def test_no_suggestion_where_the_rules_would_stop_without_a_value(question: str, history) -> None:
    assert RulesPlanner().suggest(_view(question, history)) is None


def test_a_model_that_leaves_the_plan_is_judged_on_what_it_did() -> None:
    planner = Copying([{"action": "search_logs", "params": {"value": "kernel"}}],
                      {"action": "finalize_answer", "params": {"answer": "There were 42 errors.", "value": 42}})
    result = Engine(planner, Settings(), advisor=RulesPlanner()).ask("How many error lines are there?", [str(SYSLOG)],
                                             load_options=LoadOptions(use_cache=False))  # fmt: skip
    assert SUGGESTED in planner.prompts[0] and "Example:" in planner.prompts[1]  # off the plan: none
    assert result.value == 42 and not result.verified
