"""What a question measures: one frozen model per kind, joined in the `Measure` union on `kind`.

Each measure says in `asked` how the answer names it ("a percentage", "the 95th percentile of request time") and in
`needs` which tools compute it: the engine treats a measure whose tools did not run as unanswered (a partial
answer), so a measure added here before its tools exist is honest from the start.

Adding a measure: declare its model below (a `kind` literal, its parameters, `asked`), add it to `Measure`, then
mypy lists every `match` that must handle it (the rules planner's compile step and its answer wording).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from react_engine.lexicon.measure_units import STATED_UNITS
from react_engine.lexicon.statistic_words import STATISTIC_NAMES, StatisticFunc
from react_engine.lexicon.time_units import BUCKET_WORDS

Order = Literal["oldest", "newest"]


class _Measure(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    needs: tuple[str, ...] = ()  # the tools that compute it; () for the measures every run can compute

    def asked(self) -> str:
        """What was asked, as the answer's "I cannot compute ... yet" names it."""
        raise NotImplementedError


class Key(BaseModel):
    """What values are counted or ranked: a column or entity type the tools know (`name`), how the answer names
    them (`label`), and, when no built-in type finds them, the regex whose first group does (`pattern`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    label: str = ""
    pattern: str | None = None
    extract: bool = False  # extract the values before counting them (built-in entity types counted or listed)

    def shown(self) -> str:
        return self.label or self.name


# -- lines and values: computed by the tools every run has ------------------------------------------------------


class Count(_Measure):
    """How many lines match."""

    kind: Literal["count"] = "count"

    def asked(self) -> str:
        return "a count of lines"


class Distinct(_Measure):
    """How many different values of `key` (an entity type or a column) the matching lines hold."""

    kind: Literal["distinct"] = "distinct"
    key: Key

    def asked(self) -> str:
        return f"the number of distinct {self.key.shown()}"


class Top(_Measure):
    """The `n` values of `key` with the most (or, `least`, the fewest) lines, or with `distinct`, the most distinct
    values of that other key on their lines ("which user has the most distinct ports"); `single` asks for the
    leader only."""

    kind: Literal["top"] = "top"
    key: Key
    n: int = Field(5, ge=1)
    least: bool = False
    single: bool = False
    distinct: Key | None = None

    def asked(self) -> str:
        most = "fewest" if self.least else "most"
        if self.distinct is not None:
            return f"the {self.key.shown()} with the {most} distinct {self.distinct.shown()}"
        return f"the {'least' if self.least else 'most'} frequent {self.key.shown()}"

    def keys(self) -> tuple[Key, ...]:
        """The keys whose values it reads: the ranked one, and the one counted distinct."""
        return (self.key,) if self.distinct is None else (self.key, self.distinct)


class Histogram(_Measure):
    """Lines per time bucket (`interval`: 1m, 1h, 1d...), or with `distinct` the distinct values of that key the
    lines of each bucket hold ("distinct users per day")."""

    kind: Literal["histogram"] = "histogram"
    interval: str = "1h"
    peak: bool = False  # the busiest bucket, or the `n` busiest, is what is asked ("busiest hour")
    order: Literal["time", "desc", "asc"] = "time"  # the buckets busiest first (desc) or quietest first (asc)
    n: int = Field(1, ge=1)
    distinct: Key | None = None

    def asked(self) -> str:
        what = f"distinct {self.distinct.shown()}" if self.distinct is not None else "lines"
        if not self.peak:
            return f"{what} per {self.interval}"
        which = "quietest" if self.order == "asc" else "busiest"
        return f"the {which} {self.interval}" if self.n == 1 else f"the {self.n} {which} {self.interval} buckets"


class Listing(_Measure):
    """The matching lines (or, with `key`, the values of `key`), `limit` of them from the `order` end."""

    kind: Literal["listing"] = "listing"
    key: Key | None = None
    order: Order = "oldest"
    limit: int = Field(10, ge=1)

    def asked(self) -> str:
        what = self.key.shown() if self.key else "lines"
        return f"the {'newest' if self.order == 'newest' else 'first'} {self.limit} {what}"


class Ordered(_Measure):
    """The values of `key` on the first (or last) lines that hold one, in the order they were logged: "the first
    src when receiving block", "the last 3 ports"."""

    kind: Literal["ordered"] = "ordered"
    key: Key
    which: Order = "oldest"
    n: int = Field(1, ge=1)
    needs: tuple[str, ...] = ("ordered_values",)

    def asked(self) -> str:
        which = "first" if self.which == "oldest" else "last"
        return f"the {which} {self.key.shown()}" if self.n == 1 else f"the {which} {self.n} {self.key.shown()}"


