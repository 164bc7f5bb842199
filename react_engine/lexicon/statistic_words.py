"""Statistics, quantities and percentages as questions name them ("average latency", "how many bytes", "what
percent")."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Literal

StatisticFunc = Literal["count", "sum", "mean", "median", "min", "max", "stddev", "percentile"]
"""What a statistic computes."""

STATISTICS: Mapping[str, StatisticFunc] = MappingProxyType({
    "average": "mean", "avg": "mean", "mean": "mean", "median": "median", "maximum": "max", "max": "max",
    "minimum": "min", "min": "min", "sum": "sum", "standard deviation": "stddev", "stddev": "stddev",
    "std dev": "stddev", "variance": "stddev", "peak": "max"})
"""A statistic's name as a question writes it -> what it computes."""

STATISTIC_NAMES: Mapping[StatisticFunc, str] = MappingProxyType({
    "sum": "total", "mean": "average", "stddev": "standard deviation", "min": "minimum", "max": "maximum"})
"""How an answer names a statistic (the others by their own name)."""

STATISTIC_PHRASES: Mapping[str, str] = MappingProxyType({
    f: ("an " if name[0] in "aeiou" else "a ") + name
    for f in ("mean", "median", "sum", "min", "max", "stddev", "count") for name in [STATISTIC_NAMES.get(f, f)]})
"""How an answer names one statistic it could not compute, with its article ("an average of what?")."""

MEASURE_WORDS = frozenset({"average", "median", "maximum", "minimum", "percentile", "deviation", "variance",
                           "longest", "shortest", "slowest", "fastest", "smallest", "lowest", "ratio", "fraction",
                           "proportion", "percentage"})
"""Words that ask for a measure, which a misspelt word may be read as ("avrage" -> "average"); no search."""

SHARE_WORDS = ("proportion", "fraction", "share", "ratio", "portion")
"""Words that ask what share of the lines something is."""

PERCENT = r"p(?:er|re)c[ea]?n?t(?:a?ge?)?s?"
"""Percent and percentage, with their usual misspellings (a regex)."""

QUANTITY_UNITS = ("bytes", "kilobytes", "megabytes", "gigabytes", "kb", "mb", "gb", "seconds", "secs",
                  "milliseconds", "ms", "size")
"""Units of a quantity a line carries, which a statistic is of ("how many bytes", "the total size")."""

QUANTITIES = frozenset({"byte", "bytes", "second", "seconds", "secs", "millisecond", "milliseconds", "ms", "time",
                        "times", "duration", "durations", "latency", "latencies", "size", "sizes", "length",
                        "lengths", "len", "lifetime", "lifetimes", "value", "values", "kb", "mb", "gb"})
"""Nouns of a quantity a line carries, which a statistic per time bucket measures one value per bucket of."""

SIZE_NOUNS = r"\b(?:bytes?|size|data|kb|mb|gb|kilobytes|megabytes|gigabytes)\b"
"""Words naming a size (a regex), which a size field's name implies."""

COUNTED = ("number", "count", "amount")
"""Nouns of a number of lines ("the average number of X": X counted)."""

RATE_EVENTS = ("error", "errors", "failure", "failures", "warning", "warnings", "crash", "timeout", "exception",
               "retry", "drop", "success", "rejection", "denial")
"""Events whose "rate" is the share of the lines they are ("error rate")."""

TIME_FIELDS = ("time", "duration", "durations")
"""The words naming the time a line or a pair of lines took, whichever field holds it."""

LINE_MEASURES = MEASURE_WORDS | {"share", "percent", "portion"}
"""Words that ask for a measure of the lines ("what fraction of the lines"), which name no values to rank."""
