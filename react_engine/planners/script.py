"""A planner that replays raw reply strings in order, as if a model had sent them."""

from __future__ import annotations

import json
from pathlib import Path

from react_engine.contract.planner import Planner, PlannerReply, PlanRequest
from react_engine.errors import InputError, PlannerError


class ScriptPlanner(Planner):
    """Replies from a list: for tests, demos and reproductions of recorded runs."""

    name = "script"

    def __init__(self, replies: list[str], model: str | None = None) -> None:
        self.replies = list(replies)
        self.model = model
        self.requests: list[PlanRequest] = []

    @classmethod
    def from_file(cls, path: str | Path) -> ScriptPlanner:
        """Load a JSON array of reply strings (objects are accepted and serialised)."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise InputError(f"{path}: script file not found: give a JSON array of reply strings") from None
        except (OSError, ValueError) as exc:
            raise InputError(f"{path}: not a JSON array of reply strings ({exc}): fix the file") from None
        if not isinstance(data, list):
            raise InputError(f"{path}: expected a JSON array of reply strings, got {type(data).__name__}")
        return cls([r if isinstance(r, str) else json.dumps(r) for r in data])

    def plan(self, request: PlanRequest) -> PlannerReply:
        self.requests.append(request)
        if len(self.requests) > len(self.replies):
            raise PlannerError(f"the script has only {len(self.replies)} replies: add more or raise none")
        return PlannerReply(content=self.replies[len(self.requests) - 1], model=self.model, done_reason="stop")
