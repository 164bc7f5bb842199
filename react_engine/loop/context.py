"""Building the curated prompt: a fixed-size picture of the run, whatever the size of the logs."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from react_engine.contract.planner import ContextView, HistoryItem
from react_engine.question.interpretation import NOTES_CHARS, without_suggestion
from react_engine.rows.snippets import ELLIPSIS, LOG_CLOSE, LOG_OPEN, cut
from react_engine.tools.registry import Tool

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069]")
_MARKER = re.compile(r"<{3,}|>{3,}")  # only the prompt itself may open or close the data block
_FROM_LOG = re.compile(f"{LOG_OPEN}([^{LOG_OPEN}{LOG_CLOSE}]*){LOG_CLOSE}")  # see `text.from_log`
QUOTE = ("<<<", ">>>")  # log text quoted inside the prompt's own words
# Without a suggestion the example is a real, harmless call: small models copy examples, so it holds no number,
# level or name and no placeholder text (an earlier "<one sentence stating that result>" came back as answers),
# and a final answer is described in words, with nothing to copy. Keys are in the order the grammar of the
# llama.cpp planner asks for them (sorted), so an example can be copied token for token.
_EXAMPLES = (
    'Example:\n{"action": "get_log_count", "params": {}, "reasoning": "count the current rows"}\n'
    'Once a result answers the question: finalize_answer stating it, with it as value.'
)
ENTITY_CHARS = 140  # one entity summary line (the turn after extract_entities stays short)
_WHY = {"finalize_answer": "the last tool result answers the question"}
_SUGGESTION_CHARS = 1200
SUGGESTED = "Suggested reply (its values are log data):"


def _examples(view: ContextView) -> str:
    """The suggested next action as the one example when there is one (a small model that copies it follows
    the plan, or states the value the tools computed), else the shape-only examples."""
    if view.suggestion is None:
        return _EXAMPLES
    action, params = view.suggestion
    reply = {"action": action, "params": params, "reasoning": _WHY.get(action, "the suggested next step")}
    # its values can come from the logs (a top value in a final answer): cleaned like any log text
    return SUGGESTED + "\n" + clean(json.dumps(reply, ensure_ascii=False, sort_keys=True), _SUGGESTION_CHARS)


def estimate_tokens(text: str) -> int:
    """A conservative token estimate: one token per 3 UTF-8 bytes (real tokenizers average about 4)."""
    return math.ceil(len(text.encode("utf-8")) / 3)


def _template(name: str) -> str:
    return resources.files("react_engine").joinpath(f"prompts/{name}.txt").read_text(encoding="utf-8")


SYSTEM_PROMPT = _template("system").strip()
_USER = _template("user")


def clean(text: str, limit: int) -> str:
    """Make untrusted log text safe to show: no control characters or data-block markers, one line, at most
    `limit` characters. The text is cut before it is cleaned, so a huge line costs no more than a short one."""
    head = text[: limit * 4]  # cleaning only ever shortens runs of markers
    one_line = _CONTROL.sub(" ", head.replace("\r", " ").replace("\n", " ⏎ "))
    one_line = _MARKER.sub(lambda m: m.group(0)[:2], one_line)
    return cut(one_line if len(head) == len(text) else one_line + ELLIPSIS, limit)


def quote(text: str, limit: int) -> str:
    """Log text as a quote inside the prompt's own words: cleaned, within `limit` characters with its marks."""
    return QUOTE[0] + clean(text, max(limit - 6, 1)) + QUOTE[1]


def quoting(text: str, limit: int) -> str:
    """`clean` for the engine's words that hold log text (marked by `text.from_log`): each log part shown as a
    quote, never cut off before its closing mark; at most `limit` characters."""
    parts, left = [], limit
    for i, part in enumerate(_FROM_LOG.split(text)):
        if left < (7 if i % 2 else 1):
            break
        shown = quote(part, left) if i % 2 else clean(part, left)
        parts.append(shown)
        left -= len(shown)
    return "".join(parts)


def _compact(value: Any, limit: int = 120) -> str:
    text = json.dumps(value, default=str, ensure_ascii=False, separators=(",", ":"))
    return cut(text, limit)


def _history_line(item: HistoryItem, limit: int) -> str:
    """One earlier step in words, not in a reply's JSON shape (a small model copies a JSON line as its reply)."""
    status = " [FAILED]" if not item.ok else " [done]" if item.kind == "tool" else ""
    params = "; ".join(f"{k} {_compact(v, 60).strip(chr(34))}" for k, v in item.params.items())
    called = f"{item.action} with {params}" if params else item.action
    return clean(f"step {item.iteration}: {called} gave {item.summary}{status}", limit)


def _pairs(pairs: list[tuple[str, int]], limit: int = 24) -> str:
    return ", ".join(f"{clean(str(k), limit)} {v}" for k, v in pairs) or "-"


@dataclass
class Shape:
    """How much of each section to show; trimming walks down from the full shape."""

    history: int
    samples: int
    sample_chars: int
    tops: bool = True
    entities: int = 2
    examples: bool = True
    optional_tools: bool = True  # tools the reading did not ask for and the run has not used
    trimmed: list[str] = field(default_factory=list)


