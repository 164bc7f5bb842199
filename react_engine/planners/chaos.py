"""A planner that damages a share of another planner's replies the way small local models do.

Used to measure how well the engine recovers: wrapped or damaged JSON, variant shapes, intentions without an
action, repeated calls, invented tools and missing params. Deterministic for a given seed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any

from react_engine.contract.planner import Planner, PlannerReply, PlanRequest
from react_engine.tools import REGISTRY

Corruption = Callable[[dict[str, Any], "ChaosPlanner"], str]

_INVENTED = ("grep", "run_query", "count_rows", "search", "python", "analyze_logs")


def _fence(obj: dict[str, Any], _: ChaosPlanner) -> str:
    return f"```json\n{json.dumps(obj, indent=2)}\n```"


def _prose(obj: dict[str, Any], _: ChaosPlanner) -> str:
    return f"Sure! Here is the next step:\n{json.dumps(obj)}\nLet me know if you need anything else."


def _think(obj: dict[str, Any], _: ChaosPlanner) -> str:
    return f"<think>\nThe user asks something about the logs. I should call {obj['action']}.\n</think>\n" \
           + json.dumps(obj)


def _trailing_commas(obj: dict[str, Any], _: ChaosPlanner) -> str:
    params = json.dumps(obj["params"])
    params = params[:-1] + ",}" if obj["params"] else params
    return f'{{"reasoning": {json.dumps(obj["reasoning"])}, "action": "{obj["action"]}", "params": {params},}}'


def _single_quoted(value: Any) -> str:
    """Python-style literal text: strings in single quotes (where they hold none), JSON for the rest."""
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_single_quoted(k)}: {_single_quoted(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_single_quoted(v) for v in value) + "]"
    return json.dumps(value)


def _single_quotes(obj: dict[str, Any], _: ChaosPlanner) -> str:
    return _single_quoted(obj)


def _truncated(obj: dict[str, Any], _: ChaosPlanner) -> str:
    return json.dumps(obj).rstrip("}")


def _tool_arguments(obj: dict[str, Any], _: ChaosPlanner) -> str:
    return json.dumps({"tool": obj["action"], "arguments": obj["params"]})


def _name_parameters(obj: dict[str, Any], _: ChaosPlanner) -> str:
    return json.dumps({"thought": obj["reasoning"], "name": obj["action"], "parameters": obj["params"]})


def _intent(obj: dict[str, Any], _: ChaosPlanner) -> str:
    return f"I'll use {obj['action'].replace('_', ' ')} to look into this."


def _repeat(obj: dict[str, Any], chaos: ChaosPlanner) -> str:
    return chaos.previous or _intent(obj, chaos)


def _unknown_tool(obj: dict[str, Any], chaos: ChaosPlanner) -> str:
    return json.dumps({**obj, "action": chaos.random.choice(_INVENTED)})


def _drop_param(obj: dict[str, Any], chaos: ChaosPlanner) -> str:
    tool = REGISTRY.get(obj["action"])
    required = [n for n, f in tool.params.model_fields.items() if f.is_required()] if tool else []
    if not required:
        return _unknown_tool(obj, chaos)
    params = {k: v for k, v in obj["params"].items() if k != chaos.random.choice(required)}
    return json.dumps({**obj, "params": params})


CORRUPTIONS: dict[str, Corruption] = {
    "fence": _fence, "prose": _prose, "think": _think, "trailing_commas": _trailing_commas,
    "single_quotes": _single_quotes, "truncated": _truncated, "tool_arguments": _tool_arguments,
    "name_parameters": _name_parameters, "intent": _intent, "repeat": _repeat, "unknown_tool": _unknown_tool,
    "drop_param": _drop_param,
}


class ChaosPlanner(Planner):
    """Wraps `inner`; each reply is damaged with probability `rate` by one of `kinds` (default: every
    corruption), chosen with a random generator seeded with `seed`."""

    name = "chaos"

    def __init__(self, inner: Planner, rate: float, seed: int, kinds: Sequence[str] | None = None) -> None:
        if not 0 <= rate <= 1:
            raise ValueError(f"rate must be between 0 and 1, got {rate}")
        unknown = set(kinds or ()) - set(CORRUPTIONS)
        if unknown:
            raise ValueError(f"unknown corruptions {sorted(unknown)}; known: {', '.join(CORRUPTIONS)}")
        self.inner, self.rate = inner, rate
        self.kinds = sorted(kinds or CORRUPTIONS)
        self.random = random.Random(seed)
        self.previous: str | None = None  # the inner planner's previous reply, for repeats
        self.applied: list[str | None] = []  # the corruption applied to each reply (None: sent as it was)
        self.model, self.context_tokens, self.uses_schema = inner.model, inner.context_tokens, inner.uses_schema
        self.reads_prompt = inner.reads_prompt

    def plan(self, request: PlanRequest) -> PlannerReply:
        reply = self.inner.plan(request)
        kind = self.random.choice(self.kinds) if self.random.random() < self.rate else None
        content = reply.text()
        if kind is not None:
            try:
                obj = json.loads(content)
                content = CORRUPTIONS[kind](obj, self)
            except (ValueError, KeyError, TypeError):
                kind = None  # not a contract-shaped reply: nothing to damage
        self.previous = reply.text()
        self.applied.append(kind)
        if kind is None:
            return reply
        return reply.model_copy(update={"content": content, "action": None})  # damaged text, read as a model's

    def close(self) -> None:
        self.inner.close()
