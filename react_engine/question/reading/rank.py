"""Which way a ranking runs: the values with the fewest lines or the lowest statistic ("which logger has the least
errors", "the 3 rarest users", "which service has the lowest average latency"), an order asked in words ("sorted
ascending", "highest first"), and the time bucket a statistic's peak is asked of ("which hour had the highest
median latency")."""

from __future__ import annotations

import re
from collections.abc import Callable

from react_engine.lexicon.entity_words import KEY_ALIASES
from react_engine.lexicon.rank_words import (
    COUNTING,
    HIGH,
    LINE_COUNTS,
    LOW,
    RANKING_SUPERLATIVES,
    SORT_ORDERS,
    SORT_VERBS,
)
from react_engine.lexicon.statistic_words import STATISTICS
from react_engine.lexicon.time_units import TIME_KEYS, unit_names
from react_engine.logs.schema import CANONICAL_COLUMNS, INTERNAL_COLUMNS
from react_engine.question.asking import SPREAD
from react_engine.question.measures import Statistic
from react_engine.question.reading.draft import Draft
from react_engine.question.reading.question import Question, amount
from react_engine.question.reading.shape import OF_A_FIELD, SEVERAL, TERSE_FEWEST

_LOW = "|".join(LOW)
_HIGH = "|".join(HIGH)
_LEAST = r"(?<!\bat )\b(?:" + _LOW + r")\b|\bbottom\b"
# "sorted ascending", "in descending order", "lowest first", "from highest to lowest", "sorted by count"
_SORTED = (r"\b(?:(?:" + "|".join(SORT_VERBS) + r"|sort|order)\s+(?:by\s+[\w ]+?\s+)?)?(?:in\s+)?("
           + "|".join(SORT_ORDERS) + r")(?:\s+order)?\b|\b(" + _LOW + "|" + _HIGH + r")\s+(?:first|on top|to (?:the\s+)?(?:"
           + _LOW + "|" + _HIGH + r"))\b|\bfrom (?:the\s+)?(" + _LOW + "|" + _HIGH + r")\s+to\s+(?:the\s+)?(?:"
           + _LOW + "|" + _HIGH + r")\b|\b(?:" + "|".join(SORT_VERBS) + r")\s+by\s+(?:the\s+)?(" + "|".join(LINE_COUNTS) + r")\b")
_BUCKET = r"^\s*(?:which|what|in which|during which)\s+(" + unit_names("minute", "day") + r")\b"


def read_rank(q: Question, draft: Draft) -> None:
    """Set the draft's `rank` (most or least) from the order words, and read "which X has the least ..." as a
    ranking of X from the fewest; the words read become consumed."""
    if _sorted(q, draft):
        return
    if draft.target is None or draft.goal not in ("list", "which", "top") or q.has(OF_A_FIELD) or q.has(SPREAD):
        return  # "the lowest and highest size" asks both ends of the values, no ranking
    if q.has(_LEAST) and q.has(r"^\s*(?:which|what|who)\b|\btop\b|\bbottom\b|" + TERSE_FEWEST):
        _from_the_fewest(q, draft)
    elif q.has(_HIGH) or q.has(r"\btop\b"):
        draft.rank, draft.limited = "most", True


def _sorted(q: Question, draft: Draft) -> bool:
    """Read an order asked in words ("sorted ascending", "highest first"); whether one is."""
    if found := q.take(_SORTED):
        word = next(g for g in found[0].groups() if g).lower()
        draft.rank = "least" if word.startswith("asc") or re.fullmatch(_LOW, word) else "most"
    return bool(found)


def _from_the_fewest(q: Question, draft: Draft) -> None:
    """"Which X has the least ...", "the bottom 3 X": a ranking from the fewest, of the number of values named."""
    draft.rank, draft.limited = "least", True
    several = q.take(r"\b(?:which|what|top|bottom|the)\s+(" + SEVERAL + r")\b(?=.*(?:" + _LEAST + "))")
    if several:
        draft.goal, draft.n = "top", amount(several[0].group(1))
    elif draft.goal != "top":  # "the 2 rarest users" was read as a ranking of 2 already
        draft.goal = "which"
    q.take(_LEAST)


def read_peak_bucket(q: Question, draft: Draft) -> None:
    """"Which hour had the highest median latency": the statistic per hour, the highest first, the first asked
    (read once the asking words are: a count per hour is a histogram, read as such)."""
    if not isinstance(draft.asked.measure, Statistic) or draft.target is not None:
        return
    if not (q.has(_LEAST) or q.has(_HIGH)):
        return
    if m := q.take(_BUCKET):
        draft.goal, draft.interval = "histogram", TIME_KEYS[m[0].group(1).lower()]
        draft.rank, draft.n = "least" if q.take(_LEAST) else "most", 1
    elif not draft.peak:  # "the busiest hour" was read as a histogram's peak (and its direction): here, the
        return  # statistic's
    q.take(_LEAST)
    draft.limited = True


