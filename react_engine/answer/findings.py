"""Wording the answer to an investigation (patterns, what is unusual, a timeline, the lines before an event) from
what the tools computed. The answer shows what the tools found and never claims a cause."""

from __future__ import annotations

from typing import Any

from react_engine.contract.planner import HistoryItem

_SHOWN = 5
_STEPS = 10  # the lines of a timeline the answer lists (the table lists the rest)


def _rows(value: Any) -> list[list[Any]]:
    return value.get("rows", []) if isinstance(value, dict) else []


def _patterns(value: Any, where: str) -> tuple[str, Any]:
    rows = _rows(value)
    if not rows:
        return f"No log lines{where}, so no message patterns.", []
    kinds = value.get("patterns", len(rows))
    shown = "; ".join(f"`{r[2]}` {r[0]:,} ({r[1]}%)" for r in rows[:_SHOWN])
    noun = "kind" if kinds == 1 else "kinds"
    return f"{kinds:,} {noun} of message in {value.get('rows_counted', 0):,} lines{where}: {shown}.", \
        [r[0] for r in rows[:_SHOWN]]


def _unusual(history: list[HistoryItem], where: str) -> tuple[str, Any]:
    found = history[-1].value
    if history[-1].params.get("since"):
        rows = _rows(found)
        if not rows:
            return f"No message pattern is new{where}: none of the {found.get('method', '')}.", 0
        shown = "; ".join(f"`{r[2]}` {r[0]:,} (first {r[3]})" for r in rows[:_SHOWN])
        return f"{found['patterns']:,} message patterns are new{where} ({found['method']}): {shown}.", \
            found["patterns"]
    times = next((h.value for h in history if h.action == "unusual"), None)
    text = f"Unusual times{where}: none" if not _rows(times) else f"Unusual times{where}: " + ", ".join(
        f"{r[0]} ({r[1]:,} lines)" for r in _rows(times)[:_SHOWN])
    text += f" ({times.get('method', '')})." if isinstance(times, dict) else "."
    rare = _rows(found)
    if rare:
        text += " Rarest patterns: " + "; ".join(f"`{r[2]}` {r[0]:,}" for r in rare[:_SHOWN]) + "."
    return text, len(_rows(times))


def _timeline(value: Any, asked: str) -> tuple[str, Any]:
    rows = _rows(value)
    if not rows:
        return f"No line names {asked}.", 0
    lines = value["lines"]
    span = value.get("span_seconds")
    head = (f"{asked} appears on {lines:,} {'line' if lines == 1 else 'lines'}"
            + (f", from {value['first']} to {value['last']} ({span:,.0f} s)" if span is not None else ""))
    steps = "\n".join(f"{r[0]}  {r[2]}" for r in rows[:_STEPS])  # the message as logged, not its pattern
    more = f"\n(the first lines of {lines:,}: the table lists more)" if lines > _STEPS else ""
    return f"{head}:\n{steps}{more}", lines


def _preceding(value: Any) -> tuple[str, Any]:
    rows = _rows(value)
    if not rows:
        return "No lines came before it on the same host or component.", 0
    shown = "; ".join(f"`{r[3]}` {r[0]:,} ({r[1]}% of the lines before, {r[2]}% of all lines)" for r in rows[:_SHOWN])
    first = f"The first is {value['first']}; the lines just before it:\n" + "\n".join(value["just_before"]) + "\n" \
        if value.get("just_before") else ""
    return (f"{first}In {value['method'].split(';')[0]}, the most common patterns were: {shown}. "
            "This is context, not a diagnosis."), [[r[3], r[0]] for r in rows[:_SHOWN]]


def investigation_answer(goal: str, history: list[HistoryItem], where: str, asked: str) -> tuple[str, Any]:
    """The final sentence and value of an investigation, from the tools' values (`where`: the scope in words,
    `asked`: what the measure is about)."""
    last = history[-1].value
    if goal == "patterns":
        return _patterns(last, where)
    if goal == "unusual":
        return _unusual(history, where)
    if goal == "timeline":
        return _timeline(last, asked)
    return _preceding(last)
