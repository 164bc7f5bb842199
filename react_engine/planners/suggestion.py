"""The next action suggested to a model planner: the rules planner's own next reply, when it is worth copying."""

from __future__ import annotations

import json
from typing import Any

from react_engine.planners.base import ContextView, PlanRequest
from react_engine.planners.rules.planner import RulesPlanner

Suggestion = tuple[str, dict[str, Any]]


def suggest(view: ContextView) -> Suggestion | None:
    """What the rules planner would do next from `view`, as `(action, params)`: a tool call, or the final answer
    when it carries the value the tools computed (so a model that copies it states that value). None when the
    rules would stop without a value: a question they cannot map, steps that left their plan, a failed step."""
    reply = RulesPlanner().plan(PlanRequest(system="", prompt="", prompt_tokens=0, view=view))
    content = json.loads(reply.content)
    action, params = content["action"], content["params"]
    if action == "finalize_answer" and params.get("value") is None:
        return None
    return action, params
