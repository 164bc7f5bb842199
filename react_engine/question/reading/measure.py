"""What a question measures of the lines it keeps, and the `Query` it is read as: the filters, the measure, the
values left out of a ranking, the asked order and limit, and the asking words nothing read."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Literal

from react_engine.lexicon.entity_words import LABELS
from react_engine.lexicon.time_units import TIME_KEYS
from react_engine.question.asking import singular
from react_engine.question.interpretation import Term
from react_engine.question.measures import (
    Count,
    Distinct,
    Histogram,
    Key,
    Listing,
    Measure,
    Ordered,
    Patterns,
    Preceding,
    Rate,
    Share,
    Statistic,
    Timeline,
    Top,
    Unusual,
)
from react_engine.question.query import Filter, Grouping, LevelFilter, Query, TimeFilter
from react_engine.question.reading.draft import Draft, Side
from react_engine.question.reading.investigation_words import Investigation
from react_engine.question.reading.keys import key_of
from react_engine.question.reading.negation import leave_out
from react_engine.question.reading.threshold_words import is_threshold
from react_engine.question.vocabulary import Vocabulary

RANKED = ("top", "which", "unique", "list")  # goals that rank or count distinct values
VALUES_LISTED = 25  # the values a listing of values shows before saying how many more there are


def investigate(draft: Draft, measure: Investigation, problems: bool) -> None:
    """Make the reading an investigation: what is unusual in a time window is what first appears in it (so the
    window names a time, and the lines before it stay to compare with); `problems` asks about the lines at warning
    or above, unless a level was named."""
    draft.goal, draft.investigation = measure.kind, measure
    if problems and not any(isinstance(f, LevelFilter) for f in draft.filters):
        draft.filters.append(LevelFilter(min_level="warning", words="at warning or above"))
    if isinstance(measure, Unusual) and draft.window is not None:
        draft.investigation = Unusual(since=draft.window.start)
        draft.drop(TimeFilter)


def read_query(draft: Draft, columns: list[str], vocabulary: Vocabulary) -> tuple[Query, Measure] | None:
    """The query the draft's filters and goal make, and the measure its goal alone asks for (computed when no
    tool computes the asked one yet); None with the problem set when the rows cannot give it."""
    ranked = draft.goal in RANKED
    left_out = [] if ranked else _leave_out(draft, None, columns, vocabulary)
    measure = _measure(draft, columns, vocabulary) if left_out is not None else None
    if measure is not None and ranked:
        left_out = _left_out_of_ranked(draft, measure, columns, vocabulary)
    if measure is None or left_out is None:
        return None
    return _query(draft, measure, left_out, columns, vocabulary), measure


def _left_out_of_ranked(draft: Draft, measure: Measure, columns: list[str], vocabulary: Vocabulary
                        ) -> list[Filter] | None:
    """The filters that leave values out of a ranking or a distinct count of the measure's key (see `_leave_out`)."""
    key = getattr(measure, "key", None)
    return _leave_out(draft, key.name, columns, vocabulary) if key is not None else []


def _query(draft: Draft, measure: Measure, left_out: list[Filter], columns: list[str], vocabulary: Vocabulary
           ) -> Query:
    """The query of the draft's filters, the measure asked (else `measure`), its grouping, order and limit."""
    asked = draft.asked
    grouping = _grouping(draft, measure, columns, vocabulary)
    if asked.by and not (grouping.keys or grouping.bucket):  # "per program": a column; "by node" read otherwise
        grouping = _by_column(draft, asked.by)
    order, limit = _ranked_groups(draft, grouping)
    return Query(filters=tuple(sorted(draft.filters, key=is_threshold)), measure=asked.measure or measure,
                 left_out=tuple(left_out), order=asked.order or order, unread=tuple(draft.unread),
                 never=tuple(draft.never), grouping=grouping, limit=asked.limit or limit)


def _ranked_groups(draft: Draft, grouping: Grouping) -> tuple[Literal["most", "least"] | None, int | None]:
    """The order of a statistic's groups when a ranking asks for one, and how many groups it asks for: one for
    "which", the list's length for "top 3", all for "sorted ascending"."""
    if not isinstance(draft.asked.measure, (Statistic, Rate)) or grouping == Grouping() or draft.rank is None:
        return None, None
    return draft.rank, (1 if draft.goal == "which" else draft.n) if draft.limited else None


def _grouping(draft: Draft, measure: Measure, columns: list[str], vocabulary: Vocabulary) -> Grouping:
    """A statistic's, a rate's or a share's groups: the key a count would have been ranked by ("average latency per
    component") and, but for a rate, the bucket it would have been drawn in ("p95 per hour", "per logger per hour")."""
    if not isinstance(draft.asked.measure, (Statistic, Share, Rate)):
        return Grouping()
    rate = isinstance(draft.asked.measure, Rate)  # its bucket is the rate's own
    if draft.asked.keys:  # "by component and level", "per host per hour"
        return _two_keys(draft.asked.keys, rate)
    key = measure.key if isinstance(measure, (Top, Distinct)) else None
    if key is None and draft.goal == "histogram" and draft.target is not None and not _searched(draft.target, draft):
        key = key_of(draft, columns, vocabulary)
    return Grouping(keys=(_written(key.name, columns),) if key is not None else (),
                    bucket=draft.interval if draft.goal == "histogram" and not rate else None)


def _searched(target: str, draft: Draft) -> bool:
    """Whether the word a histogram would be drawn per is a word of a text the lines are searched for ("how many
    invalid user per hour": `Invalid user` names the lines counted, not a key)."""
    return any(re.search(rf"\b{re.escape(target)}\b", search, re.I) for search in draft.searches())