class Never(_Measure):
    """The distinct values of `key` on the matching lines that no line of another event holds: the lines holding the
    text `never` (a regex when `regex`), at `level` when given ("IP addresses that failed but never an accepted
    one"); `listed` asks for the values ("which users"), else how many."""

    kind: Literal["never"] = "never"
    key: Key
    never: str = ""
    regex: bool = False
    level: str | None = None
    listed: bool = False
    words: str = ""  # the other event as the question says it
    needs: tuple[str, ...] = ("never_seen",)

    def asked(self) -> str:
        return f"the {self.key.shown()} that never {self.words}"


# -- analytics: a statistic of a field, times, shares, comparisons ----------------------------------------------


class Statistic(_Measure):
    """`func` of a numeric field, `field` as the question words it ("request time"), resolved later against the
    log's numeric fields; `q` the percentile (0-100) when `func` is percentile; with `spread`, the minimum and the
    maximum both."""

    kind: Literal["statistic"] = "statistic"
    func: StatisticFunc
    field: str
    q: float | None = Field(None, ge=0, le=100)
    spread: bool = False  # the lowest and the highest value both asked ("the min and max size", "the range of")
    unit: str | None = None  # the unit the value is asked in ("in minutes"), as an answer writes it
    needs: tuple[str, ...] = ("field_stats",)

    def asked(self) -> str:
        field = self._field()
        if self.spread:
            return f"the lowest and highest {field or 'value'}"
        name = _named(self.func, self.q)
        if self.func == "count" and not self.field:
            return "the number of lines"
        return f"the {name} of {field}" if field else f"{'an' if name[0] in 'aeiou' else 'a'} {name}"

    def _field(self) -> str:
        """The field as the answer names it: without the unit the value is asked in ("latency ms": latency)."""
        words = self.field.rsplit(maxsplit=1)
        return words[0] if self.unit and len(words) == 2 and words[1].lower() in STATED_UNITS else self.field


def _named(func: StatisticFunc, q: float | None) -> str:
    """A statistic as an answer names it: "average", "95th percentile"."""
    if func == "percentile":
        return f"{q:g}th percentile" if q is not None else "percentile"
    return STATISTIC_NAMES.get(func, func)


class Rate(_Measure):
    """`func` of how many matching lines each time bucket `per` (1s, 1m, 1h, 1d) holds, over every bucket from the
    first matching line's to the last's, the empty ones 0: "average errors per hour", "peak requests per minute";
    `noun` names the lines counted as the question does ("failed logins")."""

    kind: Literal["rate"] = "rate"
    func: StatisticFunc
    per: str = "1h"
    q: float | None = Field(None, ge=0, le=100)
    noun: str = "lines"
    needs: tuple[str, ...] = ("field_stats",)

    def asked(self) -> str:
        name = _named(self.func, self.q)
        joined = "number of" if self.func in ("mean", "median", "min", "max", "sum") else "of"
        return f"the {name} {joined} {self.noun} per {BUCKET_WORDS.get(self.per, self.per)}"


class Occurrence(_Measure):
    """When the matching lines first or last occur."""

    kind: Literal["occurrence"] = "occurrence"
    which: Literal["first", "last"]
    needs: tuple[str, ...] = ("time_span",)

    def asked(self) -> str:
        return f"when it {'first' if self.which == 'first' else 'last'} happened"


