"""Wording the final answer from the plan's query and the values its tools computed."""

from __future__ import annotations

from typing import Any, assert_never

from react_engine.answer.distinct_words import by_distinct
from react_engine.answer.findings import investigation_answer
from react_engine.answer.measured import measure_answer
from react_engine.answer.quantities import is_quantity
from react_engine.answer.timing import time_answer
from react_engine.compile.plan import Plan
from react_engine.contract.planner import HistoryItem, latest
from react_engine.question.asking import singular
from react_engine.question.measures import (
    BUCKET_WORDS,
    Comparison,
    Count,
    Distinct,
    Duration,
    Gaps,
    Histogram,
    Key,
    Listing,
    Measure,
    Never,
    Occurrence,
    Ordered,
    Patterns,
    Pivot,
    Preceding,
    Rate,
    Share,
    Span,
    Statistic,
    Timeline,
    Top,
    Unusual,
)
from react_engine.tools import results, timed

ALL_LINES = " (all lines)"


def scope(plan: Plan) -> str:
    """What the narrowing steps kept, in words, for the answer sentence."""
    words = plan.scope()
    return f" ({'; '.join(words)})" if words else ALL_LINES


def counted(n: int, label: str) -> str:
    """`3 modems`, `1 modem`, `1 IP address`, `2,000 log lines`."""
    if n != 1:
        return f"{n:,} {label}"
    return f"1 {label[:-2] if label.endswith('sses') else label[:-3] + 'y' if label.endswith('ies') else label[:-1]}"


def answer(plan: Plan, history: list[HistoryItem]) -> tuple[str, Any]:
    """The final sentence and value, from the values the plan's tools computed for its measure (each read from
    the tool that computes it)."""
    measure, where = plan.measure, scope(plan)
    if plan.writes:
        return exported(history, where)
    asked = plan.query.measure if plan.query is not None else measure
    first = plan.query.limit if plan.query is not None and plan.query.order in ("most", "least") else None
    return _measured(measure, asked, history, where, first) or (f"{history[-1].summary}{where}.", history[-1].value)


def _measured(measure: Measure, asked: Measure, history: list[HistoryItem], where: str,
              first: int | None) -> tuple[str, Any] | None:
    """The sentence and value for the plan's measure, worded as the question `asked` it (they differ when no tool
    computes the measure asked: the plan's is what the question's goal alone measures)."""
    match measure:
        case Patterns() | Unusual() | Timeline() | Preceding():
            return investigation_answer(measure, history, where)
        case Count() | Distinct() | Top() | Histogram() | Listing():
            return _asked(asked, history, where, first) or _worded(measure, history, where)
        case Statistic() | Rate() | Pivot() | Share() | Comparison() | Occurrence() | Span() | Gaps() | Duration():
            return _asked(asked, history, where, first)
        case Ordered():
            return _ordered(measure, latest(history, timed.OrderedValues), where)
        case Never():
            return _never(measure, latest(history, results.NeverSeen), where)
        case _:
            assert_never(measure)


def _asked(asked: Measure, history: list[HistoryItem], where: str, first: int | None) -> tuple[str, Any] | None:
    """The sentence and value for a measure of times or numbers, from the tool that computed it last (`first`:
    the groups a ranking by the measure asks for); None for a measure of another kind."""
    match asked:
        case Occurrence() | Span() | Gaps() | Duration():
            return time_answer(asked, history, where)
        case Statistic() | Rate() | Pivot() | Share() | Comparison():
            return measure_answer(asked, history, where, first)
    return None


def exported(history: list[HistoryItem], where: str) -> tuple[str, Any]:
    """What the approved writes wrote (the value: each file's path, rows and format) and the files not approved."""
    wrote = [h.result for h in history if isinstance(h.result, results.Exported) and h.kind == "tool"]
    parts = [f"Wrote {counted(w.rows, 'log lines')}{where} to {w.path} ({w.format})." for w in wrote]
    if refused := _refused(history):
        parts.append(f"Not written (not approved): {', '.join(refused)}.")
    records = [w.recorded() for w in wrote]
    return " ".join(parts), (records[0] if len(records) == 1 else records or None)


