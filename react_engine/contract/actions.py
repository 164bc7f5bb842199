"""The reply contract: one JSON object `{"reasoning", "action", "params"}`, parsed tolerantly and validated."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal, Union

from pydantic import BaseModel, Field, TypeAdapter, ValidationError, create_model

from react_engine.errors import ErrorItem, ReplyError
from react_engine.tools.finalize import FinalizeAnswerParams
from react_engine.tools.registry import Params, Tool

REASONING_CHARS = 80  # the reply schema's bound on `reasoning`: a grammar-bound model cannot ramble past it


class Reply(BaseModel):
    """A planner reply in contract shape, before its action and params are checked against the tools."""

    reasoning: str = ""
    action: str
    params: dict[str, Any] = Field(default_factory=dict)
    ignored: list[str] = Field(default_factory=list, exclude=True)  # other actions in the reply, not taken


@dataclass(frozen=True)
class ToolCall:
    """A call of one declared tool with its checked params: what a reply asks the engine to run."""

    tool: Tool
    params: Params
    reasoning: str = ""
    ignored: tuple[str, ...] = ()  # other actions the reply held, not taken

    @property
    def sent(self) -> dict[str, Any]:
        """The params as the planner gave them (defaults it left out stay out)."""
        return self.params.model_dump(exclude_unset=True)


@dataclass(frozen=True)
class Final:
    """The final answer and the computed value it rests on."""

    answer: str
    value: Any = None
    reasoning: str = ""
    ignored: tuple[str, ...] = ()


@dataclass(frozen=True)
class Invalid:
    """A reply that names no valid action: why, and the action and params it did name, if any."""

    error: ReplyError
    action: str | None = None
    params: dict[str, Any] | None = None
    ignored: tuple[str, ...] = ()


Action = ToolCall | Final | Invalid
"""A planner's reply as the engine acts on it, read once: a model's text by `read_action`, the rules' plan as is."""


def read_action(text: str, tools: dict[str, Tool]) -> Action:
    """The action in a model's reply `text`, checked against `tools`."""
    try:
        reply = parse_reply(text)
    except ReplyError as exc:
        return Invalid(exc)
    ignored = tuple(reply.ignored)
    try:
        tool, params = validate(reply, tools)
    except ReplyError as exc:
        return Invalid(exc, reply.action, reply.params, ignored)
    if isinstance(params, FinalizeAnswerParams):
        return Final(params.answer, params.value, reply.reasoning, ignored)
    return ToolCall(tool, params, reply.reasoning, ignored)


def action_text(action: Action) -> str:
    """`action` as the one JSON object of the reply contract (for traces and replays)."""
    match action:
        case ToolCall():
            shaped: dict[str, Any] = {"reasoning": action.reasoning, "action": action.tool.name,
                                      "params": action.params.model_dump(mode="json", exclude_unset=True)}
        case Final():
            shaped = {"reasoning": action.reasoning, "action": "finalize_answer",
                      "params": {"answer": action.answer, "value": action.value}}
        case Invalid():
            shaped = {"action": action.action or "", "params": action.params or {}}
    return json.dumps(shaped, ensure_ascii=False, default=str)


def reply_schema(tools: dict[str, Tool]) -> dict[str, Any]:
    """JSON schema of a valid reply, derived from the same params models that validate it."""
    variants = [
        create_model(
            f"{''.join(p.title() for p in t.name.split('_'))}Action",
            reasoning=(str, Field(description="a few words: why this action", max_length=REASONING_CHARS)),
            action=(_literal(t.name), Field(description=t.description)),
            params=(t.params, ...),
        )
        for t in tools.values()
    ]
    union: Any = Union[tuple(variants)] if len(variants) > 1 else variants[0]  # noqa: UP007
    return TypeAdapter(union).json_schema()


def _literal(name: str) -> Any:
    """The type `Literal[name]` for a name known only at run time."""
    return Literal[name]


_THINK = re.compile(r"<think(?:ing)?>(.*?)(?:</think(?:ing)?>|\Z)", re.S | re.I)
_FENCE = re.compile(r"```[a-zA-Z0-9_-]*\s*\n?(.*?)(?:```|\Z)", re.S)
_MAX_DEPTH = 32
MAX_REPLY_CHARS = 32_000  # one action is a few hundred characters: a longer reply is refused, not searched
_MAX_OBJECTS = 8  # of more objects in a reply only the last few are read (each may need a slow repair)
_NAME_CHARS = 40  # an ignored action's name as reported
_ALIASES_ACTION = ("action", "tool", "name", "tool_name", "function")
_ALIASES_PARAMS = ("params", "arguments", "parameters", "args", "input", "action_input", "tool_input")


def strip_thinking(text: str) -> str:
    """Remove `<think>…</think>` blocks (an unclosed one runs to the end)."""
    return _THINK.sub("", text).strip()


def thinking_in(text: str) -> str | None:
    """The text of the `<think>…</think>` blocks in `text`, one block a line, or None when there are none."""
    return "\n".join(m.strip() for m in _THINK.findall(text)) or None


def _objects(text: str) -> list[str]:
    """Balanced top-level `{…}` spans in `text`, respecting JSON strings; a span nested deeper than any reply
    could be is left out (repairing one is slow and can only fail)."""
    braces, i = _Braces(text), 0
    while i < len(text):
        ch = text[i]
        if ch == '"' and braces.depth:
            i = _string_end(text, i + 1)
        elif ch == "{":
            braces.open(i)
        elif ch == "}" and braces.depth:
            braces.close(i)
        i += 1
    braces.truncated()
    return braces.spans


