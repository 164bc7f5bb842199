"""Wording the answer to a time measure (first or last time, span, silences, durations) from what the time tools
computed: every time and duration in it is one a tool returned, with its unit and the lines it covers."""

from __future__ import annotations

from pathlib import PurePath
from typing import Any

from react_engine.contract.planner import HistoryItem, latest
from react_engine.question.measures import Duration, Gaps, Measure, Occurrence, Span
from react_engine.tools import timed
from react_engine.tools.clock import spoken


def _at(place: timed.Place) -> str:
    return f"{PurePath(place.source).name}:{place.line}"


def _length(seconds: float) -> str:
    return f"{spoken(seconds)} ({seconds:,} s)"


def time_answer(measure: Measure, history: list[HistoryItem], where: str) -> tuple[str, Any] | None:
    """The sentence and value for a time measure, or None when the last step is no time tool's."""
    last = history[-1].result if history else None
    if isinstance(measure, Duration) and isinstance(last, timed.Durations):
        return _durations(measure, last, where)
    span = latest(history, timed.TimeSpan)
    if span is None or not isinstance(last, (timed.TimeSpan, timed.Gaps, timed.Durations)):
        return None
    return _timed(measure, last, span[1], where)


def _timed(measure: Measure, last: timed.TimeSpan | timed.Gaps | timed.Durations, span: timed.TimeSpan,
           where: str) -> tuple[str, Any] | None:
    """The answer from the rows' span and the last time tool's result: none but where the lines are when they
    have no times."""
    if span.seconds is None:
        return (f"The {span.rows:,} lines{where} carry no timestamps: the first is {_at(span.first)} and the "
                f"last {_at(span.last)} in file order.", None)
    if isinstance(measure, Gaps) and isinstance(last, timed.Gaps):
        return _gaps(last, span, where)
    return _spanned(measure, span, span.seconds, where)


def _order(span: timed.TimeSpan) -> str:
    """What a reader of "first" and "last" must know when a file's lines are not in time order."""
    if span.out_of_order is None:
        return ""
    first, back = span.out_of_order.first_line, span.out_of_order.lines_back
    return (f" The lines are out of order: {back:,} {'is' if back == 1 else 'are'} earlier than the line above "
            f"{'it' if back == 1 else 'them'} in {'its' if back == 1 else 'their'} file, and the first line in file "
            f"order ({_at(first)}) is at {first.time}.")


def _spanned(measure: Measure, span: timed.TimeSpan, seconds: float, where: str) -> tuple[str, Any] | None:
    """The first or last time of the lines, or how long they span; `first` and `last` are the earliest and latest
    times, named so when the lines are out of order."""
    if isinstance(measure, Occurrence):
        place, end = getattr(span, measure.which), span.seconds_to_end or 0
        after = f", {_length(end)} before the logs end" if measure.which == "last" and end else ""
        which = {"first": "earliest", "last": "latest"}[measure.which] if span.out_of_order is not None \
            else measure.which
        return (f"The {which} of the {span.rows:,} lines{where} is at {place.time} ({_at(place)})"
                f"{after}.{_order(span)}",
                {"time": place.time, "line": place.line})
    if isinstance(measure, Span) and span.rows == 1:  # "how long did instance X take to spawn": not its one line
        return (f"Only 1 line{where} ({_at(span.first)}): one line spans no time, so how long it took is not "
                "measured by when lines were written.", None)
    if isinstance(measure, Span):
        return (f"The {span.rows:,} lines{where} span {_length(seconds)}, from {span.first.time} "
                f"({_at(span.first)}) to {span.last.time} ({_at(span.last)}).{_order(span)}",
                {"seconds": seconds})
    return None


def _gaps(found: timed.Gaps, span: timed.TimeSpan, where: str) -> tuple[str, Any]:
    end = span.seconds_to_end or 0
    stop = (f"the last of them at {span.last.time} ({_at(span.last)}), "
            + (f"{_length(end)} before the logs end" if end else "where the logs end"))
    if not found.gaps:
        return f"There is no silence between the {found.rows:,} timed lines{where}; {stop}.", None
    top = found.gaps[0]
    key = f" for {top.key}" if top.key is not None else ""
    return (f"The longest silence between the {found.rows:,} timed lines{where} is {_length(top.seconds)}"
            f"{key}, from {top.start} to {top.end}; {stop}.",
            {"seconds": top.seconds, "from": top.start, "to": top.end})


def _durations(measure: Duration, found: timed.Durations, where: str) -> tuple[str, Any]:
    pair = f'"{measure.start}" -> "{measure.end}"'
    if not found.count or not found.longest:
        return (f"No {pair} pair{where}: {found.starts:,} start lines and {found.ends:,} end lines, none "
                "followed by its end.", None)
    top = found.longest[0]
    key = f" ({measure.key} {top.key})" if top.key is not None else ""
    open_ = f"; {found.unclosed:,} starts have no end" if found.unclosed else ""
    return (f"{found.count:,} {pair} durations{where}: mean {_length(found.mean_seconds or 0)}, longest "
            f"{_length(top.seconds)}{key} from {top.start} to {top.end}{open_}.",
            {"count": found.count, "mean_seconds": found.mean_seconds, "max_seconds": found.max_seconds})