def _refused(history: list[HistoryItem]) -> list[str]:
    """The files the writes not approved would have written."""
    return [str(h.params.get("path", "")) for h in history if h.kind == "denied" and h.action == "export_results"]


def _worded(measure: Count | Distinct | Top | Histogram | Listing, history: list[HistoryItem],
            where: str) -> tuple[str, Any] | None:
    """The sentence and value for a measure of lines or values, from the latest result of the type that answers
    it; None when no step returned one."""
    match measure:
        case Distinct():
            return _counted(latest(history, results.ValuesCounted), "distinct " + measure.key.label, where)
        case Listing(key=key) if key is not None:
            return _listed(key.label, history, where)
        case Top(distinct=Key() as distinct):
            return by_distinct(measure.key, distinct, latest(history, results.DistinctRanking), where, measure)
        case Top(single=True):
            return _leaders(measure.key.label, latest(history, results.Ranking), where, measure.least)
        case Top():
            return _ranked(measure.key.label, _pairs(history), where, measure.least)
        case Histogram():
            found = latest(history, results.Histogram)
            return _histogram(found[1].root if found is not None else [], where, measure)
        case Listing():
            shown = latest(history, results.Lines)
            return _shown(shown[1].root if shown is not None else [], where, measure.order), None
        case Count():
            return _counted(latest(history, results.Counted), "log lines", where)
        case _:
            assert_never(measure)


def _ordered(measure: Ordered, found: tuple[HistoryItem, timed.OrderedValues] | None, where: str
             ) -> tuple[str, Any] | None:
    """The values of the first (or last) lines holding one, each with its line; None when no step found them."""
    if found is None:
        return None
    which, label, values = ("first" if measure.which == "oldest" else "last"), measure.key.shown(), found[1].values
    if not values:
        return f"No line{where} holds {label}.", None
    held = "; ".join(f"{_value_named(measure.key.name, v.value)} ({v.place.time or 'no time'}, {v.place.source}:"
                     f"{v.place.line})" for v in values)
    what = f"The {which} {singular(label)}" if measure.n == 1 else f"The {which} {len(values)} {label}" \
        if len(values) == measure.n else f"The {which} distinct {label}, all there are,"  # fewer than asked
    return (f"{what} of the {found[1].rows:,} lines{where} holding one: {held}.",
            values[0].value if measure.n == 1 else [v.value for v in values])


def _never(measure: Never, found: tuple[HistoryItem, results.NeverSeen] | None, where: str
           ) -> tuple[str, Any] | None:
    """How many values of the matching lines never came up on the other event's lines, and the first ones (each
    cited by its first line); the values themselves when they were asked for."""
    if found is None:
        return None
    left, label = found[1], measure.key.shown()
    head = f"{counted(left.count, label)} of the {left.seen:,} on the lines{where} never {measure.words}"
    if not left.values:
        return f"{head}.", [] if measure.listed else left.count
    first = "" if len(left.values) == left.count else ", the first of them"
    shown = ", ".join(_value_named(measure.key.name, v) for v in left.values)
    return f"{head}{first}: {shown}.", left.values if measure.listed else left.count


def _shown(lines: list[str], where: str, order: str) -> str:
    """The lines `show_logs` showed, the newest first or the first in file or time order."""
    return f"The {'newest' if order == 'newest' else 'first'} matching lines{where}:\n" + "\n".join(lines)


def _pairs(history: list[HistoryItem]) -> list[results.Pair]:
    ranked = latest(history, results.Ranking)
    return ranked[1].root if ranked is not None else []


def _counted(found: tuple[HistoryItem, results.Counted | results.ValuesCounted] | None, label: str,
             where: str) -> tuple[str, Any] | None:
    """How many lines or values a counting tool found."""
    return None if found is None else (f"{counted(found[1].root, label)}{where}.", found[0].value)


