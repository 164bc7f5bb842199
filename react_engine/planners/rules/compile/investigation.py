"""Investigation measures: message patterns, what is unusual, an entity's timeline, the lines before an event.

None has a tool yet, so each compiles to `Cannot`; replace a function's body with its calls once its tool exists
(and list the tool in the measure's `needs`).
"""

from __future__ import annotations

from typing import assert_never

from react_engine.planners.rules.compile.calls import Call, Cannot
from react_engine.understanding.measures import Patterns, Preceding, Timeline, Unusual
from react_engine.understanding.query import Query

Investigation = Patterns | Unusual | Timeline | Preceding


def compile_investigation(query: Query, measure: Investigation) -> list[Call] | Cannot:
    """The calls for one investigation measure (exhaustive over `Investigation`)."""
    match measure:
        case Patterns():
            return compile_patterns(query, measure)
        case Unusual():
            return compile_unusual(query, measure)
        case Timeline():
            return compile_timeline(query, measure)
        case Preceding():
            return compile_preceding(query, measure)
        case _:
            assert_never(measure)


def compile_patterns(query: Query, measure: Patterns) -> list[Call] | Cannot:
    return Cannot(measure.asked())


def compile_unusual(query: Query, measure: Unusual) -> list[Call] | Cannot:
    return Cannot(measure.asked())


def compile_timeline(query: Query, measure: Timeline) -> list[Call] | Cannot:
    return Cannot(measure.asked())


def compile_preceding(query: Query, measure: Preceding) -> list[Call] | Cannot:
    return Cannot(measure.asked())
