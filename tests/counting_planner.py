"""A small deterministic planner for batch, eval and replay tests: counts rows, optionally after a search."""

from __future__ import annotations

import json
import time

from react_engine.contract.planner import Planner, PlannerReply, PlanRequest


def reply(action: str, **params: object) -> str:
    return json.dumps({"reasoning": "test", "action": action, "params": params})


class CountingPlanner(Planner):
    """Searches for a quoted word when the question has one, counts, and finalizes with the counted value.

    `fail` maps a question to an exception raised on that question's first `fail_times` calls; `hang` makes
    that question block (to simulate a crash from outside).
    """

    name = "counting"

    def __init__(self, fail: dict[str, BaseException] | None = None, fail_times: int = 1,
                 hang: str | None = None) -> None:
        self.fail = fail or {}
        self.fail_times = fail_times
        self.hang = hang
        self.calls: dict[str, int] = {}

    def plan(self, request: PlanRequest) -> PlannerReply:
        question = request.view.question
        self.calls[question] = self.calls.get(question, 0) + 1
        if question == self.hang:
            time.sleep(3600)
        if question in self.fail and self.calls[question] <= self.fail_times:
            raise self.fail[question]
        history = request.view.history
        if not history and '"' in question:
            return PlannerReply(content=reply("search_logs", value=question.split('"')[1]))
        if not history or history[-1].action != "get_log_count":
            return PlannerReply(content=reply("get_log_count"))
        count = history[-1].value
        return PlannerReply(content=reply("finalize_answer", answer=f"There are {count} lines.", value=count))