def _listed(label: str, history: list[HistoryItem], where: str) -> tuple[str, Any]:
    """How many distinct values, and those with the most lines."""
    pairs = _pairs(history)
    found = latest(history, results.ValuesCounted)
    count = found[1].root if found is not None else None
    shown = ", ".join(f"{v} ({c:,})" for v, c in pairs)
    head = f"{counted(count, 'distinct ' + label)}{where}" if count is not None else f"The {label}{where}"
    more = f"; the {len(pairs)} with the most lines" if count is not None and count > len(pairs) else ""
    names = [v for v, _ in pairs]
    return f"{head}{more}: {shown}.", names[0] if len(names) == 1 else names


def _leaders(label: str, ranked: tuple[HistoryItem, results.Ranking] | None, where: str,
             least: bool = False) -> tuple[str, Any]:
    """The value with the most (`least`: the fewest) lines, or the values tied for it."""
    if ranked is None or not ranked[1].root:
        return f"No {label} were found{where}.", []
    pairs = ranked[1].root
    best = [v for v, c in pairs if c == pairs[0][1]]
    leaders = " and ".join(_value_named(str(ranked[0].params.get("field", "")), v) for v in best)
    verb = "tie with" if len(best) > 1 else f"has the {'fewest' if least else 'most'}, with"
    return f"{leaders} {verb} {counted(pairs[0][1], 'lines')}{where}.", best[0] if len(best) == 1 else best


def _value_named(field: str, value: results.Scalar) -> str:
    """A value as the answer names it: after its field's name when it reads as a quantity ("pid 2227")."""
    return f"{field} {value}" if is_quantity(str(value)) and field else str(value)


def _ranked(label: str, pairs: list[results.Pair], where: str, least: bool = False) -> tuple[str, Any]:
    if not pairs:
        return f"No {label} were found{where}.", []
    shown = ", ".join(f"{v} ({c:,})" for v, c in pairs)
    return f"{'Rarest' if least else 'Top'} {label}{where}: {shown}.", [[v, c] for v, c in pairs]


def _histogram(pairs: list[tuple[str, int]], where: str, measure: Histogram) -> tuple[str, Any]:
    """Lines per bucket, in the order the tool gave them (by time, or busiest or quietest first); the busiest or
    quietest buckets when they are asked for."""
    value = [list(p) for p in pairs]
    if not pairs:
        return f"No timestamped lines{where}.", []
    if measure.peak:
        return _peaks(pairs, where, measure)
    noun = _counted_noun(measure)
    head = noun[0].upper() + noun[1:]
    if measure.order == "time":
        top = max(pairs, key=lambda p: p[1])
        most = "busiest starts" if measure.distinct is None else "most are in the bucket starting"
        return f"{head} per bucket{where}: the {most} at {top[0]} with {counted(top[1], noun)}.", value
    shown = ", ".join(f"{t} ({c:,})" for t, c in pairs[:5]) + (", ..." if len(pairs) > 5 else "")
    first = ("fewest" if measure.order == "asc" else "most") if measure.distinct is not None else \
        ("quietest" if measure.order == "asc" else "busiest")
    return f"{head} per bucket{where}, {first} first: {shown}.", value


def _counted_noun(measure: Histogram) -> str:
    """What a histogram counts per bucket: lines, or the distinct values of its key."""
    return "lines" if measure.distinct is None else f"distinct {measure.distinct.shown()}"


