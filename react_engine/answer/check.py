"""Checking an answer against what the tools computed, and picking the log lines behind it.

The grounding rule: which numbers count as computed.

- Computed are the finite JSON numbers (int or float, not bool) anywhere in a successful tool's `value` (list
  items, dict values: a count, a statistic, a rank's count, a share) and the row count each step leaves
  (`rows_out`). Nothing else is.
- Text never computes a number. The digits in a log line (`show_logs`), in a value's text (a host, a message, a
  pid "2227" ranked by `top_values`), in a dict key or in a filter's phrase are names: an answer may write the
  name whole, and then its digits are the name, not numbers. A name of digits alone counts only right after its
  field's name ("pid 2227"), after `#`, or before its count ("2227 (5)"); a filter's phrase with spaces only in
  quotes, and a filter's phrases only while that filter shapes the answer's rows (no later step widened them
  again: reset_filters, an empty search).
- A value's text that reads as a quantity alone (a host `812ms`, a field's text `"812 ms"`, pid `2227`) is a
  name only where the answer uses it as that value's name (`react_engine.answer.names`), never as a quantity of
  another measure: "the p95 latency is 812ms" states 0.812 s, checked like any number.
- Numbers are read in every written form (`2k`, `2e6`, `2 x 10^6`, `2 million`, `two thousand`:
  `react_engine.answer.quantities`) and each must be a computed number (or one the question gives) rounded to the
  digits it shows: within half a unit in its last shown digit (`1.13` and `1.1` of 1.1325, `34%` of 33.9362, never
  `1.15`, `33.85%`, or `0.05` of 0.03). A number written more precisely than a computed one is that number.
- A percentage stands when a tool computed it (a share) or, when the question asks for a share, as 100*a/b to the
  digits it shows for two computed counts a and b the answer states ("5 of 40 lines (12.5%)"); never as a ratio of
  two computed numbers the answer does not name.
- A duration in an answer ("4 h 17 min 14 s", "90 minutes") is one quantity in seconds: a tool holds a duration
  as a JSON number of seconds (`{"seconds": 15434}`), which grounds any way of writing it to the smallest unit
  the answer uses. A one-unit duration also stands when its number is computed ("5 hours" of an hourly count),
  and the question's durations and active time filters' (now-2h) repeat. A size ("95,746 MB", "1.15 GiB") is
  likewise one quantity in bytes, grounded by a computed number of bytes to the step it writes, or by its number.
- A time is never a number: a tool holds a time as ISO 8601 text (`pd.Timestamp.isoformat()`). Every time an
  answer states (`2026-11-20T10:00`, `Nov 20`, `10:00:03`) must agree, in the fields it gives, with a time in a
  tool value's text, in an active filter's parameters or summary, or in the question.
"""

from __future__ import annotations

import bisect
import math
import re
import time
from collections.abc import Iterable
from typing import Any

import pandas as pd
from pydantic import BaseModel, Field

from react_engine.answer.grounds import (
    computed_numbers,
    computed_shares,
    found_something,
    leaves,
    reports_nothing,
    texts_of,
)
from react_engine.answer.names import Name, Names, alternatives
from react_engine.answer.quantities import Moment, Quantity, Reading, numbers_in, read, times_in
from react_engine.contract.record import Evidence
from react_engine.logs.text import entry_text
from react_engine.rows.rowops import count, head, take
from react_engine.rows.snippets import cut, json_text

# An answer that gives none and asks for the question again; the questions it suggests are quoted.
_DECLINED = re.compile(r"\b(?:could not|couldn't|cannot|can't|unable to) answer\b|\bplease rephrase\b", re.I)
_QUOTED = re.compile(r'"[^"\n]*"|“[^”\n]*”')
_RELATIVE = re.compile(r"\bnow\s*-\s*(\d+(?:\.\d+)?\s*[A-Za-z]+)")
_LEFT_OUT = "left out"  # a caveat that says what the value leaves out
_SHARE_ASKED = re.compile(r"%|\bper\s?cent|\bpercentages?\b|\bshares?\b|\bproportions?\b|\bfractions?\b"
                          r"|\bratios?\b", re.I)