def _two_keys(keys: tuple[str, ...], rate: bool) -> Grouping:
    """The grouping two keys name: the time words among them are its bucket (but for a rate, whose bucket is its
    own), the others its keys."""
    buckets = [TIME_KEYS[k] for k in keys if k in TIME_KEYS]
    return Grouping(keys=tuple(k for k in keys if k not in TIME_KEYS), bucket=None if rate else next(iter(buckets), None))


def _written(key: str, columns: list[str]) -> str:
    """A group key as the groups are named: levels as the log writes them ("WARN", not "warning"), as a
    breakdown names them, where the rows keep them."""
    return "level" if key == "severity" and "level_raw" in columns else key


def _by_column(draft: Draft, by: str) -> Grouping:
    """The grouping "per program" names (a column, or a number the messages carry, as the measuring tool finds it)
    when no filter read the word; else none, and the words left unread (a partial answer, never a statistic of all
    the lines as if grouped)."""
    noun = singular(by.split()[-1])
    if not any(noun in f.words.lower() for f in draft.filters):
        return Grouping(keys=(noun,))
    draft.unread.append(by)
    return Grouping()


def _measure(draft: Draft, columns: list[str], vocabulary: Vocabulary) -> Measure | None:
    """What the draft's goal measures (None with the problem set when it cannot be measured here)."""
    asked = draft.asked.measure
    if draft.investigation is None and isinstance(asked, (Patterns, Unusual, Timeline, Preceding)):
        investigate(draft, asked, problems=False)  # "outliers", "categorize"
    if draft.investigation is not None:
        return draft.investigation
    if draft.goal == "histogram":
        order = {"most": "desc", "least": "asc", None: "time"}[draft.rank]
        distinct = None if draft.per_distinct is None else _side_key(draft, draft.per_distinct.counted, columns,
                                                                      vocabulary)
        if draft.per_distinct is not None and distinct is None:
            return None
        if draft.target is not None and draft.per_distinct is None and draft.asked.measure is None:
            draft.unread.append(LABELS.get(draft.target, draft.target))  # "the most blocks": lines are counted
        return Histogram(interval=draft.interval, peak=draft.peak, order=order, n=draft.n if draft.peak else 1,
                         distinct=distinct)
    if (lines := _listing(draft)) is not None:
        return lines
    return _of_values(draft, columns, vocabulary)


def _of_values(draft: Draft, columns: list[str], vocabulary: Vocabulary) -> Measure | None:
    """The count of lines, or what the draft's goal measures of its target's values: how many distinct, their
    list, or their ranking (None with the problem set when there is no target to rank, or no key for it)."""
    if draft.target is None and draft.goal in ("top", "which"):
        draft.problem = "I could not tell what to rank"
        return None
    if draft.target is None or draft.goal == "count":
        return Count()
    per = draft.per_distinct.per if draft.per_distinct is not None else None
    key = key_of(draft, columns, vocabulary) if per is None else _side_key(draft, per, columns, vocabulary)
    if key is None:
        return None
    draft.terms.append(Term(word=key.shown(), column=key.name))
    if draft.goal == "unique":
        return Distinct(key=key)
    if draft.goal == "list" and draft.asked.order is not None:  # "the first src", "the last 3 users"
        return Ordered(key=key, which=draft.asked.order, n=draft.asked.limit or 1)
    if draft.goal == "list":  # "which nodes had X", "list the distinct ports": the set, up to a screenful
        return Listing(key=key, limit=VALUES_LISTED)
    return _ranked(draft, key, columns, vocabulary)


def _ranked(draft: Draft, key: Key, columns: list[str], vocabulary: Vocabulary) -> Top | None:
    """The ranking of the key's values by their lines, or by the distinct values of another key on them (None
    with the problem set when the rows hold none of those)."""
    top = Top(key=key, n=draft.n, single=draft.goal == "which", least=draft.rank == "least")
    if draft.per_distinct is None:
        return top
    distinct = _side_key(draft, draft.per_distinct.counted, columns, vocabulary)
    return top.model_copy(update={"distinct": distinct}) if distinct is not None else None


def _side_key(draft: Draft, side: Side, columns: list[str], vocabulary: Vocabulary) -> Key | None:
    """The key of one side of distinct values per value, of the role its own words give (None with the problem
    set when the rows hold none)."""
    read = replace(draft, subject=side.subject, target=side.target, role=side.role)
    key = key_of(read, columns, vocabulary)
    draft.problem = read.problem
    return key


def _listing(draft: Draft) -> Listing | None:
    """The lines themselves, when the question shows or lists lines rather than values."""
    order = draft.asked.order
    if order is not None and draft.target is None and draft.goal in ("show", "list", "count"):
        draft.goal = "show"  # "the last 3 errors", "show the latest error"
        return Listing(order=order, limit=draft.asked.limit or draft.n)
    if draft.goal == "show" and draft.target is None:
        return Listing(limit=draft.n)
    if draft.goal == "show":
        draft.goal = "list"  # "list the modems ..." asks for the modems, not the lines
    if draft.target is None and draft.goal == "list":
        draft.goal = "show"
        return Listing(limit=10)
    return None


def _leave_out(draft: Draft, ranked: str | None, columns: list[str], vocabulary: Vocabulary) -> list[Filter] | None:
    """The filters that drop the lines of each value the question leaves out; None (the problem set) when the
    rows hold one nowhere."""
    found = []
    for value in draft.excluded:
        left = leave_out(value, ranked, columns, vocabulary)
        if left is None:
            draft.problem = f'I could not find "{value.text}" in these logs to leave it out'
            return None
        found.append(left)
    return found
