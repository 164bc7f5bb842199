"""Name columns held as categoricals (a lean frame) give every tool and summary exactly what `str` columns give.

The categoricals are built with categories in any order and with values that the current rows, or even every
row, lack, as happens once a filter has narrowed a loaded frame.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tool_frames import COMPONENTS, HOSTS, context, frames, run

from react_engine import Engine, Settings
from react_engine.errors import ToolError
from react_engine.logs import LoadOptions, load
from react_engine.logs.schema import CATEGORICAL_COLUMNS
from react_engine.loop.state import RunState
from react_engine.planners.rules import RulesPlanner
from react_engine.question import Vocabulary
from react_engine.rows.rowops import distinct, tally, value_counts
from react_engine.rows.rowstats import FrameStats

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"
GHOSTS = ["ghost", "web9", "ERROR", "warning", "zzz", "a"]  # categories no row holds
VALUES = [*HOSTS, *COMPONENTS, "1", "22", "main", "test.log", "ERROR", "E", "FATAL", "error", "WEB1", "web",
          "ghost", "^d", "[0-9]+", "n.*x"]
NAMES = list(CATEGORICAL_COLUMNS)
CALLS = st.one_of(
    st.builds(lambda f, n: ("top_values", {"field": f, "n": n}), st.sampled_from(NAMES), st.integers(1, 6)),
    st.builds(lambda f, u: ("count_entities", {"type": f, "unique": u}), st.sampled_from(NAMES), st.booleans()),
    st.builds(lambda f, v, op, ex: ("filter_by_field", {"field": f, "value": v, "op": op, "exclude": ex}),
              st.sampled_from(NAMES), st.sampled_from(VALUES), st.sampled_from(["eq", "ne", "contains", "regex"]),
              st.booleans()),
    st.builds(lambda levels, ex: ("filter_by_severity", {"levels": levels, "exclude": ex}),
              st.lists(st.sampled_from(["ERROR", "E", "FATAL", "error", "warn", "D", "debug"]), min_size=1,
                       max_size=2), st.booleans()),
    st.builds(lambda level: ("filter_by_severity", {"min_level": level}),
              st.sampled_from(["debug", "info", "warning", "error"])),
    st.just(("show_logs", {"n": 3})),
    st.just(("get_log_count", {})),
)


def categorical(df: pd.DataFrame, data: st.DataObject) -> pd.DataFrame:
    """`df` with its name columns as categoricals: categories in a drawn order, some held by no row."""
    out = df.copy()
    for column in CATEGORICAL_COLUMNS:
        present = sorted(set(df[column].dropna()))
        ghosts = data.draw(st.lists(st.sampled_from(GHOSTS), unique=True, max_size=3))
        categories = data.draw(st.permutations(present + [g for g in ghosts if g not in present]))
        out[column] = pd.Categorical(df[column], categories=pd.Index(categories, dtype="str"))
    return out


def subset(df: pd.DataFrame, data: st.DataObject) -> pd.Index:
    keep = data.draw(st.lists(st.booleans(), min_size=len(df), max_size=len(df)))
    return df.index[keep]


def outcome(name: str, frame: pd.DataFrame, rows: pd.DataFrame, params: dict[str, Any]) -> tuple:
    """What a tool call gives, in comparable form (its error when it refuses)."""
    try:
        result = run(name, context(frame, rows), **params)
    except ToolError as exc:
        return ("error", str(exc))
    return (result.value, result.summary, result.note,
            None if result.rows is None else list(result.rows.index),
            None if result.evidence is None else list(result.evidence))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(frames(), st.data(), st.lists(CALLS, min_size=1, max_size=3))
def test_tools_give_the_same_results_over_categorical_name_columns(df: pd.DataFrame, data: st.DataObject,
                                                                    calls: list[tuple[str, dict]]) -> None:
    cat = categorical(df, data)
    labels = subset(df, data)
    rows, cat_rows = df.loc[labels], cat.loc[labels]
    for name, params in calls:
        expected = outcome(name, df, rows, params)
        assert outcome(name, cat, cat_rows, params) == expected, (name, params)
        if name.startswith("filter") and expected[0] != "error":
            rows, cat_rows = df.loc[expected[3]], cat.loc[expected[3]]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(frames(), st.data())
def test_counts_and_distinct_values_see_only_the_current_rows(df: pd.DataFrame, data: st.DataObject) -> None:
    cat = categorical(df, data)
    labels = subset(df, data)
    for column in CATEGORICAL_COLUMNS:
        plain, coded = df.loc[labels, column], cat.loc[labels, column]
        pd.testing.assert_series_equal(value_counts(coded), value_counts(plain))
        assert tally(coded)[0] == tally(plain)[0]
        assert distinct(coded) == distinct(plain)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(frames(), st.data())
def test_row_summaries_and_the_vocabulary_are_the_same(df: pd.DataFrame, data: st.DataObject) -> None:
    cat = categorical(df, data)
    labels = subset(df, data)
    stats, cat_stats = FrameStats(df), FrameStats(cat)
    for picked in (labels, df.index):
        summary, cat_summary = stats.summary(df.loc[picked], 3), cat_stats.summary(cat.loc[picked], 3)
        assert cat_summary == summary
        assert list(cat_summary.severity_mix.items()) == list(summary.severity_mix.items())  # in the same order
    for column, counts in stats.value_counts().items():
        assert list(cat_stats.value_counts()[column].items()) == list(counts.items())
        assert cat_stats.distinct(column) == stats.distinct(column)
    assert RunState("q", cat, None).known_values() == RunState("q", df, None).known_values()
    assert Vocabulary.build(cat).values == Vocabulary.build(df).values
    assert RunState("q", cat, None).vocabulary().values == Vocabulary.build(df).values


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(frames(), st.data(), st.sampled_from(["csv", "jsonl"]))
def test_exports_are_the_same(tmp_path: Path, df: pd.DataFrame, data: st.DataObject, fmt: str) -> None:
    cat = categorical(df, data)
    labels = subset(df, data)
    written = []
    for frame, name in ((df, "plain"), (cat, "categorical")):
        ctx = context(frame, frame.loc[labels], output_dir=tmp_path, allow_overwrite=True)
        run("export_results", ctx, path=f"{name}.{fmt}", format=fmt)
        written.append((tmp_path / f"{name}.{fmt}").read_text())
    assert written[0] == written[1]


QUESTIONS = [
    ("cmts", "Which hosts logged the most lines?"),
    ("cmts", "How many distinct components are there?"),
    ("cmts", "How many error lines are there on MAWED07T01?"),
    ("syslog", "Which programs log the most?"),
    ("syslog", "How many warnings are there?"),
    ("app", "How many errors?"),
]


@pytest.mark.parametrize(("folder", "question"), QUESTIONS)
def test_the_engine_loads_categoricals_and_answers_as_over_str_columns(folder: str, question: str) -> None:
    paths, options = [SAMPLES / folder], LoadOptions(year=2026, use_cache=False)
    engine = Engine(RulesPlanner(), Settings(max_iterations=12))
    own = engine.ask(question, paths, load_options=options)
    assert own.rows is not None
    assert [c for c in CATEGORICAL_COLUMNS if isinstance(own.rows[c].dtype, pd.CategoricalDtype)] == \
        list(CATEGORICAL_COLUMNS)
    plain = load(paths, options)
    assert all(plain[c].dtype == "str" for c in CATEGORICAL_COLUMNS)
    given_str = engine.ask(question, frame=plain)
    assert (own.answer, own.value, [s.action for s in own.steps]) == \
        (given_str.answer, given_str.value, [s.action for s in given_str.steps])
