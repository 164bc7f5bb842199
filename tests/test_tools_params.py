"""Whatever parameters a planner sends, a tool gives a result or a one-line ToolError, never another exception."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from tool_frames import WORDS, context, frames

from react_engine.errors import ToolError
from react_engine.tools import REGISTRY
from react_engine.tools.registry import read_result

NAMES = sorted(REGISTRY)
WORDS_MORE = [*WORDS, "now-1h", "now", "2026-11-20T10:00", "1h", "mac", "ip", "host", "status", "raw", "ERROR", "error", "eq", "ne", "regex", "contains", "(a+)+$", "x.csv"]
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 70), st.floats(allow_nan=False, width=32),
                    st.text(max_size=12), st.sampled_from(WORDS_MORE))
VALUES = st.one_of(SCALARS, st.lists(SCALARS, max_size=3))


def _params(name: str) -> st.SearchStrategy[dict[str, object]]:
    fields = REGISTRY[name].params.model_fields
    return st.fixed_dictionaries({}, optional={field: VALUES for field in fields})


@pytest.mark.parametrize("name", NAMES)
def test_any_params_give_a_result_or_a_tool_error(name: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    out = tmp_path_factory.mktemp(name)

    @given(df=frames(max_rows=12), params=_params(name), narrowed=st.booleans())
    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    def check(df: pd.DataFrame, params: dict[str, object], narrowed: bool) -> None:
        tool = REGISTRY[name]
        try:
            validated = tool.params.model_validate(params)
        except ValidationError:
            return
        ctx = context(df, df.iloc[::2] if narrowed else df, output_dir=out)
        try:
            result = tool.run(validated, ctx)
        except ToolError as exc:
            assert str(exc) and "\n" not in str(exc)
            return
        recorded = result.value.recorded()  # the value a trace records reads back as the same result
        assert json.dumps(read_result(name, recorded).recorded()) == json.dumps(recorded)
        assert "\n" not in result.summary
        if result.rows is not None:
            assert result.rows.index.isin(df.index).all()
        if result.evidence is not None:
            assert result.evidence.isin(df.index).all()
        for kind, values in (result.entities or {}).items():
            assert kind.strip() and values.index.isin(df.index).all()

    check()
    for written in Path(out).rglob("*"):
        assert written.resolve().is_relative_to(Path(out).resolve())
