"""Wording the answer to a time measure (first or last time, span, silences, durations) from what the time tools
computed: every time and duration in it is one a tool returned, with its unit and the lines it covers."""

from __future__ import annotations

from pathlib import PurePath
from typing import Any

from react_engine.contract.planner import HistoryItem
from react_engine.question.measures import Duration, Gaps, Measure, Occurrence, Span
from react_engine.tools.clock import spoken

TIME_TOOLS = ("time_span", "gaps", "durations")


def _at(place: dict[str, Any]) -> str:
    return f"{PurePath(str(place['source'])).name}:{place['line']}"


def _length(seconds: float) -> str:
    return f"{spoken(seconds)} ({seconds:,} s)"


def time_answer(measure: Measure, history: list[HistoryItem], where: str) -> tuple[str, Any] | None:
    """The sentence and value for a time measure, or None when the last step is no time tool's."""
    if not history or history[-1].action not in TIME_TOOLS or not isinstance(history[-1].value, dict):
        return None
    last = history[-1].value
    span = next((h.value for h in history if h.action == "time_span" and isinstance(h.value, dict)), None)
    if isinstance(measure, Duration):
        return _durations(measure, last, where)
    if span is None:
        return None
    if span.get("seconds") is None:
        return (f"The {span['rows']:,} lines{where} carry no timestamps: the first is {_at(span['first'])} and the "
                f"last {_at(span['last'])} in file order.", None)
    if isinstance(measure, Gaps):
        return _gaps(last, span, where)
    return _spanned(measure, span, where)


def _order(span: dict[str, Any]) -> str:
    """What a reader of "first" and "last" must know when a file's lines are not in time order."""
    order = span.get("out_of_order")
    if not order:
        return ""
    first = order["first_line"]
    back = order["lines_back"]
    return (f" The lines are out of order: {back:,} {'is' if back == 1 else 'are'} earlier than the line above "
            f"{'it' if back == 1 else 'them'} in {'its' if back == 1 else 'their'} file, and the first line in file "
            f"order ({_at(first)}) is at {first['time']}.")


def _spanned(measure: Measure, span: dict[str, Any], where: str) -> tuple[str, Any] | None:
    """The first or last time of the lines, or how long they span; `first` and `last` are the earliest and latest
    times, named so when the lines are out of order."""
    disordered = bool(span.get("out_of_order"))
    if isinstance(measure, Occurrence):
        place, end = span[measure.which], span.get("seconds_to_end") or 0
        after = f", {_length(end)} before the logs end" if measure.which == "last" and end else ""
        which = {"first": "earliest", "last": "latest"}[measure.which] if disordered else measure.which
        return (f"The {which} of the {span['rows']:,} lines{where} is at {place['time']} ({_at(place)})"
                f"{after}.{_order(span)}",
                {"time": place["time"], "line": place["line"]})
    if isinstance(measure, Span):
        return (f"The {span['rows']:,} lines{where} span {_length(span['seconds'])}, from {span['first']['time']} "
                f"({_at(span['first'])}) to {span['last']['time']} ({_at(span['last'])}).{_order(span)}",
                {"seconds": span["seconds"]})
    return None


def _gaps(value: dict[str, Any], span: dict[str, Any], where: str) -> tuple[str, Any]:
    end = span.get("seconds_to_end") or 0
    stop = (f"the last of them at {span['last']['time']} ({_at(span['last'])}), "
            + (f"{_length(end)} before the logs end" if end else "where the logs end"))
    if not value["gaps"]:
        return f"There is no silence between the {value['rows']:,} timed lines{where}; {stop}.", None
    top = value["gaps"][0]
    key = f" for {top['key']}" if "key" in top else ""
    return (f"The longest silence between the {value['rows']:,} timed lines{where} is {_length(top['seconds'])}"
            f"{key}, from {top['from']} to {top['to']}; {stop}.",
            {"seconds": top["seconds"], "from": top["from"], "to": top["to"]})


def _durations(measure: Duration, value: dict[str, Any], where: str) -> tuple[str, Any]:
    pair = f'"{measure.start}" -> "{measure.end}"'
    if not value["count"]:
        return (f"No {pair} pair{where}: {value['starts']:,} start lines and {value['ends']:,} end lines, none "
                "followed by its end.", None)
    top = value["longest"][0]
    key = f" ({measure.key} {top['key']})" if "key" in top else ""
    open_ = f"; {value['unclosed']:,} starts have no end" if value["unclosed"] else ""
    return (f"{value['count']:,} {pair} durations{where}: mean {_length(value['mean_seconds'])}, longest "
            f"{_length(top['seconds'])}{key} from {top['start']} to {top['end']}{open_}.",
            {"count": value["count"], "mean_seconds": value["mean_seconds"], "max_seconds": value["max_seconds"]})