@dataclass
class _Braces:
    """The braces a scan of `text` has met: the top-level spans closed so far, and the one still open."""

    text: str
    spans: list[str] = field(default_factory=list)
    depth: int = 0
    deepest: int = 0  # of the open span
    start: int = -1  # of the open span

    def open(self, i: int) -> None:
        if self.depth == 0:
            self.start, self.deepest = i, 0
        self.depth += 1
        self.deepest = max(self.deepest, self.depth)

    def close(self, i: int) -> None:
        self.depth -= 1
        if self.depth == 0 and self.deepest <= _MAX_DEPTH:
            self.spans.append(self.text[self.start : i + 1])

    def truncated(self) -> None:
        """Keep a span the text ends inside: the repairer closes it."""
        if self.depth and self.start >= 0 and self.deepest <= _MAX_DEPTH:
            self.spans.append(self.text[self.start :])


def _string_end(text: str, i: int) -> int:
    """Where the JSON string whose text starts at `i` ends: the index of its closing quote, or the end of `text`."""
    while i < len(text):
        if text[i] == "\\":
            i += 2
        elif text[i] == '"':
            return i
        else:
            i += 1
    return len(text)


def _load(candidate: str) -> Any:
    """The JSON value of `candidate`, repaired if need be; None when even repair fails (e.g. absurd nesting)."""
    try:
        return json.loads(candidate)
    except (ValueError, RecursionError):
        import json_repair  # only a reply that is not plain JSON needs it

        try:
            repaired = json_repair.loads(candidate)
        except (ValueError, RecursionError):
            return None
        return repaired if isinstance(repaired, dict) and repaired else None


def _normalise(obj: dict[str, Any]) -> dict[str, Any] | None:
    """Map common variants (`tool`/`arguments`, `name`/`parameters`, OpenAI function calls) to the contract."""
    obj = _unwrapped(obj)
    action = next((obj[k] for k in _ALIASES_ACTION if isinstance(obj.get(k), str)), None)
    if action is None:
        return None
    reasoning = obj.get("reasoning") or obj.get("thought") or obj.get("thoughts") or ""
    return {"reasoning": str(reasoning), "action": action.strip(), "params": _params(obj)}


def _unwrapped(obj: dict[str, Any]) -> dict[str, Any]:
    """The call an OpenAI function call (`{"function": {...}}`) or a nested action (`{"action": {"name": ...,
    "params": ...}}`) wraps, with the reply's reasoning."""
    if isinstance(obj.get("function"), dict):
        obj = {**obj["function"], "reasoning": obj.get("reasoning", "")}
    if isinstance(obj.get("action"), dict):
        obj = {**obj["action"], "reasoning": obj.get("reasoning", "")}
    return obj


def _params(obj: dict[str, Any]) -> Any:
    """The params under any of their names, parsed when given as a JSON string; {} when none can be read."""
    params: Any = next((obj[k] for k in _ALIASES_PARAMS if k in obj), {})
    if isinstance(params, str):
        params = _load(params) if params.strip().startswith("{") else {}
    return params if params is not None else {}


def parse_reply(text: str) -> Reply:
    """Extract the model's own action from its output: think tags, fences, prose and common JSON damage are
    tolerated. Fenced actions come before the prose; of several actions the last is taken (an earlier one is
    likely quoted, e.g. from a log line) and the others are listed in `ignored` (only the last few objects are
    read, and a reply over `MAX_REPLY_CHARS` is refused: the work is bounded whatever the reply)."""
    body = strip_thinking(text or "")
    if not body:
        raise ReplyError("the reply was empty", kind="empty")
    if len(body) > MAX_REPLY_CHARS:
        raise ReplyError(f"the reply had {len(body):,} characters, over the limit of {MAX_REPLY_CHARS:,}: reply with "
                         "one short JSON object", kind="too_long")
    for chunks in ([m.group(1) for m in _FENCE.finditer(body)], [body]):
        found = [reply for chunk in chunks for reply in _actions(chunk)][-_MAX_OBJECTS:]
        if found:
            ignored = [r.action[:_NAME_CHARS] for r in found[:-1]]
            return found[-1].model_copy(update={"ignored": ignored})
    raise ReplyError("no JSON object with an \"action\" was found", kind="no_json")


def _actions(text: str) -> list[Reply]:
    """Every action-shaped object at the top level of `text`, in order."""
    found = []
    for span in _objects(text)[-_MAX_OBJECTS:]:
        obj = _load(span)
        if isinstance(obj, dict) and (shaped := _normalise(obj)):
            try:
                found.append(Reply.model_validate(shaped))
            except ValidationError:
                continue
    return found


def validate(reply: Reply, tools: dict[str, Tool]) -> tuple[Tool, Params]:
    """Check the action name and its params against the declared tools."""
    tool = tools.get(reply.action)
    if tool is None:
        raise ReplyError(
            f"unknown tool {reply.action!r}; valid tools: {', '.join(tools)}", kind="unknown_tool"
        )
    try:
        return tool, tool.params.model_validate(reply.params)
    except ValidationError as exc:
        items = [
            ErrorItem(loc=".".join(str(p) for p in e["loc"]) or "params", msg=e["msg"]) for e in exc.errors()
        ]
        raise ReplyError(f"invalid params for {tool.name}", items=items, kind="invalid_params") from None
