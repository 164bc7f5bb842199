"""The quantities and times a text states, read in one linear pass.

Numbers are read in every written form: `1,234`, `12.5%`, exponents (`2e6`, `2 x 10^6`), suffixes (`2k`, `3M`,
`1G`, `2bn`), scale words (`2 million`) and number words (`two thousand`, `twenty-one`; a lone `one` or `a` is a
word, not a number). A duration (`4 h 17 min 14 s`, `90 minutes`, `2h30m`) is one quantity in seconds, a size
(`95,746 MB`, `1.15 GiB`) one in bytes. Dates and
clock times (`2026-11-20T10:00`, `Nov 20`, `10:00:03`) are times, never numbers; identifiers that mix letters and
digits (`MAWED07T01`, `Cable5/0/1`), MACs and IPv4 addresses are neither.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from react_engine.lexicon.measure_units import SIZE_UNITS, STATED_DURATIONS, STATED_SIZES
from react_engine.lexicon.number_words import SCALES, SMALL_NUMBERS, SPELLED_NUMBERS, TENS
from react_engine.lexicon.time_units import MONTH_SPELLINGS
from react_engine.logs.macs import MAC_SEPARATED

_SUFFIXES = {"k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "bn": 1e9}
_MONTH = rf"(?i:{'|'.join(MONTH_SPELLINGS)})\.?"
_NUMERAL = r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
_UNIT = rf"(?:{'|'.join(u for u, _ in STATED_DURATIONS)})(?![A-Za-z])"
_SIZE_UNIT = rf"(?i:{STATED_SIZES})(?![A-Za-z])"
_SCALE = f"(?i:{'|'.join(SCALES)})"
_NUMBER_WORD = rf"(?i:{'|'.join((*SMALL_NUMBERS, *TENS, *SCALES))})"

_TOKENS = re.compile(
    rf"(?P<iso>\d{{4}}-\d{{2}}-\d{{2}}(?:[Tt ]?[\d:.,]*)(?:[Zz]|[+-]\d{{2}}:?\d{{2}})?)"
    rf"|(?P<clock>\b\d{{1,2}}:\d{{2}}(?::\d{{2}})?(?:[.,]\d+)?\b)"
    rf"|\b(?:{MAC_SEPARATED})\b"
    rf"|\b\d{{1,3}}(?:\.\d{{1,3}}){{3}}(?::\d+)?\b"
    rf"|(?P<dayfirst>\b\d{{1,2}}\s+{_MONTH}(?![A-Za-z])(?:\s+\d{{4}}\b)?)"
    rf"|(?<![\w.])(?P<duration>{_NUMERAL}\s*{_UNIT}(?:\s*,?\s*(?:and\s+)?{_NUMERAL}\s*{_UNIT})*)"
    rf"|(?<![\w.])(?P<size>{_NUMERAL})\s*(?P<size_unit>{_SIZE_UNIT})"
    rf"|(?<![\w.])(?![-+]\d{{1,2}}:\d{{2}}\b)(?P<number>{_NUMERAL}"  # a sign before a clock time is no number's
    rf"(?P<power>[eE][-+]?\d+(?![\w])|\s*[x×*·]\s*10\s*(?:\^|\*\*)\s*[-+]?\d+|(?:\^|\*\*)[-+]?\d+)?"
    rf"(?:(?P<suffix>bn|[kKMG])(?![\w])|\s+(?P<scale>{_SCALE})\b)?"
    rf"(?P<percent>\s?%)?)"
    rf"|(?P<month>\b{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?\b(?:,?\s+\d{{4}}\b)?)"
    rf"|(?P<spelled>\b(?:{_NUMBER_WORD}|(?i:a)(?=\s+{_SCALE}\b))"
    rf"(?:(?:\s+(?i:and\s+)?|-){_NUMBER_WORD})*\b)"
    r"|[A-Za-z_][\w/.-]*"  # a word, with any digits in it (T3, Cable5/0/1): a name, not a quantity
)
_TIMES = ("iso", "clock", "dayfirst", "month")
_DIGIT = re.compile(r"\d")
NUMBERISH = re.compile(rf"\d|\b{_NUMBER_WORD}\b")  # text that may state a number: a digit or a number word
_PART = re.compile(rf"({_NUMERAL})\s*({_UNIT})")
_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:[Tt ]?(\d{2}):(\d{2})(?::(\d{2}))?)?")
_CLOCK = re.compile(r"(\d{1,2}):(\d{2})(?::(\d{2}))?")

Kind = Literal["number", "percent", "duration", "size"]
Moment = tuple[int | None, int | None, int | None, int | None, int | None, int | None]
"""A stated time as (year, month, day, hour, minute, second); what the text leaves out is None."""


@dataclass(frozen=True)
class Quantity:
    """One stated quantity: `value` (seconds for a duration, bytes for a size), and for a duration or a size the
    seconds or bytes of the smallest step it writes (`unit`: 60 in `4 h 17 min`, 360 in `4.3 hours`, 0.01 GiB in
    `1.15 GiB`) and, when it has one unit only, its number as written (`2` in `2 hours`, `95,746` in `95,746 MB`). `step` is one unit in the last digit the number (or a duration's single number)
    shows: 0.01 in `0.05`, 1 in `42`, 1000 in `2k`, 0.1 in `33.9%`; 0 when it is exact (`2^10`)."""

    value: float
    kind: Kind = "number"
    unit: float = 0.0
    single: float | None = None
    text: str = ""  # as written
    step: float = 1.0


@dataclass
class Reading:
    quantities: list[Quantity]
    moments: list[tuple[str, Moment]]  # (as written, the time)

    def extend(self, other: Reading) -> None:
        self.quantities += other.quantities
        self.moments += other.moments


def _numeral(text: str) -> float:
    return float(text.replace(",", ""))


def _step(numeral: str) -> float:
    """One unit in the last digit `numeral` shows: 0.01 for `0.05`, 1 for `1,500`."""
    return 10.0 ** -len(numeral.partition(".")[2])


def _number(match: re.Match[str]) -> Quantity:
    numeral = re.match(_NUMERAL, match.group("number")).group()  # type: ignore[union-attr]
    value, step = _numeral(numeral), _step(numeral)
    power = match.group("power")
    if power:
        exponent = int(re.search(r"[-+]?\d+$", power.replace(" ", "")).group())  # type: ignore[union-attr]
        scaled = bool(re.match(r"[eE]|\s*[x×*·]", power))
        try:
            value, step = (value * 10.0 ** exponent, step * 10.0 ** exponent) if scaled else (value ** exponent, 0.0)
        except (OverflowError, ZeroDivisionError):
            value = float("inf")
    scale = (_SUFFIXES[match.group("suffix")] if match.group("suffix") else 1.0) * (
        SCALES[match.group("scale").lower()] if match.group("scale") else 1.0)
    return Quantity(value * scale, "percent" if match.group("percent") else "number", text=match.group(),
                    step=step * scale)


def _spelled(text: str) -> Quantity | None:
    """`two thousand three hundred and five` -> 2305; None for a lone `one` (a pronoun as often as a number)."""
    words = [w.lower() for w in re.split(r"[\s-]+", text) if w.lower() != "and"]
    if words == ["one"]:
        return None
    total, current = 0.0, 0.0
    for word in words:
        if word == "a":
            current = 1
        elif word in SPELLED_NUMBERS:
            current += SPELLED_NUMBERS[word]
        elif word == "hundred":
            current = (current or 1) * 100
        else:
            total += (current or 1) * SCALES[word]
            current = 0
    return Quantity(total + current, text=text)


def _duration(text: str) -> Quantity:
    parts = [(n, next(s for u, s in STATED_DURATIONS if re.fullmatch(u, unit))) for n, unit in _PART.findall(text)]
    steps = [s * 10.0 ** -len(n.partition(".")[2]) for n, s in parts]  # "4.3 hours": to a tenth of an hour
    return Quantity(sum(_numeral(n) * s for n, s in parts), "duration", unit=min(steps),
                    single=_numeral(parts[0][0]) if len(parts) == 1 else None, text=text, step=_step(parts[0][0]))


def _size(match: re.Match[str]) -> Quantity:
    """A size in bytes, its step and number as written, as `_duration` reads a duration of one unit."""
    numeral, factor = match.group("size"), SIZE_UNITS[match.group("size_unit").lower()]
    number, step = _numeral(numeral), _step(numeral)
    return Quantity(number * factor, "size", unit=step * factor, single=number, text=match.group(), step=step)


def _month(name: str) -> int:
    return next(i + 1 for i, m in enumerate(MONTH_SPELLINGS) if re.fullmatch(m, name.rstrip("."), re.I))


def _moment(kind: str, text: str) -> Moment | None:
    if kind == "iso":
        m = _ISO.match(text)
        return tuple(int(g) if g else None for g in m.groups()) if m else None  # type: ignore[return-value]
    if kind == "clock":
        c = _CLOCK.match(text)
        return (None, None, None, *(int(g) if g else None for g in c.groups())) if c else None  # type: ignore
    return _dated(text)


def _dated(text: str) -> Moment:
    """A date written with its month's name ("Nov 20", "20 November 2026"): its year when given, month and day."""
    words = re.findall(r"[A-Za-z]+\.?|\d+", text)
    month = next(_month(w) for w in words if not w.isdigit())
    numbers = [int(w) for w in words if w.isdigit()]
    return (numbers[1] if len(numbers) > 1 else None, month, numbers[0], None, None, None)


def read(text: str) -> Reading:
    """The quantities and times stated in `text`, in order."""
    quantities: list[Quantity] = []
    moments: list[tuple[str, Moment]] = []
    for match in _TOKENS.finditer(text):
        kind = match.lastgroup
        if kind in _TIMES:
            moment = _moment(kind, match.group())
            if moment is not None:
                moments.append((match.group().rstrip(".,:"), moment))
        elif kind == "number":
            quantities.append(_number(match))
        elif kind == "duration":
            quantities.append(_duration(match.group()))
        elif kind == "size_unit":
            quantities.append(_size(match))
        elif kind == "spelled" and (spelled := _spelled(match.group())) is not None:
            quantities.append(spelled)
    return Reading(quantities, moments)


def is_quantity(text: str) -> bool:
    """`text` states quantities and nothing else but spaces and signs: `2227`, `812ms`, `812 ms`, `5%`, `two`."""
    rest, found = text, False
    for match in reversed(list(_TOKENS.finditer(text))):
        if match.lastgroup not in ("number", "duration", "size_unit", "spelled"):
            return False
        found = True
        rest = rest[:match.start()] + rest[match.end():]
    return found and not any(c.isalnum() for c in rest)


def times_in(text: str) -> list[Moment]:
    """The times stated in `text` (its numbers left unread)."""
    if not _DIGIT.search(text):
        return []
    found = (_moment(m.lastgroup, m.group()) for m in _TOKENS.finditer(text) if m.lastgroup in _TIMES)
    return [m for m in found if m is not None]


def numbers_in(text: str) -> list[float]:
    """The numbers stated in `text` as written (a duration gives the number of each of its units)."""
    out: list[float] = []
    for match in _TOKENS.finditer(text):
        if match.lastgroup == "duration":
            out += [_numeral(n) for n, _ in _PART.findall(match.group())]
        elif match.lastgroup == "size_unit":
            out.append(_numeral(match.group("size")))
        elif match.lastgroup == "number":
            out.append(_number(match).value)
        elif match.lastgroup == "spelled" and (spelled := _spelled(match.group())) is not None:
            out.append(spelled.value)
    return out
