"""Distinct values of one field per value of another (`stats dc(port) by user`): the tool (`top_values` given
`distinct`) on hypothesis frames, the reading of the ways it is asked, and real loghub samples; truths computed with
pandas over the same rows."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from question_frames import ask, frame
from real_logs import real_log

from react_engine import Engine, Settings
from react_engine.logs.options import LoadOptions
from react_engine.planners.rules import RulesPlanner
from react_engine.question.measures import Top
from react_engine.tools.registry import REGISTRY, ToolContext
from react_engine.tools.results import DistinctRanking
from react_engine.tools.stats import TopValuesParams

few = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
hosts = st.sampled_from(["a", "b", "c", "d"])
components = st.sampled_from(["x", "y", "z", "w", "v"])


def _rank(f: pd.DataFrame, n: int, least: bool) -> DistinctRanking:
    ctx = ToolContext(frame=f, rows=f, now=pd.Timestamp("2026-11-20", tz="UTC"))
    params = TopValuesParams(field="host", distinct="component", n=n, order="asc" if least else "desc")
    result = REGISTRY["top_values"].run(params, ctx).value
    assert isinstance(result, DistinctRanking)
    return result


@few
@given(st.lists(st.tuples(hosts, st.one_of(components, st.none())), min_size=1, max_size=40), st.integers(1, 4),
       st.booleans())
def test_the_values_ranked_by_their_distinct_values_are_those_pandas_counts(
        rows: list[tuple[str, str | None]], n: int, least: bool) -> None:
    f = frame([f"line {i}" for i in range(len(rows))], host=[h for h, _ in rows], component=[c for _, c in rows])
    truth = f.dropna(subset=["component"]).groupby("host")["component"].nunique()
    result = _rank(f, n, least)
    assert result.values == len(truth)
    assert all(truth[v] == c for v, c in result.pairs)
    ordered = truth.sort_values(ascending=least)
    assert [c for _, c in result.pairs] == ordered.head(n).tolist()
    if result.pairs:  # the values past the cut with the last one's number are named, the others left out
        cut = result.pairs[-1][1]
        named = {v for v, _ in result.pairs}
        assert set(result.tied) == {v for v, c in truth.items() if c == cut and v not in named}
        assert result.tied_count == len(result.tied)


def test_a_line_holding_several_values_pairs_each_with_the_other() -> None:
    f = frame(["from 10.0.0.1 to 10.0.0.2 user=alice", "from 10.0.0.3 user=alice", "from 10.0.0.1 user=bob"])
    ctx = ToolContext(frame=f, rows=f, now=pd.Timestamp("2026-11-20", tz="UTC"))
    result = REGISTRY["top_values"].run(TopValuesParams(field="user", distinct="ip", n=2), ctx).value
    assert isinstance(result, DistinctRanking) and result.pairs == [("alice", 3), ("bob", 1)]


def _logins(users: list[str], ports: list[int]) -> pd.DataFrame:
    """sshd-like lines: a failed password for each user from a port, with other lines between them."""
    messages = []
    for i, (user, port) in enumerate(zip(users, ports, strict=False)):
        messages += [f"Failed password for {user} from 10.0.0.{i % 4} port {port} ssh2",
                     f"Connection closed by 10.0.0.{i % 4} port {port + 1}"]
    return frame(messages)


users = st.lists(st.sampled_from(["root", "admin", "oracle", "guest"]), min_size=2, max_size=12)


def _failed(rows: pd.DataFrame) -> pd.DataFrame:
    found = rows["message"].str.extract(r"Failed password for (\w+) from ([\d.]+) port (\d+)")
    return found.dropna().set_axis(["user", "ip", "port"], axis=1)


@few
@given(users, st.data())
def test_which_user_has_the_most_distinct_ports_when_failed_password(names: list[str], data: st.DataObject) -> None:
    ports = data.draw(st.lists(st.integers(1024, 1040), min_size=len(names), max_size=len(names)))
    rows = _logins(names, ports)
    result = ask("Which user has the most distinct ports when failed password?", rows)
    counts = _failed(rows).groupby("user")["port"].nunique()
    leaders = sorted(counts[counts == counts.max()].index)
    assert result.value == (leaders[0] if len(leaders) == 1 else leaders), result.answer
    assert result.verified and not result.partial, result.answer


@pytest.mark.parametrize("question", [
    "How many distinct ports per user when failed password?",
    "how many different ports did each user use when failed password?",
    "top 3 users by number of distinct ports when failed password",
    "the 3 users with the most distinct ports when failed password",
])
def test_the_ways_of_asking_for_distinct_values_per_value(question: str) -> None:
    rows = _logins(["root", "root", "admin", "root", "guest", "admin"], [1024, 1025, 1026, 1024, 1027, 1028])
    result = ask(question, rows)
    query = result.interpretation.query if result.interpretation else None
    assert query is not None and isinstance(query.measure, Top) and query.measure.distinct is not None, result.answer
    counts = _failed(rows).groupby("user")["port"].nunique().sort_values(ascending=False, kind="stable")
    assert result.value[:3] == [[u, c] for u, c in counts.head(3).items()], result.answer
    assert result.verified and not result.partial, result.answer


def test_the_fewest_distinct_values_names_every_value_tied_with_the_first() -> None:
    rows = _logins(["root", "admin", "guest", "root"], [1024, 1025, 1026, 1027])
    result = ask("which user has the fewest distinct ports?", rows)
    assert result.value == ["admin", "guest"] and "tie" in result.answer and result.verified, result.answer


def test_a_side_the_log_does_not_write_is_refused_by_its_words() -> None:
    rows = _logins(["root", "admin"], [1024, 1025])
    result = ask("which user has the most distinct zorks?", rows)
    assert result.value is None and not result.verified and "zorks" in result.answer, result.answer


def _real(system: str, question: str) -> tuple[pd.DataFrame, object]:
    log = real_log(system)
    structured = pd.read_csv(real_log(system, ".log_structured.csv"), dtype=str)
    result = Engine(RulesPlanner(), Settings(max_iterations=12)).ask(question, [str(log)],
                                                                    load_options=LoadOptions(use_cache=False))
    return structured, result


def test_openssh_distinct_ports_per_user_when_failed_password() -> None:
    structured, result = _real("OpenSSH", "How many distinct ports per user when failed password?")
    failed = structured["Content"].str.extract(r"^Failed password for (?:invalid user\s+)?(\S+) from \S+ port (\d+)")
    counts = failed.dropna().groupby(0)[1].nunique().sort_values(ascending=False, kind="stable")
    assert result.verified and not result.partial, result.answer  # type: ignore[attr-defined]
    value = result.value  # type: ignore[attr-defined]
    assert all(counts[user] == n for user, n in value), result.answer  # type: ignore[attr-defined]
    assert [n for _, n in value] == counts.head(len(value)).tolist()
    assert len(value) == 10 and f"of {len(counts)} holding any" in result.answer  # type: ignore[attr-defined]


def test_hdfs_the_src_with_the_most_distinct_blocks_when_receiving_block() -> None:
    structured, result = _real("HDFS", "Which src has the most distinct blocks when receiving block?")
    received = structured["Content"].str.extract(r"^Receiving block (blk_-?\d+) src: /([\d.]+):\d+")
    counts = received.dropna().groupby(1)[0].nunique()
    leaders = sorted(counts[counts == counts.max()].index)
    assert result.value == (leaders[0] if len(leaders) == 1 else leaders), result.answer  # type: ignore[attr-defined]
    assert result.verified, result.answer  # type: ignore[attr-defined]


def test_the_last_ports_when_an_event_are_values_in_time_order() -> None:
    structured, result = _real("OpenSSH", "the last 3 ports when failed password")
    failed = structured["Content"].str.extract(r"^Failed password for .* port (\d+)")[0].dropna()
    newest = list(dict.fromkeys(reversed(failed.tolist())))[:3]
    assert [str(v) for v in result.value] == newest, result.answer  # type: ignore[attr-defined]
    assert result.verified and not re.search(r"sshd\[", result.answer), result.answer  # type: ignore[attr-defined]


def test_hdfs_distinct_src_ports_per_dest_an_address_written_with_its_port() -> None:
    structured, result = _real("HDFS", "How many distinct src ports per dest when receiving block?")
    received = structured["Content"].str.extract(r"^Receiving block \S+ src: /[\d.]+:(\d+) dest: /([\d.]+):\d+")
    counts = received.dropna().groupby(1)[0].nunique()
    value = result.value  # type: ignore[attr-defined]
    assert result.verified and value and all(counts[dest] == n for dest, n in value), result.answer  # type: ignore[attr-defined]
    assert [n for _, n in value] == counts.sort_values(ascending=False).head(len(value)).tolist()


def test_hdfs_the_last_src_ports_are_the_ports_of_the_addresses() -> None:
    structured, result = _real("HDFS", "the last 3 src ports")
    ports = structured.assign(line=structured["LineId"].astype(int)).sort_values("line")["Content"].str.extract(
        r"\bsrc: /[\d.]+:(\d+)")[0].dropna()
    newest = list(dict.fromkeys(reversed(ports.tolist())))[:3]
    assert [str(v) for v in result.value] == newest and result.verified, result.answer  # type: ignore[attr-defined]


def test_a_value_of_one_digit_is_named_after_its_field() -> None:
    rows = _logins(["0", "0", "root"], [1024, 1025, 1026])
    result = ask("How many distinct ports per user when failed password?", rows)
    assert result.value == [["0", 2], ["root", 1]] and "user 0 (2)" in result.answer and result.verified, result.answer


@few
@given(st.lists(st.tuples(st.integers(1, 4), st.sampled_from([22, 23, 80, 443, 3389])), min_size=2, max_size=20))
def test_each_side_takes_the_role_its_own_words_give(packets: list[tuple[int, int]]) -> None:
    rows = frame([f"[UFW BLOCK] IN=eth0 SRC=192.0.2.{s} DST=10.0.0.{9 - s} PROTO=TCP SPT={40000 + i} DPT={d} SYN"
                  for i, (s, d) in enumerate(packets)])
    result = ask("how many distinct destination ports per source IP?", rows)
    counts = pd.DataFrame(packets, columns=["src", "dpt"]).groupby("src")["dpt"].nunique()
    truth = {f"192.0.2.{s}": n for s, n in counts.items()}
    assert result.verified and {v: n for v, n in result.value} == truth, result.answer


@few
@given(st.lists(st.tuples(hosts, st.sampled_from(["root", "admin", "oracle"])), min_size=2, max_size=20))
def test_how_many_of_an_entity_per_value_counts_it_distinctly_and_lines_stay_lines(
        logins: list[tuple[str, str]]) -> None:
    rows = frame([f"Failed password for {u} from 10.0.0.1 port 22 ssh2" for _, u in logins],
                 host=[h for h, _ in logins])
    users = ask("how many users per host?", rows)
    truth = pd.DataFrame(logins, columns=["host", "user"]).groupby("host")["user"].nunique()
    assert users.verified and {v: n for v, n in users.value} == truth.to_dict(), users.answer
    lines = ask("how many failed passwords per host?", rows)
    assert {v: n for v, n in lines.value} == rows["host"].value_counts().to_dict(), lines.answer


@few
@given(st.lists(st.tuples(st.integers(0, 5 * 60), st.sampled_from(["root", "admin", "oracle", "guest"])), min_size=2,
                max_size=30))
def test_distinct_values_per_time_bucket_are_those_pandas_counts(logins: list[tuple[int, str]]) -> None:
    logins = sorted(logins)
    rows = frame([f"Failed password for {u} from 10.0.0.1 port 22 ssh2" for _, u in logins])
    rows["timestamp"] = pd.Timestamp("2026-11-20 08:00", tz="UTC") + pd.to_timedelta([m for m, _ in logins], unit="min")
    result = ask("how many distinct users per hour?", rows)
    per = pd.DataFrame({"hour": rows["timestamp"].dt.floor("1h"), "user": [u for _, u in logins]})
    truth = per.groupby("hour")["user"].nunique()
    truth = truth.reindex(pd.date_range(truth.index.min(), truth.index.max(), freq="1h"), fill_value=0)
    assert result.verified and result.value == [[t.isoformat(), n] for t, n in truth.items()], result.answer
    peak = ask("which hour had the most distinct users?", rows)
    best = [t.isoformat() for t, n in truth.items() if n == truth.max()]
    assert peak.verified and [t for t, _ in peak.value] == best, peak.answer


def test_a_ranking_by_distinct_values_is_laid_out_as_a_ranking_table() -> None:
    from react_engine.answer.tables import result_table

    rows = _logins(["root", "root", "admin", "guest", "oracle"], [1024, 1025, 1026, 1027, 1028])
    result = ask("top 2 users by number of distinct ports when failed password", rows)
    table = result_table(result)
    counts = _failed(rows).groupby("user")["port"].nunique()
    assert table is not None and table.kind == "ranking" and table.rows[0] == ["root", 2]
    assert table.distinct == len(counts) and table.tied == int((counts == 1).sum()) - 1
    assert table.disclosure == f"2 of {len(counts)} values shown; {table.tied} more tie at 1"
