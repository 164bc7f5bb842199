"""The record of one turn while it runs: the planner's reply, then the action taken and what came of it, filled in
as the turn goes; when it ends, the step of its kind (`contract.record.Step`) that the run keeps."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from react_engine.contract.planner import ModelUsage, RetryRecord
from react_engine.contract.record import STEP, Step, StepKind
from react_engine.tools.registry import ToolValue

_UNTAKEN = "the turn ended before an action was taken"


class Turn(BaseModel):
    """One iteration as it runs: every field any kind of step has, set as the turn learns it."""

    iteration: int
    kind: StepKind = "tool"
    action: str | None = None
    params: dict[str, Any] = Field(default_factory=dict)
    observation: str = ""
    value: Any = None
    result: ToolValue | None = None
    ok: bool = True
    error: str | None = None
    duration_ms: float = 0.0
    tool_ms: float = 0.0
    llm_ms: float = 0.0
    prompt_tokens: int = 0
    rows_in: int | None = None
    rows_out: int | None = None
    reply: str | None = None
    thinking: str | None = None
    done_reason: str | None = None
    usage: ModelUsage = Field(default_factory=ModelUsage)
    retries: list[RetryRecord] = Field(default_factory=list)
    trimmed: list[str] = Field(default_factory=list)
    ignored_actions: list[str] = Field(default_factory=list)
    reasoning: str = ""

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