class Span(_Measure):
    """How long the matching lines span, first to last."""

    kind: Literal["span"] = "span"
    needs: tuple[str, ...] = ("time_span",)

    def asked(self) -> str:
        return "how long it lasted"


class Gaps(_Measure):
    """The silences between matching lines (those over `at_least`, e.g. "5m", when given)."""

    kind: Literal["gaps"] = "gaps"
    at_least: str | None = None
    needs: tuple[str, ...] = ("gaps",)

    def asked(self) -> str:
        return "the gaps between lines"


class Duration(_Measure):
    """The time from a `start` event to an `end` event (search texts), per value of `key` when given."""

    kind: Literal["duration"] = "duration"
    start: str
    end: str
    key: str | None = None
    needs: tuple[str, ...] = ("durations",)

    def asked(self) -> str:
        return f'the time from "{self.start}" to "{self.end}"' if self.start else "a duration"


class Share(_Measure):
    """The matching lines as a share of the `base` lines (all lines when `base` is empty)."""

    kind: Literal["share"] = "share"
    base: tuple[str, ...] = ()  # the base's words, when not all lines
    of_all: bool = False  # all lines are named as the base ("what percent of lines are ..."), not the filters' scope
    ratio: bool = False  # two kinds of lines divided ("ratio of errors to warnings per logger"), not a share
    needs: tuple[str, ...] = ("share",)

    def asked(self) -> str:
        return "a percentage"


class Comparison(_Measure):
    """Two sides compared: two time windows (`left`/`right` as windows' words) or two values of `key`."""

    kind: Literal["comparison"] = "comparison"
    left: str
    right: str
    key: str | None = None
    ratio: bool = False  # the left side's measure divided by the right's is asked ("ratio of errors to warnings")
    difference: bool = False  # the left side's measure less the right's is asked ("how many more errors than warnings")
    statistic: Statistic | None = None  # what is compared, when not the lines ("average latency for alice vs bob")
    needs: tuple[str, ...] = ("compare",)

    def asked(self) -> str:
        if self.ratio:
            return f"the ratio of {self.left} to {self.right}"
        if self.difference:
            return f"how many more {self.left} than {self.right}"
        return f"a comparison of {self.left} with {self.right}" if self.left and self.right else "a comparison"


class Pivot(_Measure):
    """Lines per value of `rows` and of `columns` (a two-way breakdown)."""

    kind: Literal["pivot"] = "pivot"
    rows: str
    columns: str
    needs: tuple[str, ...] = ("field_stats",)

    def asked(self) -> str:
        return f"a breakdown by {self.rows} and {self.columns}"


# -- investigation: patterns, what is unusual, an entity's timeline, what came before ----------------------------


class Patterns(_Measure):
    """The kinds of message the matching lines hold ("what kinds of errors", "summarize")."""

    kind: Literal["patterns"] = "patterns"
    needs: tuple[str, ...] = ("message_patterns",)

    def asked(self) -> str:
        return "the kinds of messages"


class Unusual(_Measure):
    """What is rare or new (first seen after `since`, when given)."""

    kind: Literal["unusual"] = "unusual"
    since: str | None = None
    needs: tuple[str, ...] = ("message_patterns", "unusual")

    def asked(self) -> str:
        return "what is unusual or new"


class Timeline(_Measure):
    """What happened to one entity (`key` = `value`) over time."""

    kind: Literal["timeline"] = "timeline"
    key: str | None = None
    value: str
    needs: tuple[str, ...] = ("entity_timeline",)

    def asked(self) -> str:
        return f"a timeline of {self.value}"


class Preceding(_Measure):
    """The lines before each matching line ("why did X", "what happened before X")."""

    kind: Literal["preceding"] = "preceding"
    lines: int = Field(10, ge=1)
    needs: tuple[str, ...] = ("preceding",)

    def asked(self) -> str:
        return "what led up to it"


Measure = Annotated[
    Count | Distinct | Top | Histogram | Listing | Ordered | Never | Statistic | Rate | Occurrence | Span | Gaps | Duration | Share
    | Comparison | Pivot | Patterns | Unusual | Timeline | Preceding,
    Field(discriminator="kind"),
]
