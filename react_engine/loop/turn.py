"""The record of one turn while it runs: the planner's reply, then the action taken and what came of it, filled in
as the turn goes; when it ends, the step of its kind (`contract.record.Step`) that the run keeps."""

from __future__ import annotations

from typing import Any

from react_engine.contract.record import STEP, Step, StepBase, StepKind
from react_engine.tools.registry import ToolValue

_UNTAKEN = "the turn ended before an action was taken"


class Turn(StepBase):
    """One iteration as it runs: every field any kind of step has, set as the turn learns it."""

    kind: StepKind = "tool"
    value: Any = None
    result: ToolValue | None = None
    ok: bool = True
    error: str | None = None
    tool_ms: float = 0.0

    def stop(self, message: str | None) -> None:
        """The run ends in this turn, before its action is taken."""
        self.kind, self.ok, self.error = "stopped", False, message

    def step(self) -> Step:
        """The step this turn was, of its kind, with the fields that kind has (a turn still waiting for its action
        when it ended is a stopped one)."""
        data = {name: getattr(self, name) for name in self.model_fields_set | {"kind"}}
        if self.kind == "tool" and self.action is None:
            data |= {"kind": "stopped", "ok": False, "error": self.error or _UNTAKEN}
        return STEP.validate_python(data)
