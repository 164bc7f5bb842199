"""Checking an answer against what the tools computed, and picking the log lines behind it."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import Any

import pandas as pd
from pydantic import BaseModel, Field

from react_engine.logs.macs import MAC_SEPARATED
from react_engine.logs.text import entry_text
from react_engine.result import Evidence
from react_engine.rowops import count, head, take

_MAC = rf"\b(?:{MAC_SEPARATED})\b"
# Things that look like numbers but are identifiers or times: removed before numbers are read. A word (a letter
# and what follows it) is matched whole, so that each character is looked at a bounded number of times.
_NOT_QUANTITIES = re.compile(
    r"\d{4}-\d{2}-\d{2}[T ]?[\d:.,]*(?:Z|[+-]\d{2}:?\d{2})?"  # ISO dates and times
    r"|\b\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?\b"  # clock times
    rf"|{_MAC}"  # MACs
    r"|\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b"  # IPv4
    r"|(?P<word>[A-Za-z_][\w/.-]*)",  # removed when it mixes letters and digits (MAWED07T01, Cable5/0/1, T3)
    re.I,
)
_MACS = re.compile(_MAC, re.I)
_DIGIT = re.compile(r"\d")
_NOTHING = re.compile(
    r"\b(?:no (?:matching |such |relevant )?(?:logs?|entries|lines|rows|records|results|events|matches|data)"
    r"|nothing (?:was )?found|not found|none (?:were )?found|could not find|couldn't find|did not find"
    r"|no .{0,40}\b(?:found|matched|match)|zero (?:logs?|entries|rows|results)"
    r"|(?:there|they) (?:were|are|was|is) no|^\s*(?:no|none)\b(?!,))\b",  # "No failed logins.", "None."
    re.I,
)
# An answer that gives none and asks for the question again; the questions it suggests are quoted.
_DECLINED = re.compile(r"\b(?:could not|couldn't|cannot|can't|unable to) answer\b|\bplease rephrase\b", re.I)
_QUOTED = re.compile(r'"[^"\n]*"|“[^”\n]*”')
_NUMBER = re.compile(r"(?<![\w.])[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?%?|(?<![\w.])[-+]?\d+(?:\.\d+)?%?")


def _skipped(match: re.Match[str]) -> str:
    """A blank for an identifier or time; a word without digits stays, but for any MAC inside it."""
    word = match.group("word")
    if word is None or _DIGIT.search(word):
        return " "
    text, kept, last = match.string, [], match.start()
    for mac in _MACS.finditer(text, match.start(), match.end()):
        kept += [text[last : mac.start()], " "]
        last = mac.end()
    return "".join(kept) + text[last : match.end()]


def numbers_in(text: str) -> list[float]:
    """The quantities stated in `text` (thousands separators and percents understood), in linear time."""
    cleaned = _NOT_QUANTITIES.sub(_skipped, text)
    return [float(m.group().rstrip("%").replace(",", "")) for m in _NUMBER.finditer(cleaned)]


def _leaves(value: Any, *, keys: bool = False) -> Iterable[Any]:
    """The scalars in a tool value, depth first (with the keys of its dicts when `keys`)."""
    if isinstance(value, dict):
        for k, v in value.items():
            if keys:
                yield from _leaves(k, keys=keys)
            yield from _leaves(v, keys=keys)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _leaves(v, keys=keys)
    else:
        yield value


def _flatten(value: Any) -> Iterable[float]:
    for leaf in _leaves(value):
        if isinstance(leaf, bool) or leaf is None:
            continue
        if isinstance(leaf, (int, float)):
            if math.isfinite(leaf):
                yield float(leaf)
        elif isinstance(leaf, str):
            yield from numbers_in(leaf)


def reports_nothing(answer: str, value: Any) -> bool:
    """The answer says nothing was found."""
    return value in (0, [], {}) or (value is None and bool(_NOTHING.search(answer or "")))


def found_something(value: Any) -> bool:
    """A tool value that found something: a non-zero number in it, or a non-empty list."""
    return any(n != 0 for n in _flatten(value)) or (isinstance(value, (list, tuple)) and len(value) > 0)


class Verdict(BaseModel):
    verified: bool
    unmatched: list[float] = Field(default_factory=list)
    computed: list[float] = Field(default_factory=list)
    contradicted: bool = False  # the answer says none after the last tool found something
    unstated: bool = False  # the answer states no number, no value and no name a tool returned: nothing to check


def _close(a: float, pool: set[float]) -> bool:
    return any(math.isclose(a, b, rel_tol=1e-9, abs_tol=0.005) or math.isclose(a, round(b, 1), abs_tol=0.05)
               for b in pool)


def verify(answer: str, value: Any, computed: list[Any], question: str, latest: Any = None,
           filtered: Iterable[str] = ()) -> Verdict:
    """Every number in the answer (and the value) must be one a tool computed in this run, and an answer of
    none (a zero, "no ...") must not follow a `latest` tool value that found something.

    Numbers that merely repeat the question ("in the last 2 hours") are allowed, and so are the digits of a name
    the run filtered on (`filtered`: the values given to field filters), quoted whole (`SendWorker:3`), and those
    of the questions an answer that gives no value suggests in quotes when it asks to rephrase.
    """
    pool = {n for v in computed for n in _flatten(v)}
    allowed = pool | set(numbers_in(question))
    text = _unquoted(answer, filtered)
    if value is None and _DECLINED.search(answer):  # its quoted example questions ("top 5 IP addresses") claim nothing
        text = _QUOTED.sub(" ", text)
    stated = numbers_in(text) + list(_flatten(value))
    unmatched = sorted({n for n in stated if not _close(n, allowed)})
    says_none = (reports_nothing(answer, value) or bool(stated)) and all(n == 0 for n in stated)
    contradicted = says_none and found_something(latest)
    unstated = bool(computed) and not stated and value is None and not reports_nothing(answer, value) and not any(
        re.search(rf"(?<!\w){re.escape(name)}(?!\w)", answer, re.I) for name in _names(computed))
    return Verdict(verified=bool(computed) and not unmatched and not contradicted and not unstated,
                   unmatched=unmatched, computed=sorted(pool)[:20], contradicted=contradicted, unstated=unstated)


def _names(value: Any) -> Iterable[str]:
    """The texts in a tool value (keys included) that an answer could name instead of a number."""
    return (leaf.strip() for leaf in _leaves(value, keys=True) if isinstance(leaf, str) and len(leaf.strip()) > 1)


def _unquoted(answer: str, filtered: Iterable[str]) -> str:
    """`answer` with each name of `filtered` blanked where it is quoted whole. A value made of digits alone is
    kept (it is a number, which a count could repeat); a regex of alternatives (`^(?:a|b)$`) names each."""
    names = {n for value in filtered for n in _alternatives(value) if len(n) > 1 and not _NUMBER.fullmatch(n)}
    for name in sorted(names, key=len, reverse=True):
        answer = re.sub(rf"(?<![\w.]){re.escape(name)}(?![\w])", " ", answer)
    return answer


def _alternatives(value: str) -> list[str]:
    """The literal names a filter value compares with: itself, or the alternatives of `^(?:a|b)$`."""
    inner = re.fullmatch(r"\^\(\?:(.*)\)\$", value)
    if inner is None:
        return [value]
    names = [re.sub(r"\\(.)", r"\1", alt) for alt in re.split(r"(?<!\\)\|", inner.group(1))]
    return [n for n in names if not re.search(r"[\\^$()|?*+\[\]{}]", n)]


def with_notes(answer: str, notes: list[str]) -> str:
    """`answer` followed by each tool caveat whose numbers (the counts it offers) it does not already state."""
    stated = set(numbers_in(answer))
    extra = [n for n in dict.fromkeys(notes) if not set(numbers_in(n)) <= stated]
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
