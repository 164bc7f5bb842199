"""Wording the answer to an investigation (patterns, what is unusual, a timeline, the lines before an event) from
what the tools computed. The answer shows what the tools found and never claims a cause."""

from __future__ import annotations

from typing import Any, assert_never

from react_engine.contract.planner import HistoryItem, latest
from react_engine.question.measures import Patterns, Preceding, Timeline, Unusual
from react_engine.tools import investigated as found

_SHOWN = 5
_STEPS = 10  # the lines of a timeline the answer lists (the table lists the rest)


def _patterns(value: found.Patterns | None, where: str) -> tuple[str, Any]:
    if value is None or not value.rows:
        return f"No log lines{where}, so no message patterns.", []
    rows = value.rows
    shown = "; ".join(f"`{r[2]}` {r[0]:,} ({r[1]}%)" for r in rows[:_SHOWN])
    noun = "kind" if value.patterns == 1 else "kinds"
    return f"{value.patterns:,} {noun} of message in {value.rows_counted:,} lines{where}: {shown}.", \
        [r[0] for r in rows[:_SHOWN]]


def _new(value: found.Patterns | None, where: str) -> tuple[str, Any]:
    """The message patterns first seen since a time."""
    if value is None or not value.rows:
        method = value.method if value is not None and value.method else ""
        return f"No message pattern is new{where}: none of the {method}.", 0
    shown = "; ".join(f"`{r[2]}` {r[0]:,} (first {r[3]})" for r in value.rows[:_SHOWN])
    return f"{value.patterns:,} message patterns are new{where} ({value.method}): {shown}.", value.patterns


def _unusual(measure: Unusual, history: list[HistoryItem], where: str) -> tuple[str, Any]:
    patterns = latest(history, found.Patterns)
    rare = patterns[1] if patterns is not None else None
    if measure.since is not None:
        return _new(rare, where)
    times = latest(history, found.UnusualTimes)
    far = times[1].rows if times is not None else []
    text = f"Unusual times{where}: " + (", ".join(f"{r[0]} ({r[1]:,} lines)" for r in far[:_SHOWN]) or "none")
    text += f" ({times[1].method})." if times is not None else "."
    return text + _rarest(rare), len(far)


def _rarest(rare: found.Patterns | None) -> str:
    """The rarest message patterns, in a sentence (none when there are none)."""
    if rare is None or not rare.rows:
        return ""
    return " Rarest patterns: " + "; ".join(f"`{r[2]}` {r[0]:,}" for r in rare.rows[:_SHOWN]) + "."


def _timeline(value: found.Timeline | None, asked: str) -> tuple[str, Any]:
    if value is None or not value.rows:
        return f"No line names {asked}.", 0
    lines, span = value.lines, value.span_seconds
    head = (f"{asked} appears on {lines:,} {'line' if lines == 1 else 'lines'}"
            + (f", from {value.first} to {value.last} ({span:,.0f} s)" if span is not None else ""))
    steps = "\n".join(f"{r[0]}  {r[2]}" for r in value.rows[:_STEPS])  # the message as logged, not its pattern
    more = f"\n(the first lines of {lines:,}: the table lists more)" if lines > _STEPS else ""
    return f"{head}:\n{steps}{more}", lines


def _preceding(value: found.Preceded | None) -> tuple[str, Any]:
    if value is None or not value.rows:
        return "No lines came before it on the same host or component.", 0
    rows = value.rows
    shown = "; ".join(f"`{r[3]}` {r[0]:,} ({r[1]}% of the lines before, {r[2]}% of all lines)" for r in rows[:_SHOWN])
    first = f"The first is {value.first}; the lines just before it:\n" + "\n".join(value.just_before) + "\n" \
        if value.just_before else ""
    return (f"{first}In {value.method.split(';')[0]}, the most common patterns were: {shown}. "
            "This is context, not a diagnosis."), [[r[3], r[0]] for r in rows[:_SHOWN]]


def investigation_answer(measure: Patterns | Unusual | Timeline | Preceding, history: list[HistoryItem],
                         where: str) -> tuple[str, Any]:
    """The final sentence and value of an investigation, from the tools' values (`where`: the scope in words)."""
    match measure:
        case Patterns():
            patterns = latest(history, found.Patterns)
            return _patterns(patterns[1] if patterns is not None else None, where)
        case Unusual():
            return _unusual(measure, history, where)
        case Timeline():
            timeline = latest(history, found.Timeline)
            return _timeline(timeline[1] if timeline is not None else None, measure.value)
        case Preceding():
            preceded = latest(history, found.Preceded)
            return _preceding(preceded[1] if preceded is not None else None)
        case _:
            assert_never(measure)
