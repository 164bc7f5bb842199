"""Filters narrow the current rows exactly as the equivalent pandas expression does."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from real_logs import real_log
from tool_frames import LEVELS, WORDS, context, frame, frames, run

from react_engine.errors import ToolError
from react_engine.logs import LoadOptions, load
from react_engine.logs.macs import normalize as normalize_mac
from react_engine.logs.severity import at_least, normalize

FAST = settings(max_examples=60, deadline=None)


def sample() -> pd.DataFrame:
    return frame([
        {"message": "T3 timeout on Cable5/0/1", "level": ("ERROR", "error"), "host": "cmts01", "status": None},
        {"message": "t3 TIMEOUT again", "level": ("FATAL", "critical"), "host": "CMTS01"},
        {"message": "disk failure", "level": ("SEVERE", "critical"), "host": "db1", "pid": "22"},
        {"message": "GET / 404", "level": ("WARN", "warning"), "host": "web1", "status": 404},
        {"message": "GET / 200", "level": ("INFO", "info"), "host": "web1", "status": 200, "pid": "1"},
        {"message": "note", "level": (None, None), "host": "web1", "timestamp": None},
    ])


def labels(result) -> list[int]:
    return list(result.rows.index)


@given(df=frames(), word=st.sampled_from([w for w in WORDS if not normalize_mac(w)] + ["", "T", "zzz"]),
       case=st.booleans())
@FAST
def test_search_literal_matches_pandas(df: pd.DataFrame, word: str, case: bool) -> None:
    result = run("search_logs", context(df), value=word, case_sensitive=case)
    expected = df if not word else df[df["raw"].str.contains(word, case=case, regex=False)]
    assert labels(result) == list(expected.index)
    assert result.value.recorded() == len(expected)


@given(df=frames(), word=st.sampled_from([*WORDS, "T", "zzz"]), regex=st.booleans(), keep=st.lists(st.booleans(),
       min_size=30, max_size=30))
@FAST
def test_an_excluding_search_keeps_exactly_the_current_rows_the_search_drops(df: pd.DataFrame, word: str, regex: bool,
                                                                            keep: list[bool]) -> None:
    rows = df[keep[: len(df)]]
    value = re.escape(word) if regex else word
    found = run("search_logs", context(df, rows), value=value, regex=regex)
    dropped = run("search_logs", context(df, rows), value=value, regex=regex, exclude=True)
    assert labels(dropped) == [i for i in rows.index if i not in set(found.rows.index)]
    assert dropped.value.recorded() == len(rows) - found.value.recorded() and dropped.summary.startswith("not search")


@given(df=frames(), pattern=st.sampled_from([r"T\d", r"^\S+ web", r"[0-9a-f]{4}\.", r"time(?:out)?$", r"a{3}",
                                             r"\d+\.\d+"]))
@FAST
def test_search_regex_matches_pandas(df: pd.DataFrame, pattern: str) -> None:
    result = run("search_logs", context(df), value=pattern, regex=True, case_sensitive=True)
    assert labels(result) == list(df[df["raw"].str.contains(pattern, regex=True)].index)


def test_search_narrows_current_rows_and_empty_value_resets() -> None:
    df = sample()
    first = run("search_logs", context(df), value="timeout")
    second = run("search_logs", context(df, first.rows), value="again")
    assert labels(first) == [100, 101] and labels(second) == [101]
    assert second.summary == "search 'again' -> 1 of 2 rows"
    assert labels(run("search_logs", context(df, second.rows), value="")) == list(df.index)


def test_search_rejects_invalid_and_backtracking_only_regexes() -> None:
    for bad in ["(", r"(a)\1", "(?=a)b"]:
        with pytest.raises(ToolError, match="invalid regex"):
            run("search_logs", context(sample()), value=bad, regex=True)


def test_written_level_matches_exactly_and_synonyms_use_severity() -> None:
    df = sample()
    assert labels(run("filter_by_severity", context(df), levels="FATAL")) == [101]
    assert labels(run("filter_by_severity", context(df), levels=["SEVERE", "WARN"])) == [102, 103]
    # not written in the log: a synonym, so every critical row
    assert labels(run("filter_by_severity", context(df), levels="fatal")) == [101, 102]
    assert labels(run("filter_by_severity", context(df), levels="critical")) == [101, 102]
    assert labels(run("filter_by_severity", context(df), levels="err")) == [100]


def test_written_level_absent_from_current_rows_matches_nothing() -> None:
    df = sample()
    rows = df.loc[[102, 103]]  # SEVERE and WARN: FATAL exists in the frame but not here
    assert labels(run("filter_by_severity", context(df, rows), levels="FATAL")) == []


@given(df=frames(), level=st.sampled_from(["error", "warning", "critical", "info", "debug", "warn", "crit"]))
@FAST
def test_min_level_is_at_least(df: pd.DataFrame, level: str) -> None:
    result = run("filter_by_severity", context(df), min_level=level)
    assert labels(result) == list(df[df["severity"].isin(at_least(normalize(level)))].index)


@given(df=frames(), written=st.sampled_from([w for w, _ in LEVELS if w]))
@FAST
def test_levels_match_raw_when_written_else_severity(df: pd.DataFrame, written: str) -> None:
    result = run("filter_by_severity", context(df), levels=[written])
    if written.lower() not in {"error", "warning", "critical", "info", "debug"} and (df["level_raw"] == written).any():
        expected = df[df["level_raw"] == written]
    else:
        expected = df[df["severity"] == normalize(written)]
    assert labels(result) == list(expected.index)


def test_severity_errors_are_actionable() -> None:
    with pytest.raises(ToolError, match="unknown level 'bogus'.*FATAL"):
        run("filter_by_severity", context(sample()), levels="bogus")
    with pytest.raises(ToolError, match="give levels"):
        run("filter_by_severity", context(sample()))


@given(df=frames(), back=st.integers(0, 60 * 60), unit=st.sampled_from(["m", "h", "d"]))
@FAST
def test_relative_time_window_matches_pandas(df: pd.DataFrame, back: int, unit: str) -> None:
    now = pd.Timestamp("2026-11-21T12:00Z")
    result = run("filter_by_time", context(df, now=now), start=f"now-{back}{unit}", end="now")
    start = now - pd.Timedelta(back, unit={"m": "min", "h": "h", "d": "D"}[unit])
    stamps = df["timestamp"]
    assert labels(result) == list(df[(stamps >= start) & (stamps <= now)].index)


def test_absolute_times_naive_as_utc_and_offsets_converted() -> None:
    df = sample()  # rows at 10:00, 10:07, 10:14, 10:21, 10:28 UTC and one without a time
    assert labels(run("filter_by_time", context(df), start="2026-11-20T10:07", end="2026-11-20 10:21:00")) \
        == [101, 102, 103]
    assert labels(run("filter_by_time", context(df), start="2026-11-20T12:15+02:00", end="now")) == [103, 104]
    with pytest.raises(ToolError, match="after end"):
        run("filter_by_time", context(df), start="now", end="now-1h")
    with pytest.raises(ToolError, match="cannot read time"):
        run("filter_by_time", context(df), start="yesterday-ish")


@given(df=frames(), field=st.sampled_from(["host", "component", "pid", "status"]),
       value=st.sampled_from(["web1", "WEB2", "sshd", "22", "404", 404, 200.0, "main"]),
       op=st.sampled_from(["eq", "ne", "contains"]))
@FAST
def test_filter_by_field_matches_pandas(df: pd.DataFrame, field: str, value: object, op: str) -> None:
    ctx = context(df)
    column = df[field]
    text = str(int(value)) if isinstance(value, float) else str(value)
    if field == "status" and column.isna().all():  # an empty column gives way to the http_status entity type,
        if op != "ne":  # ... which these lines never hold: the logs have no status codes, rather than 0 lines
            with pytest.raises(ToolError, match="these logs have no status codes"):
                run("filter_by_field", ctx, field=field, value=value, op=op)
            return
        expected = pd.Series(False, index=df.index)
    elif op == "contains":
        expected = column.astype("str").str.contains(text, case=False, regex=False).fillna(False)
    elif field == "status":
        if not text.isdigit():
            with pytest.raises(ToolError, match="holds numbers"):
                run("filter_by_field", ctx, field=field, value=value, op=op)
            return
        expected = (column == int(text)).fillna(False)
    else:
        expected = column == text
        if not expected.any():
            expected = column.str.lower() == text.lower()
        expected = expected.fillna(False)
    if op == "ne":
        expected = ~expected.astype(bool)
    result = run("filter_by_field", ctx, field=field, value=value, op=op)
    assert labels(result) == list(df[expected.astype(bool).to_numpy()].index)


def test_filter_by_field_regex_numbers_and_unknown_column() -> None:
    df = sample()
    assert labels(run("filter_by_field", context(df), field="status", value="404")) == [103]
    assert labels(run("filter_by_field", context(df), field="status", value="^[45]", op="regex")) == [103]
    assert labels(run("filter_by_field", context(df), field="Host", value="cmts01")) == [100]
    assert labels(run("filter_by_field", context(df), field="pid", value=22)) == [102]
    with pytest.raises(ToolError, match=r"no column or entity type 'gizmo'; columns are: timestamp, severity.*"
                                        r"entity types are: cm_mac"):
        run("filter_by_field", context(df), field="gizmo", value="x")


def test_reset_filters_restores_every_row() -> None:
    df = sample()
    result = run("reset_filters", context(df, df.iloc[:2]))
    assert result.rows is df and result.value.recorded() == len(df)


def test_search_uses_message_when_raw_is_absent() -> None:
    df = sample().drop(columns="raw")
    expected = df[df["message"].str.contains("get", case=False)]
    assert labels(run("search_logs", context(df), value="get")) == list(expected.index)


def test_regex_search_agrees_with_python_re_on_unicode() -> None:
    df = frame([{"message": "ümlaut Ärger"}, {"message": "plain"}])
    result = run("search_logs", context(df), value="ärg(er)?", regex=True)
    assert labels(result) == [i for i, raw in df["raw"].items() if re.search("ärg(er)?", raw, re.I)]


def test_mac_in_any_notation_finds_every_notation() -> None:
    df = frame([{"message": "modem 001d.d38e.d4b7 offline"}, {"message": "CM-MAC=00:1D:D3:8E:D4:B7;"},
                {"message": "other 00:1d:d3:8e:d4:b8"}, {"message": "bare 001dd38ed4b7"}])
    result = run("search_logs", context(df), value="00-1d-d3-8e-d4-b7")
    assert labels(result) == [100, 101, 103] and "any MAC notation" in result.summary
    df["cm_mac"] = pd.Series(["00:1d:d3:8e:d4:b7", "00:1d:d3:8e:d4:b7", None, None], index=df.index, dtype="str")
    assert labels(run("filter_by_field", context(df), field="cm_mac", value="001D.D38E.D4B7")) == [100, 101]


def test_filter_by_entity_type_keeps_rows_holding_the_value() -> None:
    df = frame([{"message": "from 10.0.0.1"}, {"message": "from 10.0.0.2 via 10.0.0.1"}, {"message": "none"},
                {"message": "mac 00:1d:d3:8e:d4:b7"}])
    result = run("filter_by_field", context(df), field="ip", value="10.0.0.1")
    assert labels(result) == [100, 101] and list(result.entities["ip"].index) == [100, 101, 101]
    assert labels(run("filter_by_field", context(df), field="ip", value="10.0.0.1", op="ne")) == [102, 103]
    assert labels(run("filter_by_field", context(df), field="mac", value="001d.d38e.d4b7")) == [103]
    assert labels(run("filter_by_field", context(df), field="ip", value=r"\.2$", op="regex")) == [101]


def test_a_column_empty_in_the_current_rows_gives_way_to_the_entity_type() -> None:
    df = frame([{"message": "session opened for user root"}, {"message": "Failed password for bob from x"}])
    df["user"] = pd.Series([None, None], index=df.index, dtype="str")
    assert labels(run("filter_by_field", context(df), field="user", value="bob")) == [101]
    df.loc[100, "user"] = "alice"
    assert labels(run("filter_by_field", context(df), field="user", value="bob")) == []


@given(octets=st.lists(st.integers(0, 255), min_size=4, max_size=4))
@settings(max_examples=100, deadline=None)
def test_an_ipv4_address_is_never_read_as_a_mac(octets: list[int]) -> None:
    address = ".".join(map(str, octets))
    assert normalize_mac(address) is None
    df = frame([{"message": f"Failed password from {address} port 22"}, {"message": "other"}])
    result = run("search_logs", context(df), value=address)
    assert labels(result) == [100] and "MAC" not in result.summary


@given(digits=st.text("0123456789abcdefABCDEF", min_size=12, max_size=12),
       way=st.sampled_from(["colon", "hyphen", "dotted", "wrong"]))
@settings(max_examples=100, deadline=None)
def test_a_mac_needs_its_separators_in_their_places(digits: str, way: str) -> None:
    pairs = [digits[i : i + 2] for i in range(0, 12, 2)]
    written = {"colon": ":".join(pairs), "hyphen": "-".join(pairs),
               "dotted": ".".join(digits[i : i + 4] for i in range(0, 12, 4)),
               "wrong": ".".join(digits[i : i + 3] for i in range(0, 12, 3))}[way]
    assert normalize_mac(written) == (None if way == "wrong" else ":".join(pairs).lower())


def test_searching_an_ip_on_the_openssh_sample_counts_what_grep_counts() -> None:
    path = real_log("OpenSSH")
    expected = sum("187.141.143.180" in line for line in path.read_text(encoding="utf-8").splitlines())
    df = load(path, LoadOptions(use_cache=False))
    assert run("search_logs", context(df), value="187.141.143.180").value.recorded() == expected > 0


def test_a_level_filter_that_keeps_nothing_says_how_many_lines_name_the_level() -> None:
    df = frame([{"message": "Warning: unrecognized attribute", "level": ("Info", "info")},
                {"message": "SQM: Warning: failed upload", "level": ("Info", "info")},
                {"message": "all good", "level": ("Info", "info")}])
    result = run("filter_by_severity", context(df), levels="warning")
    assert result.value.recorded() == 0 and result.note is not None
    assert "2 lines" in result.note and 'search_logs(value="warning")' in result.note
    assert run("search_logs", context(df), value="warning").value.recorded() == 2  # the count offered is the search's
    assert run("filter_by_severity", context(df), levels="info").note is None  # every line says Info


def test_a_level_filter_that_keeps_some_rows_adds_no_note() -> None:
    df = frame([{"message": "disk full", "level": ("WARN", "warning")},
                {"message": "Warning: low memory", "level": ("INFO", "info")}])
    assert run("filter_by_severity", context(df), levels="warning").note is None


_FILTER_CALLS = st.one_of(
    st.fixed_dictionaries({"name": st.just("search_logs"), "value": st.sampled_from(["timeout", "T3", "a.b", "ok"]),
                           "regex": st.booleans()}),
    st.fixed_dictionaries({"name": st.just("filter_by_severity"),
                           "levels": st.lists(st.sampled_from(["ERROR", "error", "warn", "debug", "E"]), max_size=2),
                           "min_level": st.sampled_from(["error", "warning"])}),
    st.tuples(st.sampled_from([("host", "web1"), ("host", "WEB2"), ("pid", "22"), ("status", "404")]),
              st.sampled_from(["eq", "ne", "contains"])).map(
        lambda c: {"name": "filter_by_field", "field": c[0][0], "value": c[0][1], "op": c[1]}),
    st.fixed_dictionaries({"name": st.just("filter_by_field"), "field": st.just("ip"),
                           "value": st.just("10.0.0.1")}),
    st.fixed_dictionaries({"name": st.just("filter_by_time"), "start": st.sampled_from(["now-1h", "now-1d"])}),
)


@given(df=frames(), call=_FILTER_CALLS, narrowed_first=st.booleans())
@FAST
def test_a_filter_and_its_exclusion_partition_the_current_rows(df: pd.DataFrame, call: dict[str, object],
                                                                 narrowed_first: bool) -> None:
    params = dict(call)
    name = str(params.pop("name"))
    rows = df[df["host"] != "db1"] if narrowed_first else df
    now = pd.Timestamp("2026-11-21T12:00Z")
    if params.get("field") == "status" and params.get("op") != "ne" and df["status"].isna().all():
        # a log that writes no status code: "status = 404" is refused, "status != 404" keeps every line
        with pytest.raises(ToolError, match="these logs have no status codes"):
            run(name, context(df, rows, now=now), **params)
        return
    kept = run(name, context(df, rows, now=now), **params)
    left = run(name, context(df, rows, now=now), **params, exclude=True)
    assert sorted(labels(kept) + labels(left)) == list(rows.index)
    assert not set(labels(kept)) & set(labels(left))
    assert kept.value.recorded() + left.value.recorded() == len(rows)
    assert left.summary.startswith("not ")


def test_excluding_a_level_keeps_the_other_levels_and_the_rows_without_one() -> None:
    df = sample()
    result = run("filter_by_severity", context(df), levels="error", exclude=True)
    assert labels(result) == [101, 102, 103, 104, 105]
    assert result.note is None
    assert labels(run("filter_by_field", context(df), field="host", value="web1", exclude=True)) == [100, 101, 102]


def test_excluding_an_empty_search_is_refused_with_what_to_do() -> None:
    with pytest.raises(ToolError, match="give a value to exclude"):
        run("search_logs", context(sample()), value="", exclude=True)


def test_levels_written_as_initials_are_told_apart_by_their_initial() -> None:
    df = frame([{"message": "a", "level": ("V", "debug")}, {"message": "b", "level": ("D", "debug")},
                {"message": "c", "level": ("I", "info")}, {"message": "d", "level": ("D", "debug")}])
    assert labels(run("filter_by_severity", context(df), levels="debug")) == [101, 103]
    assert labels(run("filter_by_severity", context(df), levels="verbose")) == [100]
    assert labels(run("filter_by_severity", context(df), levels="verbose", exclude=True)) == [101, 102, 103]
    assert labels(run("filter_by_severity", context(df), min_level="info", exclude=True)) == [100, 101, 103]