class Verdict(BaseModel):
    verified: bool
    unmatched: list[float] = Field(default_factory=list)
    unmatched_text: list[str] = Field(default_factory=list)  # the unmatched numbers and times, as the answer wrote them
    computed: list[float] = Field(default_factory=list)
    contradicted: bool = False  # the answer says none after the last tool found something
    unstated: bool = False  # the answer states no number, no value and no name a tool returned: nothing to check
    nothing: bool = False  # no tool computed anything
    unchecked: str | None = None  # why the answer could not be checked (too long to check in time)

    def warning(self, last_action: str | None = None, last_value: Any = None) -> str | None:
        """The one-line reason the answer is unverified (at most a few of its numbers), or None."""
        if self.contradicted and last_action is not None:
            return f"unverified: the answer says none, but {last_action} found {cut(json_text(last_value), 80)}"
        if self.nothing:
            return "unverified: no tool computed anything this answer could rest on"
        if self.unchecked:
            return f"unverified: {self.unchecked}"
        if self.unstated:
            return "unverified: the answer states no number or value that a tool computed"
        return self._unmatched_words() if self.unmatched_text else None

    def _unmatched_words(self) -> str:
        shown = ", ".join(cut(t, 40) for t in self.unmatched_text[:_SHOWN])
        more = f" and {len(self.unmatched_text) - _SHOWN:,} more" if len(self.unmatched_text) > _SHOWN else ""
        return (f"unverified: the answer states {shown}{more}, which no tool computed in this run (computed "
                f"values include {', '.join(f'{n:g}' for n in self.computed[:_SHOWN])})")


_SHOWN = 8



class _Pool:
    """Computed numbers, sorted, so that a stated number is looked up in logarithmic time (`asked_for`: shares
    the question asks for)."""

    def __init__(self, numbers: Iterable[float]) -> None:
        self.sorted = sorted(set(numbers))
        self.asked_for = False

    def asked(self) -> _Pool:
        self.asked_for = True
        return self

    def near(self, a: float, tolerance: float) -> list[float]:
        lo = bisect.bisect_left(self.sorted, a - tolerance)
        hi = bisect.bisect_right(self.sorted, a + tolerance)
        return self.sorted[lo:hi]

    def between(self, lo: float, hi: float) -> bool:
        return bisect.bisect_left(self.sorted, lo) < bisect.bisect_right(self.sorted, hi)

    def close(self, a: float, step: float) -> bool:
        """`a` is a number of the pool rounded to `step` (one unit in the last digit it shows): within half of it."""
        return bool(self.near(a, step / 2 + 1e-9 * abs(a) + 1e-12))

    def ratio(self, percent: float, step: float) -> bool:
        """`percent` is 100·a/b, rounded to `step`, for two numbers a and b > 0 of the pool."""
        return any(b > 0 and self.near(percent * b / 100, (step / 2) * b / 100 + 1e-9 * b) for b in self.sorted)


def verify(answer: str, value: Any, computed: list[Any], question: str, latest: Any = None,
           filtered: Iterable[str | Name] = (), *, times: Iterable[str] = (),
           deadline: float | None = None) -> Verdict:
    """Every number in the answer (and the value) must be one a tool computed in this run (the rule in this
    module's docstring), every time one a tool, a filter or the question gave, and an answer of none (a zero,
    "no ...") must not follow a `latest` tool value that found something.

    Numbers that merely repeat the question ("in the last 2 hours") are allowed, and so are the digits of a name
    (`filtered`: the names of the filters that shape the rows; the texts of the `computed` values) written whole,
    and those of the questions an answer that gives no value suggests in quotes when it asks to rephrase. Past
    `deadline` (time.monotonic()) the check stops and the answer is unverified.
    """
    pool = _Pool(n for v in computed for n in computed_numbers(v))
    times, filtered = list(times), list(filtered)
    try:
        stated = _stated(answer, value, _names(filtered, computed), deadline)
        unmatched = _unmatched(stated.quantities, pool, _asked(question, times), deadline,
                               _shares(computed, question))
        known = _known(question, times, filtered, computed)
    except TimeoutError:
        return Verdict(verified=False, computed=pool.sorted[:20], nothing=not computed,
                       unchecked="the answer was too long to check within the time limit")
    mismatched = [*(q.text for q in unmatched), *(t for t, m in stated.moments if not known.agrees(m))]
    return _judged(answer, value, computed, latest, stated, mismatched,
                   Verdict(verified=False, unmatched=sorted({q.value for q in unmatched}), computed=pool.sorted[:20]))


def _shares(computed: list[Any], question: str) -> _Pool:
    """The percentages the tools computed (and whether the question asks for one)."""
    shares = _Pool(n for v in computed for n in computed_shares(v))
    return shares if _SHARE_ASKED.search(question) is None else shares.asked()


