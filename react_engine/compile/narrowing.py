"""A filter of a `Query` -> the narrowing call that keeps (or, `exclude`, leaves out) its lines."""

from __future__ import annotations

from typing import assert_never

from react_engine.compile.calls import Call, call
from react_engine.question.query import FieldFilter, Filter, LevelFilter, TextFilter, TimeFilter
from react_engine.tools.filters import (
    FilterByFieldParams,
    FilterBySeverityParams,
    FilterByTimeParams,
    SearchLogsParams,
)
from react_engine.tools.registry import Params


def reasoning(words: str) -> str:
    """The reason a narrowing call gives, from the words the answer states it with."""
    return f"leave out the lines {words[4:]}" if words.startswith("not ") else f"keep lines {words}"


def compile_filter(f: Filter) -> Call:
    params: Params
    match f:
        case TextFilter():
            params = SearchLogsParams(value=f.value, **_given(f, regex=f.regex, case_sensitive=f.case_sensitive,
                                                              message=f.message))
        case LevelFilter():
            params = FilterBySeverityParams(levels=list(f.levels), **_given(f, min_level=f.min_level))
        case FieldFilter():
            params = FilterByFieldParams(field=f.field, value=f.value, **_given(f, op=f.op if f.op != "eq" else None))
        case TimeFilter():
            params = FilterByTimeParams(start=f.start, end=f.end, **_given(f))
        case _:
            assert_never(f)
    return call(params, reasoning(f.words))


def _given(f: Filter, **flags: object) -> dict[str, object]:
    """The optional parameters that differ from their defaults (so only they are sent), and `exclude` when set."""
    given = {k: v for k, v in flags.items() if v}
    return given | ({"exclude": True} if f.exclude else {})
