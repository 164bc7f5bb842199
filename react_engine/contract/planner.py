"""The planner interface: one method that turns the curated prompt into one raw reply."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, Self, TypeVar, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, model_validator

from react_engine.contract.actions import Action, action_text
from react_engine.question.vocabulary import Vocabulary
from react_engine.tools.registry import ToolValue, read_result

if TYPE_CHECKING:
    from react_engine.question import Interpretation

DEFAULT_MODEL = "qwen3:4b"  # the Ollama model asked when none is named
Suggestion = tuple[str, dict[str, Any]]  # a suggested next reply: (action, params)
_R = TypeVar("_R", bound=ToolValue)


class HistoryItem(BaseModel):
    """One earlier step as the planner sees it."""

    iteration: int
    action: str
    params: dict[str, Any] = Field(default_factory=dict)
    summary: str = ""
    ok: bool = True
    value: Any = None  # the tool's result as recorded (JSON)
    result: ToolValue | None = Field(None, exclude=True)  # the same, typed (read from `value` when not given)
    kind: str = "tool"  # the step kind: tool, invalid_reply, nudge, repeat, denied or final

    @model_validator(mode="after")
    def _typed(self) -> Self:
        if self.result is None and self.ok and self.kind in ("tool", "repeat"):
            self.result = read_result(self.action, self.value)
        return self


def latest(history: Sequence[HistoryItem], kind: type[_R]) -> tuple[HistoryItem, _R] | None:
    """The latest step whose result is a `kind`, and that result (None when no step computed one)."""
    return next(((h, h.result) for h in reversed(history) if isinstance(h.result, kind)), None)


class EntitySummary(BaseModel):
    type: str
    count: int
    unique: int
    top: list[tuple[str, int]] = Field(default_factory=list)


class ContextView(BaseModel):
    """Everything the prompt is built from, in structured form (the rules planner reads this directly)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    question: str
    iteration: int
    max_iterations: int
    now: str | None
    total_rows: int
    row_count: int
    columns: list[str]
    samples: list[str] = Field(default_factory=list)
    severity_mix: dict[str, int] = Field(default_factory=dict)
    time_range: tuple[str | None, str | None] = (None, None)
    top_hosts: list[tuple[str, int]] = Field(default_factory=list)
    top_components: list[tuple[str, int]] = Field(default_factory=list)
    history: list[HistoryItem] = Field(default_factory=list)
    entities: list[EntitySummary] = Field(default_factory=list)
    feedback: str | None = None  # a re-ask, nudge or empty-result hint for this turn
    known_values: dict[str, list[str]] = Field(default_factory=dict)  # distinct hosts/components (not in prompt)
    vocabulary: Vocabulary | None = Field(None, exclude=True)  # what the loaded rows contain (not in prompt)
    notes: str | None = None  # the question notes: what the question was read as, and a suggested next action
    suggestion: Suggestion | None = None  # that suggested next action (the prompt's example)


@runtime_checkable
class Advisor(Protocol):
    """Reads the question for the engine: what it asks, and the next reply worth suggesting to a model planner."""

    def interpret(self, view: ContextView) -> Interpretation:
        """What the question was read as (the result's interpretation, the prompt's question notes)."""

    def suggest(self, view: ContextView) -> Suggestion | None:
        """The next reply from `view` worth copying, as `(action, params)`; None when there is none."""


class PlanRequest(BaseModel):
    """What the engine hands the planner on each turn."""

    system: str
    prompt: str
    prompt_tokens: int
    view: ContextView
    tools: list[str] = Field(default_factory=list)  # the tools offered this turn (empty: all registered)
    reply_schema: dict[str, Any] | None = None  # the reply schema for exactly those tools (None: the registry's,
    # or a planner that does not use one)
    time_left: float | None = None  # seconds until the run's time limit; a request in flight is cut there


class RetryRecord(BaseModel):
    attempt: int
    error: str
    delay_s: float


def _plus(a: float | None, b: float | None) -> float | None:
    return b if a is None else a if b is None else a + b


class ModelUsage(BaseModel):
    """What the model server reported about producing replies; `+` sums the requests of one turn."""

    requests: int = 0  # model requests answered (a re-ask after a cut-off reply is a second one)
    prompt_tokens: int | None = None  # tokens the model actually read (after any truncation)
    completion_tokens: int | None = None
    load_ms: float | None = None  # server-side durations, when the server reports them
    prompt_ms: float | None = None
    eval_ms: float | None = None
    total_ms: float | None = None

    def __add__(self, other: ModelUsage) -> ModelUsage:
        summed = {name: _plus(getattr(self, name), getattr(other, name)) for name in ModelUsage.model_fields}
        return ModelUsage.model_validate(summed)

    @property
    def prompt_tokens_per_request(self) -> float | None:
        """The prompt tokens the model read per request (comparable with the engine's estimate of one prompt)."""
        return self.prompt_tokens / self.requests if self.prompt_tokens and self.requests else None


class PlannerReply(BaseModel):
    """One reply plus what the server reported about producing it: a model's raw text (`content`, read by the
    engine), or the typed `action` of a planner that decides without text (the rules planner)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    content: str = ""
    action: Action | None = Field(None, exclude=True)
    thinking: str | None = None
    done_reason: str | None = None
    model: str | None = None
    usage: ModelUsage = Field(default_factory=ModelUsage)
    retries: list[RetryRecord] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)

    def text(self) -> str:
        """The reply as text: the model's own, or the typed action written in the reply contract."""
        return action_text(self.action) if self.action is not None and not self.content else self.content


class Planner(ABC):
    """Produces one reply per turn. Implementations: rules (built in), script, ollama, openai."""

    name: str = "planner"
    model: str | None = None
    calls_model: bool = False  # counts toward llm_calls
    reads_prompt: bool = True  # reads `PlanRequest.prompt` (the engine renders none for a planner that does not)
    uses_schema: bool = False  # reads `PlanRequest.reply_schema` (built only for planners that do)
    deterministic: bool = False  # the same view always gives the same reply, so nudging it changes nothing
    context_tokens: int | None = None  # room for the prompt in the model's window, when known
    system_prompt: str | None = None  # replaces the engine's default system prompt (Modelfile SYSTEM)

    @abstractmethod
    def plan(self, request: PlanRequest) -> PlannerReply:
        """Return the next raw reply; raise `PlannerError` when no reply can be had."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release connections."""