_TRIM_STEPS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("tools", {"optional_tools": False}),  # first: a tool nothing asks for is worth less than the log's data
    ("samples", {"samples": 2}),
    ("sample_chars", {"sample_chars": 150}),
    ("history", {"history": 4}),
    ("samples", {"samples": 1}),
    ("sample_chars", {"sample_chars": 120}),
    ("history", {"history": 3}),
    ("tops", {"tops": False}),
    ("entities", {"entities": 1}),
    ("samples", {"samples": 0}),
    ("history", {"history": 1}),
    ("entities", {"entities": 0}),
    ("examples", {"examples": False}),  # last: the suggested reply is the one line a small model copies
)


def offered(tools: list[Tool], shape: Shape, wanted: frozenset[str]) -> list[Tool]:
    """The tools the prompt lists: all of them, or, once trimmed, the required ones and the `wanted` ones."""
    return [t for t in tools if shape.optional_tools or not t.optional or t.name in wanted]


def render(view: ContextView, tools: list[Tool], shape: Shape) -> str:
    """Render the user prompt for `view` with the given section sizes, listing `tools`."""
    return _USER.format(
        question=clean(view.question, 500),
        iteration=view.iteration,
        max_iterations=view.max_iterations,
        now=view.now or "unknown (no timestamps)",
        tools="\n".join(f"- {t.signature()}: {t.description}" for t in tools),
        examples=_examples(view) if shape.examples else "",
        **_run_parts(view, shape),
        **_data_parts(view),
        **_rows_parts(view, shape),
    ).strip()


def _run_parts(view: ContextView, shape: Shape) -> dict[str, str]:
    """The parts that tell the run so far: the notes, the feedback on the last reply and the recent steps."""
    history = view.history[-shape.history :] if shape.history else []
    notes = view.notes or ""
    if shape.examples and view.suggestion is not None:  # the example shows the suggestion: said once
        notes = without_suggestion(notes)
    return {"notes": f"NOTES: {quote(notes, NOTES_CHARS)}\n" if notes else "",
            "feedback": f"NOTE: {quoting(view.feedback, 600)}\n\n" if view.feedback else "",
            "history": "\n".join(_history_line(h, 220) for h in history) or "(none yet)"}


def _data_parts(view: ContextView) -> dict[str, str]:
    """The parts of the log-data block that size the rows: their counts, time range, severities and columns."""
    start, end = view.time_range
    return {"row_count": f"{view.row_count:,}", "total_rows": f"{view.total_rows:,}",
            "time_range": f", time {start} .. {end}" if start else "",
            "severity_mix": _pairs(sorted(view.severity_mix.items(), key=lambda kv: -kv[1])),
            "columns": ", ".join(clean(str(c), 40) for c in view.columns)}


def _rows_parts(view: ContextView, shape: Shape) -> dict[str, str]:
    """The parts of the log-data block that show what the rows hold: top hosts and components, entities, samples."""
    tops = ""
    if shape.tops and (view.top_hosts or view.top_components):
        tops = f"top hosts: {_pairs(view.top_hosts)}\ntop components: {_pairs(view.top_components)}\n"
    entities = "".join(
        clean(f"entity {e.type}: {e.count} values, {e.unique} unique; top {_pairs(e.top[:3], 24)}", ENTITY_CHARS)
        + "\n" for e in view.entities[: shape.entities]
    )
    samples = ""
    if shape.samples and view.samples:
        body = "\n".join(clean(s, shape.sample_chars) for s in view.samples[: shape.samples])
        samples = f"sample rows:\n{body}\n"
    return {"tops": tops, "entities": entities, "samples": samples}


@dataclass
class Prompt:
    system: str
    text: str
    tokens: int
    trimmed: list[str]
    tools: list[Tool]  # the tools the prompt lists, which the reply schema offers

    @property
    def fits(self) -> bool:
        return not self.trimmed or self.trimmed[-1] != "insufficient"


def build_prompt(view: ContextView, tools: list[Tool], budget: int, *, history: int, samples: int,
                 sample_chars: int, system: str = SYSTEM_PROMPT, wanted: frozenset[str] = frozenset()) -> Prompt:
    """Render the prompt, trimming sections until system + prompt fit `budget` estimated tokens. Optional tools
    go first, except the `wanted` ones (those the question's reading needs and those the run has called)."""
    shape = Shape(history=history, samples=samples, sample_chars=sample_chars)
    overhead = estimate_tokens(system)
    text = render(view, tools, shape)
    for section, change in _TRIM_STEPS:
        if overhead + estimate_tokens(text) <= budget:
            break
        for key, value in change.items():
            setattr(shape, key, min(getattr(shape, key), value) if not isinstance(value, bool) else value)
        if section not in shape.trimmed:
            shape.trimmed.append(section)
        text = render(view, offered(tools, shape, wanted), shape)
    tokens = overhead + estimate_tokens(text)
    if tokens > budget:
        shape.trimmed.append("insufficient")
    return Prompt(system=system, text=text, tokens=tokens, trimmed=shape.trimmed, tools=offered(tools, shape, wanted))
