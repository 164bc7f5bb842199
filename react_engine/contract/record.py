"""The typed outcome of a run: steps, statistics, evidence and one closed stop reason."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal, Self

from pydantic import BaseModel, Field, PrivateAttr, TypeAdapter, model_validator

from react_engine.contract.planner import ModelUsage, RetryRecord
from react_engine.question import Interpretation
from react_engine.rows.snippets import json_text
from react_engine.tools.registry import ToolValue, read_result

StopReason = Literal[
    "stop", "tool_limit", "time_limit", "length", "insufficient_context", "error", "interrupted", "approval_denied",
    "approval_timeout", "cancelled",
]
STOP_REASONS: tuple[str, ...] = StopReason.__args__  # type: ignore[attr-defined]

StepKind = Literal["tool", "invalid_reply", "nudge", "repeat", "denied", "final", "stopped"]


class StepBase(BaseModel):
    """What every step records: its iteration and timings, the planner's reply and the prompt it read, the action
    it named (with its parameters) and what came of it in a line. A key no kind of step has is left out when one
    is read (a run recorded with every step's fields)."""

    iteration: int
    action: str | None = None
    params: dict[str, Any] = Field(default_factory=dict)
    observation: str = ""
    duration_ms: float = 0.0  # the whole iteration
    llm_ms: float = 0.0
    prompt_tokens: int = 0  # the engine's estimate of the prompt it built
    rows_in: int | None = None
    rows_out: int | None = None
    reply: str | None = None  # the raw planner reply, for replay
    thinking: str | None = None
    done_reason: str | None = None
    usage: ModelUsage = Field(default_factory=ModelUsage)  # what the model server reported, summed over requests
    retries: list[RetryRecord] = Field(default_factory=list)
    trimmed: list[str] = Field(default_factory=list)  # prompt sections dropped to fit the budget
    ignored_actions: list[str] = Field(default_factory=list)  # other actions in the reply, not taken
    reasoning: str = ""  # why the planner took the action, in its own words

    def reply_text(self) -> str | None:
        """The reply as text: a model's own, or the typed action a planner handed over, in the reply contract."""
        if self.reply is not None or self.action is None:
            return self.reply
        return json_text({"reasoning": self.reasoning, "action": self.action, "params": self.params})


class ActionStep(StepBase):
    """A tool call: run (its result, or the error it failed with), a repeat of an earlier call (whose result it
    carries) or denied by the user."""

    kind: Literal["tool", "repeat", "denied"] = "tool"
    action: str
    value: Any = None  # the tool's result as recorded (JSON)
    result: ToolValue | None = Field(None, exclude=True)  # the tool's result, typed (read from `value` on loading)
    ok: bool = True
    error: str | None = None
    tool_ms: float = 0.0

    @model_validator(mode="after")
    def _typed(self) -> Self:
        if self.result is None and self.ok and self.kind != "denied":
            self.result = read_result(self.action, self.value)
        return self


class FinalStep(StepBase):
    """The final answer (`observation`) and the value it rests on."""

    kind: Literal["final"] = "final"
    action: Literal["finalize_answer"] = "finalize_answer"
    value: Any = None
    ok: Literal[True] = True
    error: None = None


class InvalidStep(StepBase):
    """A reply that named no action to take; a `nudge` when it only said what it would do, or gave a final answer
    sent back (`observation`, `value`) to be checked again."""

    kind: Literal["invalid_reply", "nudge"] = "invalid_reply"
    value: Any = None
    ok: Literal[False] = False
    error: str | None = None


class StoppedStep(StepBase):
    """A turn the run ended in before its action was taken (a limit, an approval not given in time, a cancel)."""

    kind: Literal["stopped"] = "stopped"
    value: None = None
    ok: Literal[False] = False
    error: str | None = None  # why the run stopped


Step = Annotated[ActionStep | FinalStep | InvalidStep | StoppedStep, Field(discriminator="kind")]
STEP = TypeAdapter(Step)


def last_value(steps: Sequence[Step]) -> ActionStep | None:
    """The last step whose tool computed a value."""
    return next((s for s in reversed(steps) if isinstance(s, ActionStep) and s.kind == "tool" and s.ok
                 and s.value is not None), None)


class Evidence(BaseModel):
    source: str
    line: int
    text: str


class Statistics(BaseModel):
    iterations: int = 0
    llm_calls: int = 0
    tool_calls: int = 0
    prompt_tokens_max: int = 0
    prompt_tokens_total: int = 0
    completion_tokens_total: int = 0
    execution_time_seconds: float = 0.0
    llm_duration_seconds: float = 0.0
    tool_duration_seconds: float = 0.0
    retries: int = 0
    token_estimate_ratio: float | None = None  # model-counted / estimated prompt tokens (calibrates the estimator)
    rows_loaded: int = 0
    errors_by_type: dict[str, int] = Field(default_factory=dict)


class RunResult(BaseModel):
    """What `Engine.ask` returns and `ask --json` prints."""

    query: str
    answer: str
    value: Any = None
    verified: bool = False
    partial: bool = False
    stop_reason: StopReason
    message: str | None = None  # why the run stopped, with its fix, for unusual stops
    error_type: str | None = None  # class of the error behind stop_reason "error" (e.g. PlannerConnectionError)
    now: str | None = None  # the time anchor used for relative times
    steps: list[Step] = Field(default_factory=list)
    statistics: Statistics = Field(default_factory=Statistics)
    evidence: list[Evidence] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    skipped: list[str] = Field(default_factory=list)  # inputs left out whole as binary: the answer does not cover them
    interpretation: Interpretation | None = None  # what the question was read as
    planner: str
    model: str | None = None
    trace_file: str | None = None
    _rows: Any = PrivateAttr(None)  # the current rows when the run ended (a DataFrame; not serialised)

    @property
    def rows(self) -> Any:
        """The rows the run had narrowed to when it ended (a DataFrame), or None when nothing was loaded."""
        return self._rows

    @property
    def answered(self) -> bool:
        """Finished normally with at least one tool result behind the answer, which answers all of the question
        (not `partial`) and is verified or carries a value: a refusal is not answered (the CLI's exit code 0)."""
        return self.stop_reason == "stop" and not self.partial and (self.verified or self.value is not None) and \
            any(s.kind == "tool" and s.ok for s in self.steps)

    @property
    def refused(self) -> bool:
        """Finished normally without an answer: the planner declined or could not map the question."""
        return self.stop_reason == "stop" and not self.partial and not self.answered


def token_ratio(steps: list[Step]) -> float | None:
    """Prompt tokens the model counted over those estimated, over the steps whose model counted them."""
    counted = [(s.usage.prompt_tokens_per_request, s.prompt_tokens) for s in steps if s.usage.prompt_tokens_per_request]
    return round(sum(c for c, _ in counted) / sum(e for _, e in counted), 3) if counted else None