_BY_FIELD = (r"\b(" + "|".join(w for w in (*HIGH, *LOW) if w not in (*RANKING_SUPERLATIVES, "quietest"))
             + r")\s+(?:(?:average|avg|mean|median|total)\s+)?([A-Za-z][\w.-]*)")
# "top 3 client ips by bytes", "top users by average latency": ranked by the total (or the statistic named)
_RANKED_BY = (r"(?<=\w)\s+by\s+(?:the\s+)?(?:(total|sum|average|avg|mean|median|max|maximum)\s+(?:of\s+)?)?"
              r"([A-Za-z][\w.-]*)\s*[?.]*\s*$")
_NOT_MEASURES = frozenset((*CANONICAL_COLUMNS, *INTERNAL_COLUMNS))  # columns that hold no measure


def read_ranked_field(q: Question, draft: Draft, columns: list[str], fields: Callable[[], list[str]]) -> None:
    """"Which request had the highest latency": the values of the target ranked by the max (or, "lowest", the min)
    of the numeric field named (a column or a number the messages carry, `fields()`: found in the sampled messages
    only when a ranking names a word to look for); "which user had the slowest
    average latency": the statistic asked, ranked from the highest. Nothing when no such field is named."""
    if draft.target is None or draft.goal not in ("list", "which", "top"):
        return
    if draft.goal == "top" and draft.asked.measure is None and (by := re.search(_RANKED_BY, q.text, re.I)):
        _ranked_by(q, draft, by, columns, fields)
    elif (m := re.search(_BY_FIELD, q.text, re.I)) is not None and _numeric(m.group(2), columns, fields):
        _by_superlative(q, draft, m, columns)


def _by_superlative(q: Question, draft: Draft, m: re.Match[str], columns: list[str]) -> None:
    """"The highest latency": its maximum per value; "the most bytes": their total; or the statistic asked."""
    if not _column(draft.target, columns):  # an entity's values ("which request"), not a column's: no statistic
        _unread(draft, m.group(2))
        return
    word = m.group(1).lower()
    low = word in LOW
    if draft.asked.measure is None:
        func = "sum" if word in COUNTING else "min" if low else "max"
        draft.asked.measure = Statistic(func=func, field=m.group(2))
    elif not isinstance(draft.asked.measure, Statistic):
        return
    q.take(re.escape(m.group(1)))
    q.take(r"(?<=" + re.escape(m.group(1)) + r" )\s*" + re.escape(m.group(2)))
    draft.unread = [w for w in draft.unread if w.lower() != word]  # read here, after the asking words were
    draft.rank, draft.limited = ("least" if low else "most"), True
    draft.goal = "which" if draft.goal == "list" else draft.goal


def _unread(draft: Draft, word: str) -> None:
    draft.unread += [] if word in draft.unread else [word]


def _ranked_by(q: Question, draft: Draft, by: re.Match[str], columns: list[str],
               fields: Callable[[], list[str]]) -> None:
    """"Top 3 client ips by bytes": the values ranked by the total of the field (or the statistic named); an
    entity's values no statistic groups leave the field unread."""
    if not _numeric(by.group(2), columns, fields):
        return
    if not _column(draft.target, columns):
        _unread(draft, by.group(2))
        return
    q.take(re.escape(by.group(0).strip()))
    named = (by.group(1) or "total").lower()
    draft.asked.measure = Statistic(func="sum" if named == "total" else STATISTICS[named], field=by.group(2))
    draft.rank, draft.limited = "most", True


def _column(target: str | None, columns: list[str]) -> bool:
    """Whether the values ranked are a column's (or a name the tools read as one: `ip` for `client_ip`)."""
    return target in columns or KEY_ALIASES.get(target or "") in columns


def _numeric(word: str, columns: list[str], fields: Callable[[], list[str]]) -> bool:
    """Whether `word` names a column that may hold numbers (`latency` for `latency_ms`) or a field of the messages."""
    key = word.lower().replace("-", "_")

    def named(names: list[str]) -> bool:
        return any(name.lower() == key or name.lower().startswith(key + "_") for name in names)

    return named([c for c in columns if c not in _NOT_MEASURES]) or named(fields())


def read_most_per_bucket(q: Question, draft: Draft) -> None:
    """"Which cmts had the most T3 timeouts per hour": the lines counted per value and bucket, the group with the
    most (or, "fewest", the least) first, where a histogram of all lines would drop the value asked for."""
    if draft.goal != "histogram" or draft.peak or draft.target is None or draft.asked.measure is not None:
        return
    if not q.has(r"^\s*(?:which|what|who)\b") or not (q.has(_HIGH) or q.has(_LEAST)):
        return
    draft.asked.measure = Statistic(func="count", field="")
    draft.rank, draft.limited, draft.n = ("least" if q.take(_LEAST) else "most"), True, 1
