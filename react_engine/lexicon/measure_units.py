"""The units a number in a log line is written with (`1184 bytes`, `120ms`, `0.24 s`), what they measure and their
factor to bytes or seconds; and the words that ask for a number in one of them ("the max latency", "bytes sent")."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

Kind = Literal["size", "time"]


@dataclass(frozen=True)
class Unit:
    """A unit of measure: its `name`, what it measures (`kind`), its `factor` to bytes (a size) or seconds (a time),
    the `aliases` logs write it with, lower case, how an answer writes a number in it (`stated`; "" for the units
    no answer states) and the other words a question may name it by (`spelled`: "megabytes")."""

    name: str
    kind: Kind
    factor: float
    aliases: tuple[str, ...]
    stated: str = ""
    spelled: tuple[str, ...] = ()


UNITS_OF_MEASURE = (
    Unit("byte", "size", 1, ("bytes", "byte", "b"), "bytes"),
    Unit("kibibyte", "size", 1024, ("kb", "kib"), "KB", ("kilobyte", "kilobytes", "kibibytes")),
    Unit("mebibyte", "size", 1024**2, ("mb", "mib"), "MB", ("megabyte", "megabytes", "mebibytes")),
    Unit("gibibyte", "size", 1024**3, ("gb", "gib"), "GB", ("gigabyte", "gigabytes", "gibibytes")),
    Unit("tebibyte", "size", 1024**4, ("tb", "tib"), "TB", ("terabyte", "terabytes", "tebibytes")),
    Unit("nanosecond", "time", 1e-9, ("ns",)),
    Unit("microsecond", "time", 1e-6, ("us", "µs", "microsecond", "microseconds")),
    Unit("millisecond", "time", 1e-3, ("ms", "msec", "msecs", "millisecond", "milliseconds"), "ms"),
    Unit("second", "time", 1.0, ("s", "sec", "secs", "second", "seconds"), "s"),
    Unit("minute", "time", 60.0, ("min", "mins", "minute", "minutes"), "minutes"),
    Unit("hour", "time", 3600.0, ("h", "hr", "hrs", "hour", "hours"), "hours"),
)
"""The units a log writes a size or a duration in, sizes first (a kilobyte is 1024 bytes, as logs mean it)."""

STATED_UNITS: Mapping[str, Unit] = MappingProxyType(
    {w: u for u in UNITS_OF_MEASURE if u.stated for w in (*u.aliases, *u.spelled, u.name, u.name + "s")})
"""A unit a question may ask a number in ("in milliseconds", "in MB"), lower case -> the unit: those an answer
states (`STATED_DURATIONS`, `STATED_SIZES`), so that the check reads the number it writes in it."""

SIZE_UNITS: Mapping[str, int] = MappingProxyType(
    {a: int(u.factor) for u in UNITS_OF_MEASURE if u.kind == "size" for a in u.aliases})
"""A size unit as written -> bytes."""

TIME_UNITS: Mapping[str, float] = MappingProxyType(
    {a: float(u.factor) for u in UNITS_OF_MEASURE if u.kind == "time" for a in u.aliases})
"""A time unit as written -> seconds."""

UNIT_ALTERNATIVES = "|".join(sorted(map(re.escape, {**SIZE_UNITS, **TIME_UNITS}), key=len, reverse=True))
"""Any size or time unit as written, as regex alternatives, longest first."""

NAME_SUFFIX_UNITS = (("_ms", "ms"), ("_msec", "ms"), ("_us", "us"), ("_ns", "ns"), ("_seconds", "s"), ("_sec", "s"),
                     ("_secs", "s"), ("_s", "s"), ("_bytes", "bytes"), ("_kb", "KB"), ("_mb", "MB"))
"""(the end of a column's name, the unit it says the column is in): `latency_ms`, `body_bytes`."""

DURATION_NAMES = frozenset({"time", "elapsed", "duration", "took", "latency", "lifetime", "uptime", "runtime"})
"""Names of a numeric column or field that hold a duration in seconds when no unit is written."""

DURATION_WORDS = frozenset({"duration", "durations", "time", "times", "latency", "seconds", "elapsed", "took"})
"""Words that ask for a field in seconds ("the average latency")."""

SIZE_WORDS = frozenset({"bytes", "byte", "size", "sizes", "traffic", "volume"})
"""Words that ask for a field in bytes ("the total traffic"); the question reader's `statistic_words.SIZE_NOUNS`
also reads "data" as a size, which a tool given a field's name must not."""

LOCATING_DURATION_WORDS = DURATION_WORDS | {"ms", "long", "delay"}
"""Words that say a number located by a question's words is a duration and are no words its message must hold:
`DURATION_WORDS`, a unit, and "how long" or "delay" (a message's number near "delay" is found by its other words)."""

LOCATING_SIZE_WORDS = frozenset({"bytes", "byte", "size", "sizes", "kb", "mb", "gb"})
"""Words that say a number located by a question's words is a size and are no words its message must hold: unlike
`SIZE_WORDS`, the units, and not "traffic" or "volume", which a message may write beside the number."""

STATED_DURATIONS = (("milliseconds?|ms", 0.001), ("seconds?|secs?|s", 1), ("minutes?|mins?|m", 60),
                    ("hours?|hrs?|h", 3600), ("days?|d", 86400), ("weeks?|wks?|w", 604800))
"""(a duration unit as a text states it, as a regex; its seconds): how answers write durations ("2h30m", "3 days").
Unlike the units of log lines these run to days and weeks and write a minute "m", and leave out nano- and
microseconds, which no answer states."""

SIZE_NAMING_WORDS = frozenset({"sent", "read", "written", "received", "in", "out", "left", "used", "free", "total",
                               "transferred"})
"""Words after a size in bytes that name it with it ("1184 bytes sent" -> "bytes sent", "bytes left"), as does any
word ending in "-ed". Unlike `stop_words.TRANSFER_WORDS` (verbs a question moves data with) these are the words a
log line writes after the size, states ("left", "free") as well as verbs."""

SIZE_SCALES = (("TiB", 1024**4), ("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024))
"""(a binary size unit as an answer writes it, its bytes), largest first: the readable scale an answer states a
number of bytes at besides ("1,234,567,890 bytes (1.15 GiB)"), with the factors the units of log lines have."""

STATED_SIZES = "|".join(sorted((re.escape(a) for a in SIZE_UNITS if len(a) > 1), key=len, reverse=True))
"""A size unit as a text states it, as regex alternatives to match without case, longest first: the units of log
lines (the readable scales among them) but the lone "b", which a text writes for other things."""
