"""Time measures: when the matching lines first or last occur, how long they span, their longest silences and the
durations from a start line to an end line."""

from __future__ import annotations

from react_engine.compile.calls import Call, Cannot, call
from react_engine.lexicon.entity_words import CUSTOM_ENTITIES
from react_engine.question.measures import Duration, Gaps, Occurrence, Span
from react_engine.question.query import Query
from react_engine.tools.entities import ExtractEntitiesParams
from react_engine.tools.times import DurationsParams, GapsParams, TimeSpanParams


def compile_occurrence(query: Query, measure: Occurrence) -> list[Call]:
    return [call(TimeSpanParams(), f"the {measure.which} time of the matching lines")]


def compile_span(query: Query, measure: Span) -> list[Call]:
    return [call(TimeSpanParams(), "the first and last time of the matching lines")]


def compile_gaps(query: Query, measure: Gaps) -> list[Call]:
    """The last line and the longest silences: "when did X stop logging" is answered by both."""
    keys = query.grouping.keys
    gaps = GapsParams(key=keys[0]) if keys else GapsParams()
    return [call(TimeSpanParams(), "when the matching lines start and stop"),
            call(gaps, "the longest silences between the matching lines")]


def compile_duration(query: Query, measure: Duration) -> list[Call] | Cannot:
    if not measure.start or not measure.end:
        return Cannot("the time from a start line to an end line (name both)")
    params = DurationsParams(start=measure.start, end=measure.end, **({"key": measure.key} if measure.key else {}))
    found = [call(ExtractEntitiesParams(types=[], pattern=CUSTOM_ENTITIES[measure.key], name=measure.key),
                  f"find the {measure.key} of each line")] if measure.key in CUSTOM_ENTITIES else []  # "per block"
    return [*found, call(params, f'the time from each "{measure.start}" line to the next "{measure.end}" line')]