def _known(question: str, times: list[str], filtered: list[str | Name], computed: list[Any]) -> _Moments:
    """The times an answer may state: the question's, the active filters' and the computed values' texts."""
    return _Moments([question, *times, *(str(getattr(f, "text", f)) for f in filtered),
                     *(t for v in computed for t in texts_of(v))])


def _judged(answer: str, value: Any, computed: list[Any], latest: Any, stated: Reading, mismatched: list[str],
            verdict: Verdict) -> Verdict:
    """`verdict` completed: an answer of none after a value that found something is contradicted, one that states
    nothing a tool returned is unstated, and it is verified only when computed values back all it states."""
    numbers = [q.value for q in stated.quantities]
    verdict.contradicted = _says_none(answer, value, numbers) and found_something(latest)
    verdict.unstated = bool(computed) and not numbers and not stated.moments and _names_none(answer, value, computed)
    verdict.unmatched_text, verdict.nothing = mismatched, not computed
    verdict.verified = bool(computed) and not mismatched and not verdict.contradicted and not verdict.unstated
    return verdict


def _names_none(answer: str, value: Any, computed: list[Any]) -> bool:
    """The answer has no value, does not say none was found and writes no text of a computed value."""
    return value is None and not reports_nothing(answer, value) and not _names_any(answer, computed)


def _says_none(answer: str, value: Any, numbers: list[float]) -> bool:
    """The answer says nothing was found, or states only zeros."""
    return (reports_nothing(answer, value) or bool(numbers)) and all(n == 0 for n in numbers)


def _names(filtered: Iterable[str | Name], computed: list[Any]) -> Names:
    """The names an answer may write whole: the filters' names (each way of writing a bare phrase) and the texts
    of the computed values."""
    phrases = [n for f in filtered for n in ([f] if isinstance(f, Name) else [Name(a) for a in alternatives(f)])]
    return Names([*phrases, *(Name(t) for v in computed for t in texts_of(v))], numbered=True)


def _names_any(answer: str, computed: list[Any]) -> bool:
    """The answer writes some text of a computed value."""
    return bool(Names(Name(t) for v in computed for t in texts_of(v)).spans(answer, anywhere=True))


def _asked(question: str, times: list[str]) -> Reading:
    """The quantities the question gives, with the durations of the active time filters (now-24h)."""
    asked = read(question)
    asked.quantities += [q for t in times for span in _RELATIVE.findall(t) for q in read(span).quantities
                         if q.kind == "duration"]
    return asked


def _stated(answer: str, value: Any, names: Names, deadline: float | None) -> Reading:
    """The quantities and times the answer and its value state, names written whole left out."""
    text = names.blank(answer, deadline)
    if value is None and _DECLINED.search(answer):  # its quoted example questions claim nothing
        text = _QUOTED.sub(" ", text)
    stated = read(text)
    for leaf in leaves(value):
        if isinstance(leaf, str) and leaf not in names:
            stated.extend(read(names.blank(leaf, deadline)))
        elif isinstance(leaf, (int, float)) and not isinstance(leaf, bool):
            stated.quantities.append(Quantity(float(leaf), text=f"{leaf:g}", step=_shown_step(leaf)))
    return stated


def _shown_step(number: float) -> float:
    """One unit in the last digit of a value's number as JSON writes it (its shortest form): 0.01 for 1.13."""
    if isinstance(number, int):
        return 1.0
    if not math.isfinite(number):
        return 0.0
    mantissa, _, exponent = repr(number).lower().partition("e")
    return 10.0 ** (int(exponent or 0) - len(mantissa.partition(".")[2]))


def _unmatched(quantities: list[Quantity], pool: _Pool, asked: Reading, deadline: float | None,
               shares: _Pool | None = None) -> list[Quantity]:
    """The stated quantities that no tool computed and the question (or an active filter's duration) does not
    give: a percentage must be one of the `shares` computed or, when the question asks for a share
    (`shares.asked_for`), 100·a/b of two computed counts the answer states."""
    given = _asked_numbers(asked)
    shares = shares or _Pool(())
    counts = _counts(quantities, pool) if shares.asked_for else _Pool(())
    out = []
    for i, q in enumerate(quantities):
        if deadline is not None and not i % 256 and time.monotonic() > deadline:
            raise TimeoutError
        if not _grounded(q, (pool, shares, given), counts):
            out.append(q)
    return out


def _asked_numbers(asked: Reading) -> _Pool:
    """The numbers the question gives, and the number of each one-unit duration it gives ("the last hour": 1)."""
    return _Pool([q.value for q in asked.quantities] + [q.single for q in asked.quantities if q.single is not None])


