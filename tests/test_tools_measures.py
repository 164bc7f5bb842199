"""The measuring tools against a direct pandas computation: statistics (grouped or not), pivots, shares and
comparisons; refusals name the numeric fields there are; zero rows give no number."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine.errors import ToolError
from tests.real_logs import real_log
from tests.tool_frames import context, frame, frames, run

FUNCS = ["count", "sum", "mean", "median", "min", "max", "stddev", "percentile"]  # percentile: pN, N drawn


def _func(func: str, q: float) -> str:
    return f"p{round(q, 2):g}" if func == "percentile" else func


def _expected(values: pd.Series, func: str, q: float) -> float:
    values = values.dropna().astype(float)
    return {"count": len(values), "sum": values.sum(), "mean": values.mean(), "median": values.median(),
            "min": values.min(), "max": values.max(), "stddev": float(np.std(values)),
            "percentile": float(np.percentile(values, q))}[func]


def _timed(df: pd.DataFrame, draw_ms: list[int | None]) -> pd.DataFrame:
    """`df` with a `latency_ms` column and the same number in its messages (`took=N ms`)."""
    df = df.assign(latency_ms=pd.array(draw_ms, dtype="Int64"))
    df["message"] = [f"request took={n}ms" if n is not None else m for m, n in zip(df["message"], draw_ms)]
    return df


@st.composite
def measured_frames(draw: st.DrawFn) -> pd.DataFrame:
    df = draw(frames())
    return _timed(df, draw(st.lists(st.one_of(st.none(), st.integers(0, 5000)), min_size=len(df),
                                    max_size=len(df))))


@settings(max_examples=60, deadline=None)
@given(measured_frames(), st.sampled_from(FUNCS), st.floats(0, 100), st.sampled_from(["latency_ms", "took"]))
def test_a_statistic_is_the_pandas_statistic(df: pd.DataFrame, func: str, q: float, field: str) -> None:
    scale = 1.0 if field == "latency_ms" else 0.001  # the message field is read in seconds
    values = df["latency_ms"].astype("float") * scale
    if field == "took" and values.notna().sum() == 0:  # no message carries it: there is no such field
        with pytest.raises(ToolError, match="numeric fields: status, latency_ms"):
            run("field_stats", context(df), field=field, func=_func(func, q))
        return
    q = round(q, 2)
    result = run("field_stats", context(df), field=field, func=_func(func, q))
    if values.notna().sum() == 0:
        assert result.value.recorded() == {"rows": 0}
        return
    stat = _func(func, q)
    assert result.value.recorded()["rows"] == values.notna().sum()
    assert result.value.recorded()[stat] == pytest.approx(_expected(values, func, q), rel=1e-5, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(measured_frames(), st.sampled_from(FUNCS), st.sampled_from([(["host"], None), (["host"], "1h"),
                                                                   (["host", "component"], "1h")]))
def test_grouped_statistics_are_pandas_groupby(df: pd.DataFrame, func: str,
                                                grouping: tuple[list[str], str | None]) -> None:
    by, interval = grouping
    result = run("field_stats", context(df), field="latency_ms", func=_func(func, 90),
                 by=by + ([interval] if interval else []))
    present = df[df["latency_ms"].notna() & (df["timestamp"].notna() if interval else True)]
    if present.empty:
        assert result.value.recorded() == {"rows": 0}
        return
    keys = by + (["bucket"] if interval else [])
    present = present.assign(bucket=present["timestamp"].dt.floor("1h").map(lambda t: t.isoformat()))
    table = result.value.recorded()["rows"]
    assert len(table) == present.groupby(keys).ngroups
    for row in table:
        group = present[np.logical_and.reduce([present[k].astype(str) == str(v) for k, v in zip(keys, row)])]
        assert row[len(keys)] == pytest.approx(_expected(group["latency_ms"], func, 90), rel=1e-5, abs=1e-9)
        assert row[len(keys) + 1] == len(group)


@settings(max_examples=30, deadline=None)
@given(measured_frames(), st.sampled_from(FUNCS), st.sampled_from(["asc", "desc", None]),
       st.sampled_from([["host"], ["1h"], ["host", "1h"]]))
def test_groups_come_in_the_order_asked(df: pd.DataFrame, func: str, order: str | None, by: list[str]) -> None:
    """Largest first (desc, and keys by default), smallest first (asc), or time buckets in time order."""
    result = run("field_stats", context(df), field="latency_ms", func=_func(func, 90), by=by, order=order)
    if result.value.recorded() == {"rows": 0}:
        return
    at = len(by)
    cells = [row[at] for row in result.value.recorded()["rows"]]
    if order is None and "1h" in by:
        times = [tuple(row[:at]) for row in result.value.recorded()["rows"]]
        assert times == sorted(times)
    else:
        assert cells == sorted(cells, reverse=order != "asc")


def _lean(df: pd.DataFrame) -> pd.DataFrame:
    """`df` with its host and component as categoricals, as a lean load holds them, with a category no row holds
    and the rest in order of appearance."""
    out = df.copy()
    for key in ("host", "component"):
        present = list(dict.fromkeys(v for v in out[key] if isinstance(v, str)))
        out[key] = pd.Categorical(out[key], categories=["unheld", *present])
    return out


@settings(max_examples=30, deadline=None)
@given(measured_frames(), st.sampled_from(FUNCS), st.booleans())
def test_two_keys_give_a_pivot_of_pandas_groupby(df: pd.DataFrame, func: str, lean: bool) -> None:
    counted = func == "count"
    result = run("field_stats", context(_lean(df) if lean else df), field=None if counted else "latency_ms",
                 func=_func(func, 75), by=["host", "component"])
    present = df if counted else df[df["latency_ms"].notna()]
    if present.empty:
        assert result.value.recorded() == {"rows": 0}
        return
    values = pd.Series(1.0, index=present.index) if counted else present["latency_ms"].astype(float)
    columns = result.value.recorded()["columns"][1:-1]
    assert len(result.value.recorded()["rows"]) == present["host"].nunique()
    for row in result.value.recorded()["rows"]:
        host, cells, total = row[0], row[1:-1], row[-1]
        assert total == pytest.approx(_expected(values[present["host"] == host], func, 75), rel=1e-5, abs=1e-9)
        for component, cell in zip(columns, cells):
            group = values[(present["host"] == host) & (present["component"] == component)]
            expected = _expected(group, func, 75) if len(group) else None
            assert cell == (None if expected is None else pytest.approx(expected, rel=1e-5, abs=1e-9))


def test_a_level_or_logger_key_names_the_level_as_written_and_the_component() -> None:
    df = frame([{"message": "a", "level": ("WARN", "warning"), "component": "db.pool"},
                {"message": "b", "level": ("INFO", "info"), "component": "api"},
                {"message": "c", "level": ("WARN", "warning"), "component": "api"}])
    table = run("field_stats", context(df), func="count", by=["level", "logger"]).value.recorded()
    assert table["columns"][0] == "level_raw" and set(table["columns"][1:-1]) == {"db.pool", "api"}
    assert {row[0]: row[-1] for row in table["rows"]} == {"WARN": 2, "INFO": 1}
    with pytest.raises(ToolError, match="no column 'levle'"):
        run("field_stats", context(df), func="count", by=["levle", "logger"])


@settings(max_examples=30, deadline=None)
@given(frames(), st.sampled_from(["web1", "db1"]))
def test_a_share_states_both_counts(df: pd.DataFrame, host: str) -> None:
    narrowed = run("filter_by_field", context(df), field="host", value=host)
    assert narrowed.rows is not None
    result = run("share", context(df, narrowed.rows, before=df))
    part = int((df["host"] == host).sum())
    assert result.value.recorded() == {"percent": pytest.approx(100 * part / len(df), rel=1e-5), "rows": part, "of": len(df)}
    assert run("share", context(df, narrowed.rows, before=df), base="previous").value.recorded()["of"] == len(df)


@settings(max_examples=40, deadline=None)
@given(frames(), st.sampled_from(["web1", "db1"]), st.sampled_from([["component"], ["component", "1h"], ["1d"]]),
       st.booleans())
def test_a_share_per_group_is_each_groups_part_of_its_base(df: pd.DataFrame, host: str, by: list[str],
                                                          lean: bool) -> None:
    df = _lean(df) if lean else df
    narrowed = run("filter_by_field", context(df), field="host", value=host)
    assert narrowed.rows is not None
    result = run("share", context(df, narrowed.rows, before=df), by=by)
    keys = [k for k in by if not k[0].isdigit()]
    groups = df.assign(bucket=df["timestamp"].dt.floor(by[-1].replace("d", "D"))) if by[-1][0].isdigit() else df
    names = keys + (["bucket"] if "bucket" in groups else [])
    groups = groups.dropna(subset=names).astype({k: object for k in keys})
    whole = groups.groupby(names).size()
    part = groups[groups["host"] == host].groupby(names).size().reindex(whole.index, fill_value=0)
    assert result.value.recorded()["columns"] == [*names, "percent", "rows", "of"] and result.value.recorded()["groups"] == len(whole)
    got = {tuple(str(v) for v in row[:len(names)]): row[len(names):] for row in result.value.recorded()["rows"]}
    label = (lambda v: pd.Timestamp(v).isoformat()) if "bucket" in names else str
    expected = {tuple(str(v) if n != "bucket" else label(v) for n, v in zip(names, (k if isinstance(k, tuple) else (k,)),
                                                                             strict=True)): [
        pytest.approx(100 * part[k] / whole[k], rel=1e-5), int(part[k]), int(whole[k])] for k in whole.index}
    assert got == expected
    percents = [row[len(names)] for row in result.value.recorded()["rows"]]
    if "bucket" not in names:
        assert percents == sorted(percents, reverse=True)  # the highest share first


def test_share_of_the_previous_rows_needs_a_filter() -> None:
    df = frame([{"message": "a"}])
    with pytest.raises(ToolError, match="base=all"):
        run("share", context(df), base="previous")


@settings(max_examples=30, deadline=None)
@given(measured_frames())
def test_a_comparison_of_two_windows(df: pd.DataFrame) -> None:
    now = pd.Timestamp("2026-11-21T00:00Z")
    result = run("compare", context(df, now=now), a="now-1d..now", b="now-2d..now-1d")
    stamps = df["timestamp"]
    today = int(((stamps >= now - pd.Timedelta("1D")) & (stamps <= now)).sum())
    before = int(((stamps >= now - pd.Timedelta("2D")) & (stamps <= now - pd.Timedelta("1D"))).sum())
    value: dict[str, Any] = result.value.recorded()
    assert (value["a"], value["b"], value["difference"]) == (today, before, today - before)
    if before:
        assert value["percent_change"] == pytest.approx(100 * (today - before) / before, rel=1e-5)
        assert value["ratio"] == pytest.approx(today / before, rel=1e-5)
    else:
        assert "ratio" not in value


@settings(max_examples=30, deadline=None)
@given(measured_frames())
def test_a_comparison_of_two_values(df: pd.DataFrame) -> None:
    if not {"web1", "db1"} <= set(df["host"].dropna()):  # a value no line holds is refused, not counted as 0
        with pytest.raises(ToolError, match="never hold"):
            run("compare", context(df), a="web1", b="db1", by="host", field="latency_ms", func="max")
        return
    result = run("compare", context(df), a="web1", b="db1", by="host", field="latency_ms", func="max")
    sides = [df.loc[df["host"] == h, "latency_ms"].dropna() for h in ("web1", "db1")]
    assert [result.value.recorded()["a"], result.value.recorded()["b"]] == [int(s.max()) if len(s) else None for s in sides]


@settings(max_examples=30, deadline=None)
@given(frames(), st.sampled_from(["took", "fail", "a"]), st.sampled_from(["took", "ok", "A"]))
def test_a_comparison_of_two_searched_texts(df: pd.DataFrame, a: str, b: str) -> None:
    value = run("compare", context(df), a=a, b=b, by="text").value.recorded()
    text = df["raw"].str.lower()
    assert (value["a"], value["b"]) == (int(text.str.contains(a.lower(), regex=False).sum()),
                                        int(text.str.contains(b.lower(), regex=False).sum()))


@settings(max_examples=30, deadline=None)
@given(frames(), st.sampled_from(["took", "fail", "a"]))
def test_a_comparison_of_a_level_as_the_log_writes_it_with_a_searched_text(df: pd.DataFrame, text: str) -> None:
    value = run("compare", context(df), a="WARN", b=text, by="severity", by_b="text").value.recorded()
    assert (value["a"], value["b"]) == (int((df["severity"] == "warning").sum()),
                                        int(df["raw"].str.lower().str.contains(text.lower(), regex=False).sum()))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["latency_ms", "latncy_ms", "latenyc_ms", "Latency_MS"]), st.sampled_from(FUNCS[1:6]))
def test_a_misspelt_field_name_is_read_as_the_one_field_it_is_close_to(asked: str, func: str) -> None:
    df = _timed(frame([{"message": "a"}, {"message": "b"}]), [10, 30])
    assert run("field_stats", context(df), field=asked, func=func).value.recorded()[func] == _expected(
        df["latency_ms"], func, 50)
    with pytest.raises(ToolError, match="no numeric field"):
        run("field_stats", context(df), field="zzz", func=func)


def test_an_unknown_field_is_refused_with_the_fields_there_are() -> None:
    df = _timed(frame([{"message": "x"}, {"message": "y"}]), [5, None])
    with pytest.raises(ToolError, match=r"numeric fields: status, latency_ms \(ms\), took \(s\)"):
        run("field_stats", context(df), field="cpu")


def test_real_openstack_mean_response_time() -> None:
    from react_engine.logs.loader import load

    df = load([real_log("OpenStack")])
    result = run("field_stats", context(df), field="response time", func="mean")
    assert result.value.recorded() == {"mean": pytest.approx(0.2345, abs=5e-5), "rows": 1017, "unit": "s"}
    assert "0.234454 s over 1,017 rows with time" in result.summary


def test_a_two_way_table_of_many_values_lays_out_only_the_kept_pairs_and_says_what_it_leaves_out(
        tmp_path) -> None:
    import tracemalloc

    from react_engine import Engine
    from react_engine.logs.options import LoadOptions
    from react_engine.planners.rules import RulesPlanner
    from react_engine.tools.statistics import PIVOT_SIDE

    path = tmp_path / "wide.log"  # 30,000 lines, 15,000 hosts by 15,000 components: a full table is 225M cells
    path.write_text("".join(f"2026-11-20T10:{i // 60 % 60:02d}:{i % 60:02d} h{i % 15_000} c{i * 7 % 15_000}: INFO "
                            f"request done\n" for i in range(30_000)))
    tracemalloc.start()
    try:
        result = Engine(RulesPlanner()).ask("number of lines by host and component", [str(path)],
                                            load_options=LoadOptions(use_cache=False))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    table = next(s.value for s in result.steps if s.action == "field_stats")
    assert peak < 200e6, f"{peak / 1e6:.0f} MB"  # it took 2 GB
    assert len(table["rows"]) == PIVOT_SIDE and len(table["columns"]) == PIVOT_SIDE + 2
    assert table["left_out"] == {"host": 15_000 - PIVOT_SIDE, "component": 15_000 - PIVOT_SIDE}
    assert "14,988 more host and 14,988 more component values left out" in result.answer and result.verified
    assert sum(c for row in table["rows"] for c in row[1:-1] if c is not None) == sum(
        row[-1] for row in table["rows"])  # h0..h11 each meet one component only, all of them kept


_HUGE = "1" + "0" * 400  # past a float's range: inf when read


@pytest.mark.parametrize(("question", "value", "left"), [
    ("average size", 2.5, 2), ("max size", 3, 2), ("max size by host", None, 2),  # in the TB every line writes
    ("how many lines have size over 1 TB", 2, 2)])
def test_numbers_too_large_to_read_are_left_out_and_counted(tmp_path, question: str, value: float | None,
                                                            left: int) -> None:
    import json
    import warnings

    from click.testing import CliRunner

    from react_engine.app.cli import main

    path = tmp_path / "huge.log"
    path.write_text("".join(f"2026-11-20T10:00:0{i} host1 app: INFO stored size={v} TB\n"
                            for i, v in enumerate([_HUGE, "2", "3", f"-{_HUGE}"])))
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # numpy's overflow and invalid-value warnings
        result = CliRunner().invoke(main, ["ask", question, str(path), "--planner", "rules", "--no-cache",
                                           "--no-trace", "-o", "json"], catch_exceptions=False)

    def not_json(constant: str) -> None:
        raise AssertionError(f"{constant} in the reply")

    reply = json.loads(result.stdout, parse_constant=not_json)
    assert result.exit_code == 0 and "Warning" not in result.stderr, result.stderr
    assert reply["verified"] and f"{left} size values were too large to read, left out" in reply["answer"]
    assert "inf" not in reply["answer"] and "nan" not in reply["answer"].lower()
    if value is not None:
        assert reply["value"] == pytest.approx(value)


def test_a_json_number_too_large_to_read_is_left_out_and_counted(tmp_path) -> None:
    from react_engine import Engine
    from react_engine.logs.options import LoadOptions
    from react_engine.planners.rules import RulesPlanner

    path = tmp_path / "huge.jsonl"
    path.write_text("".join(f'{{"timestamp": "2026-11-20T10:00:0{i}Z", "level": "INFO", "message": "stored", '
                            f'"size": {v}}}\n' for i, v in enumerate([_HUGE, "2", f"-{_HUGE}", "1e400", "5"])))
    result = Engine(RulesPlanner()).ask("average size", [str(path)], load_options=LoadOptions(use_cache=False))
    assert result.value == 3.5 and result.verified  # it ended in a traceback (an integer past int64)
    assert "3 size values were too large to read, left out" in result.answer
