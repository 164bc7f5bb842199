"""A count of lines is no count of the things "how many" names when the lines write that noun with values that
repeat: "how many broadcast variables were read" counts variables, and "Started reading broadcast variable 12" and
"Reading broadcast variable 12 took 5 ms" are two lines of one; "how many callers do not hold REAL_GET_TASKS" counts
callers, which many lines name again. Such a noun is unread (the answer is partial)."""

from __future__ import annotations

import re

import numpy as np

from react_engine.question.measures import Count
from react_engine.question.query import Query
from react_engine.question.vocabulary import Vocabulary, singular

_VALUE = r"[ \t]+([\w.:/-]*\d[\w.:/-]*)"  # a value with a digit, written after its noun as its name ("caller 10112")


def repeated(noun: str, query: Query, searches: list[str], vocabulary: Vocabulary) -> list[str]:
    """`[noun]` when the query counts lines and most sampled lines the searches keep write `noun` with a value,
    some values on more than one of them; else []."""
    if not isinstance(query.measure, Count) or not searches:
        return []
    kept = np.logical_and.reduce([vocabulary.events.lines(s) for s in searches])
    lines = [line for line, keep in zip(vocabulary.events.sample, kept) if keep]
    written = re.compile(rf"\b{re.escape(singular(noun.lower()))}\w*{_VALUE}", re.I)
    values = [m.group(1) for line in lines if (m := written.search(line))]
    return [noun] if lines and 2 * len(values) >= len(lines) and len(set(values)) < len(values) else []
