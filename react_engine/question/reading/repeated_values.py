"""A count of lines is no count of the things "how many" names when the lines write that noun with a value that
lines of two events write: "how many broadcast variables were read" counts variables, and "Started reading broadcast
variable 12" and "Reading broadcast variable 12 took 5 ms" are two lines of one. Such a noun is unread (the answer
is partial). A value one event writes again is left alone: "Finished task 0.0 in stage 1.0" and "... in stage 2.0"
are two tasks."""

from __future__ import annotations

import re

import numpy as np

from react_engine.question.log_events import template_of
from react_engine.question.measures import Count
from react_engine.question.query import Query
from react_engine.question.vocabulary import Vocabulary, singular

_VALUE = r"[ \t]+([\w.:/-]*\d[\w.:/-]*)"  # a value with a digit, written after its noun as its name ("caller 10112")


def repeated(noun: str, query: Query, searches: list[str], vocabulary: Vocabulary) -> list[str]:
    """`[noun]` when the query counts lines and most sampled lines the searches keep write `noun` with a value,
    some value on lines of two events; else []."""
    if not isinstance(query.measure, Count) or not searches:
        return []
    kept = np.logical_and.reduce([vocabulary.events.lines(s) for s in searches])
    lines = [line for line, keep in zip(vocabulary.events.sample, kept) if keep]
    written = re.compile(rf"\b{re.escape(singular(noun.lower()))}\w*{_VALUE}", re.I)
    values = [(m.group(1), template_of(line)) for line in lines if (m := written.search(line))]
    events: dict[str, set[str]] = {}
    for value, template in values:
        events.setdefault(value, set()).add(template)
    return [noun] if lines and 2 * len(values) >= len(lines) and any(len(e) > 1 for e in events.values()) else []
