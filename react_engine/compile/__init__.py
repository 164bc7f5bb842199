"""Compiling a `Query` into tool calls: the stage between reading a question and running tools.

`compile_query` matches on the query's measure (exhaustively: mypy proves every measure is handled) and returns
the calls to make, or `Cannot` when no tool computes the measure yet; the answer then says what was answered
and what could not be.

Layout, one module per family of measures, each with a `compile_*` function per measure:
- `calls`: `Call` (a tool call built from the tool's own params model) and `Cannot`;
- `narrowing`: a filter of the query -> its narrowing call;
- `line_measures`: count, histogram, listing; `values`: distinct, top;
- `analytics`: statistic, first/last, span, gaps, duration, share, comparison, pivot (with `measuring`,
  `comparing`, `time_measures`);
- `investigation`: patterns, unusual, timeline, preceding lines;
- `plan`: a question's reading compiled once per run into the calls the rules planner hands out.

Adding a measure: declare it in `react_engine/question/measures.py`, write its `compile_<kind>(query, measure)`
in its family's module (returning `list[Call]` built with `call(SomeParams(...), reasoning)`, or `Cannot`), add
its `case` to `compile_query` in `compiler.py`, and its wording to `react_engine/answer/writing.py`. Once its
tools exist, list them in the measure's `needs` so the engine counts a run that called them as answered.
"""

from react_engine.compile.calls import Call, Cannot, call
from react_engine.compile.compiler import Compiled, compile_query

__all__ = ["Call", "Cannot", "Compiled", "call", "compile_query"]