def _peaks(pairs: list[tuple[Any, int]], where: str, measure: Histogram) -> tuple[str, Any]:
    """The busiest (or quietest) bucket, or the `n` of them, and those tied with the last; by lines, or by distinct
    values ("the hour with the most distinct IPs"), where the value of one bucket asked names only those tied."""
    unit = BUCKET_WORDS.get(measure.interval, f"{measure.interval} bucket")
    asc = measure.order == "asc"
    if measure.distinct is None and asc:
        pairs, where = _with_lines(pairs, where, unit)
    ranked = sorted(pairs, key=lambda p: p[1], reverse=not asc)  # the tool's order, whichever
    n = min(measure.n, len(ranked))
    kept, cut = _with_ties(ranked, n)
    if measure.distinct is None:  # the value of one bucket also holds the next four ranked
        which = "quietest" if asc else "busiest"
        one, many, amount, more = f"{which} {unit}{where}", f"{which} {unit}s{where}", counted(cut, "lines"), 4
    else:
        most = f"{'fewest' if asc else 'most'} {_counted_noun(measure)}"
        one, many, amount, more = f"{unit} with the {most}{where}", f"{unit}s with the {most}{where}", f"{cut:,}", 0
    if measure.n == 1:
        return _peak(ranked[:len(kept) + more], kept, one, amount)
    shown = ", ".join(f"{t} ({c:,})" for t, c in kept[:n])
    return f"The {n} {many}: {shown}{_tied([str(t) for t, _ in kept[n:]], cut)}.", [list(p) for p in kept]


def _peak(ranked: list[tuple[Any, int]], kept: list[tuple[Any, int]], what: str, amount: str) -> tuple[str, Any]:
    """The one busiest (or quietest) bucket, `what` it is, with `amount`, or those `kept` tied as it; the value: the
    first `ranked`."""
    value = [list(p) for p in ranked]
    if len(kept) > 1:
        return f"Tied as the {what}, with {amount} each: {', '.join(str(t) for t, _ in kept)}.", value
    return f"The {what} starts at {kept[0][0]}, with {amount}.", value


def _with_ties(ranked: list[tuple[Any, int]], n: int) -> tuple[list[tuple[Any, int]], int]:
    """The first `n` buckets ranked and those tied with the last of them, and the count they are cut at."""
    cut = ranked[n - 1][1]
    return ranked[:n] + [p for p in ranked[n:] if p[1] == cut], cut


def _with_lines(pairs: list[tuple[Any, int]], where: str, unit: str) -> tuple[list[tuple[Any, int]], str]:
    """The buckets to rank quietest first: over all lines, those holding any (a day the log wrote nothing is a gap
    in it, no quiet day, so empty ones are left out, saying so); over some lines (errors), every one, 0 an answer."""
    lines = [p for p in pairs if p[1]]
    if where != ALL_LINES or not lines or len(lines) == len(pairs):
        return pairs, where
    return lines, f"{where[:-1]}; {unit}s without any line left out)"


def _tied(more: list[str], cut: int) -> str:
    """"; tied with the last at 7: a, b" (five named at most), or "" when none is."""
    if not more:
        return ""
    return f"; tied with the last at {cut:,}: {', '.join(more[:5])}{', ...' if len(more) > 5 else ''}"


_DID = {"count": "counted the lines", "unique": "counted the distinct {label}", "top": "ranked the {label}",
        "which": "ranked the {label}", "list": "listed the {label}", "histogram": "counted the lines per bucket",
        "show": "listed the matching lines"}


def partial(plan: Plan, text: str, value: Any) -> str:
    """`text` led by what was not answered, then what was, when part of the question went unanswered (a measure no
    tool computes yet, words linked to nothing): "I cannot compute a percentage yet: I counted the lines (with
    severity warning) (80)." `text` as it is otherwise."""
    missing = [plan.cannot.sentence()] if plan.cannot else []
    if unread := plan.unread():
        missing.append("I did not read " + ", ".join(f'"{w}"' for w in unread)
                       + (" (the lines show what came before, not a cause)" if isinstance(plan.measure, Preceding)
                          else ""))
    if not missing:
        return text
    shape = plan.interpretation().shape
    key = getattr(plan.measure, "key", None)
    did = _DID.get(shape, "answered").format(label=key.label if key is not None else "lines") + scope(plan)
    if isinstance(value, int) and shape in ("count", "unique"):
        return f"{'; '.join(missing)}: I {did} ({value:,})."
    return f"{'; '.join(missing)}: I {did}. {text}"
