"""Every tool declares the typed results it returns, none of them holds an untyped (`Any`) part, and each reads back
from the value a trace records of it (the same JSON the tools recorded as plain values)."""

from __future__ import annotations

import typing
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

from react_engine.contract.planner import HistoryItem, latest
from react_engine.tools import REGISTRY
from react_engine.tools.figures import Compared, Grouped, Pivot, Rate, ShareOf, Statistic
from react_engine.tools.registry import ToolValue, read_result
from react_engine.tools.results import Counted, Ranking
from react_engine.tools.timed import Gap, Gaps, NoSpan


def _parts(annotation: object, seen: set[object]) -> Iterator[object]:
    """`annotation` and every type inside it: its arguments, and the fields of the models it names."""
    if annotation in seen:
        return
    seen.add(annotation)
    yield annotation
    for inner in typing.get_args(annotation):
        yield from _parts(inner, seen)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        for field in annotation.model_fields.values():
            yield from _parts(field.annotation, seen)


def test_no_result_type_holds_any() -> None:
    models = typing.get_args(ToolValue)
    assert len(models) > 20
    for model in models:
        assert typing.Any not in set(_parts(model, set())), model


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_tool_declares_results_of_the_tool_values(name: str) -> None:
    declared = REGISTRY[name].returns
    assert set(typing.get_args(declared) or (declared,)) <= set(typing.get_args(ToolValue))


@pytest.mark.parametrize(("action", "recorded", "typed"), [
    ("get_log_count", 7, Counted(7)),
    ("top_values", [["sshd", 3], [7, 1]], Ranking([("sshd", 3), (7, 1)])),
    ("field_stats", {"p95": 812, "rows": 40, "unit": "ms", "percentile": 95.0},
     Statistic(function="p95", value=812, rows=40, unit="ms", percentile=95.0)),
    ("field_stats", {"max": 9, "per": "1h", "bucket_seconds": 3600, "buckets": 24, "counted": 50,
                     "from": "2026-11-20T00:00:00+00:00", "to": "2026-11-21T00:00:00+00:00",
                     "at": "2026-11-20T09:00:00+00:00", "unit": ""},
     Rate(function="max", value=9, per="1h", bucket_seconds=3600, buckets=24, counted=50,
          start="2026-11-20T00:00:00+00:00", end="2026-11-21T00:00:00+00:00", at="2026-11-20T09:00:00+00:00",
          unit="")),
    ("field_stats", {"columns": ["host", "mean", "rows"], "rows": [["a", 1.5, 2]], "groups": 1, "unit": "ms"},
     Grouped(columns=["host", "mean", "rows"], rows=[["a", 1.5, 2]], groups=1, unit="ms")),
    ("field_stats", {"columns": ["host", "x", "total"], "rows": [["a", None, 1]], "cells": None,
                     "left_out": {"host": 3}, "unit": ""},
     Pivot(columns=["host", "x", "total"], rows=[["a", None, 1]], cells=None, left_out={"host": 3}, unit="")),
    ("share", {"rows": 3, "of": 0}, ShareOf(rows=3, of=0)),
    ("share", {"percent": 12.5, "rows": 1, "of": 8}, ShareOf(percent=12.5, rows=1, of=8)),
    ("compare", {"a": 3, "b": None, "rows_a": 3, "rows_b": 0, "unit": ""},
     Compared(a=3, b=None, rows_a=3, rows_b=0, unit="")),
    ("gaps", {"rows": 5, "gaps": [{"seconds": 60, "from": "t0", "to": "t1", "key": "pid 7"}]},
     Gaps(rows=5, gaps=[Gap(seconds=60, start="t0", end="t1", key="pid 7")])),
    ("time_span", None, NoSpan(None)),
])
def test_a_recorded_value_reads_back_as_its_result(action: str, recorded: object, typed: ToolValue) -> None:
    assert read_result(action, recorded) == typed
    assert typed.recorded() == recorded


def test_a_value_no_result_of_the_tool_has_reads_as_none() -> None:
    assert read_result("get_log_count", {"rows": 3}) is None
    assert read_result("share", {"percent": 5, "rows": 1, "of": 20, "extra": 1}) is None
    assert read_result("no_such_tool", 3) is None


@given(st.lists(st.sampled_from(["host", "bucket", "mean", "p95", "percent", "total", "x"]), min_size=1, max_size=6,
                unique=True), st.sampled_from(["mean", "percent", "count"]))
def test_a_tables_measure_column_is_where_its_name_is_else_the_first(columns: list[str], name: str) -> None:
    rows = [list(range(len(columns)))]
    for table in (Grouped(columns=columns, rows=rows, groups=1), Pivot(columns=columns, rows=rows, unit="")):
        at = table.column(name)
        assert table.columns[at] == name if name in columns else at == 0


@given(st.lists(st.sampled_from([Counted, Ranking, None]), max_size=8))
def test_the_latest_result_of_a_kind_is_that_of_the_last_step_computing_one(kinds: list[type[Counted] | type[Ranking] | None]) -> None:
    made = {Counted: lambda i: Counted(i), Ranking: lambda i: Ranking([[str(i), i]]), None: lambda i: None}
    history = [HistoryItem(iteration=i, action="step", ok=kind is not None, result=made[kind](i))
               for i, kind in enumerate(kinds)]
    for kind in (Counted, Ranking):
        at = [i for i, k in enumerate(kinds) if k is kind]
        found = latest(history, kind)
        assert (found is None) if not at else (found is not None and found[0] is history[at[-1]]
                                               and found[1] == made[kind](at[-1]))