def _counts(quantities: list[Quantity], pool: _Pool) -> _Pool:
    """The stated numbers a tool computed: the counts a stated share may be the ratio of."""
    return _Pool(q.value for q in quantities if q.kind == "number" and pool.close(q.value, q.step))


def _grounded(q: Quantity, pools: tuple[_Pool, _Pool, _Pool], counts: _Pool) -> bool:
    """A stated quantity is a computed or given number to the digits it shows (a duration in seconds, a size in
    bytes); a percentage a computed or given share, or one of two stated `counts`."""
    pool, shares, given = pools
    if q.kind in ("duration", "size"):
        return _measure_given(q, pool, given)
    if q.kind == "percent":
        return shares.close(q.value, q.step) or given.close(q.value, q.step) or counts.ratio(q.value, q.step)
    return pool.close(q.value, q.step) or given.close(q.value, q.step)


def _measure_given(q: Quantity, pool: _Pool, given: _Pool) -> bool:
    """A stated duration or size, rounded or cut to the step the answer writes ("4 h 17 min" is 4:16:30 to
    4:17:59, "1.15 GiB" 1.145 to 1.15999 GiB), is a computed or asked number of seconds or bytes, or a one-unit
    duration's or size's number is (to the digits it shows)."""
    lo, hi = q.value - q.unit / 2, q.value + q.unit * 0.999
    return pool.between(lo, hi) or given.between(lo, hi) or (
        q.single is not None and (pool.close(q.single, q.step) or given.close(q.single, q.step)))


class _Moments:
    """Known times, by the fields they give. A stated time agrees with a known one when they give at least two
    fields in common and agree on all of them (`Nov 20` agrees with any time on November 20, `09:30` with a
    question's "around 09:30")."""

    def __init__(self, texts: Iterable[str]) -> None:
        self._texts: Iterable[str] | None = texts  # read on the first lookup: most answers state no time
        self._groups: dict[tuple[bool, ...], list[Moment]] = {}
        self._index: dict[tuple[tuple[bool, ...], tuple[bool, ...]], set[tuple[int | None, ...]]] = {}

    def _read(self) -> dict[tuple[bool, ...], list[Moment]]:
        if self._texts is not None:
            for text in self._texts:
                for moment in times_in(text):
                    self._groups.setdefault(_given(moment), []).append(moment)
            self._texts = None
        return self._groups

    def agrees(self, moment: Moment) -> bool:
        given = _given(moment)
        for fields, known in self._read().items():
            shared = tuple(a and b for a, b in zip(given, fields))
            if sum(shared) < 2:
                continue
            key = (fields, shared)
            if key not in self._index:
                self._index[key] = {_project(m, shared) for m in known}
            if _project(moment, shared) in self._index[key]:
                return True
        return False


def _given(moment: Moment) -> tuple[bool, ...]:
    return tuple(f is not None for f in moment)


def _project(moment: Moment, fields: tuple[bool, ...]) -> tuple[int | None, ...]:
    return tuple(f if g else None for f, g in zip(moment, fields))


def with_notes(answer: str, notes: list[str]) -> str:
    """`answer` followed by each tool caveat whose numbers (the counts it offers) it does not already state, and
    each that says what was left out ("2 size values too large to read were left out": its count is no count the
    answer's numbers could already be) unless the answer writes it."""
    stated, lowered = set(numbers_in(answer)), answer.lower()
    extra = [n for n in dict.fromkeys(notes) if not set(numbers_in(n)) <= stated
             or (_LEFT_OUT in n and n.lower() not in lowered)]
    return " ".join([answer.rstrip(), *(f"Note: {n}." for n in extra)]) if extra else answer


def evidence(frame: pd.DataFrame, labels: pd.Index | None, rows: pd.DataFrame, limit: int,
             chars: int = 300) -> list[Evidence]:
    """Up to `limit` supporting lines, from the rows behind the value or else the current rows."""
    total = count(frame) if limit > 0 else 0
    if not total:
        return []
    if labels is None and count(rows) == total:
        return []  # nothing was narrowed: the whole log is no evidence
    picked = take(frame, labels[:limit]) if labels is not None else head(rows, limit)
    out = []
    for src, line, text in zip(picked["source"], picked["line"], entry_text(picked)):
        first = str(text).split("\n", 1)[0]
        out.append(Evidence(source=str(src), line=int(line), text=first[:chars]))
    return out
