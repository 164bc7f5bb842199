"""Questions that ask of a field the way operators do: how many distinct values when an event, the first or last
value, the lowest and highest value, a "when" joining what is asked to the event; and the real loghub samples
asked the same way. Truths are computed with pandas over the same rows."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from question_frames import ask, frame
from real_logs import real_log

from react_engine.logs.fields import pair_named, read
from react_engine.question.asking import CONDITION

sizes = st.lists(st.integers(10, 10**8), min_size=2, max_size=8)  # a value of one digit is no name (answer.names)
ports = st.lists(st.integers(1024, 65535), min_size=2, max_size=8)
few = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _received(size_list: list[int], port_list: list[int]) -> pd.DataFrame:
    """Received lines (size, address and port), with other lines between them."""
    messages = []
    for i, (size, port) in enumerate(zip(size_list, port_list, strict=False)):
        messages += [f"Received block blk_{i} of size {size} from /10.0.0.{i % 3}:{port}", f"Deleting block blk_{i}"]
    return frame(messages)


@few
@given(sizes, ports)
def test_how_many_distinct_values_when_an_event(size_list: list[int], port_list: list[int]) -> None:
    rows = _received(size_list, port_list)
    result = ask("How many distinct size when received block?", rows)
    truth = len(set(size_list[:len(port_list)]))
    assert result.value == truth and result.verified and not result.partial, result.answer


@few
@given(sizes, ports, st.sampled_from(["first", "last"]))
def test_the_first_or_last_value_of_a_field_when_an_event(size_list: list[int], port_list: list[int],
                                                          which: str) -> None:
    rows = _received(size_list, port_list)
    held = size_list[:len(port_list)]
    result = ask(f"What is the {which} size when received block?", rows)
    truth = held[0] if which == "first" else held[-1]
    assert str(result.value) == str(truth) and result.verified, result.answer


@few
@given(sizes, ports)
def test_the_lowest_and_highest_value_are_both_answered(size_list: list[int], port_list: list[int]) -> None:
    rows = _received(size_list, port_list)
    held = size_list[:len(port_list)]
    result = ask("What are the min and max size when received block?", rows)
    assert result.value == {"min": min(held), "max": max(held)} and result.verified, result.answer


def test_a_when_between_what_is_asked_and_an_event_asks_no_time() -> None:
    assert CONDITION.search("how many distinct size when received block")
    assert CONDITION.search("what is the first src when receiving block")
    assert not CONDITION.search("when was the first error")
    assert not CONDITION.search("first WARN lines - when?")
    assert not CONDITION.search("the time when was it")


@given(st.from_regex(r"[A-Za-z][A-Za-z_]{1,10}", fullmatch=True), st.integers(-10**6, 10**6),
       st.sampled_from([" ", ":", ": ", "=", " = "]))
def test_a_number_written_right_after_its_name_is_read_when_a_question_names_it(key: str, number: int,
                                                                                  between: str) -> None:
    message = f"stage done in scoreboard {key}{between}{number}."
    found = pair_named(key, [message])
    assert found is not None
    assert read(pd.Series([message]), found).iloc[0] == number


def _hdfs(template: str, pattern: str) -> pd.Series:
    """The values `pattern`'s group reads from the real HDFS sample's lines of one template, in line order."""
    structured = pd.read_csv(real_log("HDFS", ".log_structured.csv"), dtype=str)
    rows = structured[structured["EventTemplate"].str.startswith(template)]
    rows = rows.assign(line=rows["LineId"].astype(int)).sort_values("line")
    return rows["Content"].str.extract(pattern, expand=False)


@pytest.mark.parametrize(("question", "template", "pattern", "truth"), [
    ("What is the first src when receiving block?", "Receiving block", r"src: /([\d.]+):", lambda v: v.iloc[0]),
    ("What is the last dest when receiving block?", "Receiving block", r"dest: /([\d.]+):", lambda v: v.iloc[-1]),
    ("How many distinct size when received block?", "Received block", r"of size (\d+)", lambda v: v.nunique()),
    ("What are the min and max size when received block?", "Received block", r"of size (\d+)",
     lambda v: {"min": int(v.astype(int).min()), "max": int(v.astype(int).max())}),
])
def test_real_hdfs_fields(question: str, template: str, pattern: str, truth: Callable[[pd.Series], object]) -> None:
    from react_engine import Engine, Settings
    from react_engine.logs.options import LoadOptions
    from react_engine.planners.rules import RulesPlanner

    log = real_log("HDFS")
    expected = truth(_hdfs(template, pattern))
    result = Engine(RulesPlanner(), Settings(max_iterations=12)).ask(question, [str(log)],
                                                                    load_options=LoadOptions(use_cache=False))
    assert str(result.value) == str(expected) and result.verified, result.answer


@few
@given(st.lists(st.from_regex(r"/[a-z]{1,6}(?:/[a-z_]{1,8}){0,3}/blk_[0-9]{1,5}", fullmatch=True), min_size=1,
                max_size=5))
def test_a_path_after_its_name_keeps_its_slash(paths: list[str]) -> None:  # a value after a word holds a digit
    rows = frame([f"Deleting block blk_{i} file {p}" for i, p in enumerate(paths)])
    result = ask("What is the last file when deleting block?", rows)
    assert result.value == paths[-1] and result.verified, result.answer


def test_a_first_value_of_a_word_no_line_writes_as_a_field_is_partial() -> None:
    rows = _received([10, 20, 30], [1024, 1025, 1026])
    result = ask("What is the first zork when received block?", rows)
    assert "zork" in result.answer and not (result.verified and not result.partial), result.answer


@few
@given(sizes)
def test_ranking_by_distinct_values_of_a_field_the_log_writes(size_list: list[int]) -> None:
    rows = _received(size_list, [1024 + i for i in range(len(size_list))])
    result = ask("Which IP has the most distinct sizes?", rows)
    per = pd.DataFrame({"ip": [f"10.0.0.{i % 3}" for i in range(len(size_list))], "size": size_list})
    counts = per.groupby("ip")["size"].nunique()
    leaders = sorted(counts[counts == counts.max()].index)
    assert result.value == (leaders[0] if len(leaders) == 1 else leaders) and result.verified, result.answer


def test_ranking_by_distinct_values_of_a_word_no_line_writes_is_refused() -> None:
    rows = _received([10, 20, 30, 40], [1024, 1025, 1026, 1027])
    result = ask("Which IP has the most distinct zorks?", rows)
    assert result.value is None and not result.verified and "zorks" in result.answer, result.answer


def test_a_distinct_count_read_as_a_count_of_lines_is_partial() -> None:
    """"how many distinct udev": udev names the lines' component, so no distinct values are counted."""
    f = frame(["removing device node '/udev/vcs2'", "removing device node '/udev/vcsa2'"] * 2 + ["creating device"],
              component=["udev"] * 5)
    result = ask("How many distinct udev when removing device?", f)
    assert result.partial and not result.verified and '"distinct"' in result.answer, result.answer


def test_a_name_written_after_a_key_and_a_colon_is_a_value_without_digits() -> None:
    f = frame(["CCLogTap::profileRemoved, Owner: com.apple.iokit.IO80211Family, Name: OneStats"]
              + ["CCLogTap::profileRemoved, Owner: com.apple.iokit.IO80211Family, Name: IO80211AWDLPeerManager"] * 2)
    names = f.message.str.extract(r"Name: (\w+)")[0].value_counts(ascending=True)
    result = ask("Which name has the fewest cclogtap?", f)
    assert result.value == names.index[0] and result.verified, result.answer


def test_a_path_after_a_key_and_a_colon_keeps_its_slash_and_an_address_heading_a_path_is_no_value() -> None:
    f = frame([f"Removing base or swap file: /var/lib/nova/_base/{n:04x}" for n in (7, 9)]
              + [f"Saved output of task {n} to hdfs://10.10.34.11:9000/test/task_{n}" for n in range(4)])
    last = f.message.str.extract(r"file: (\S+)")[0].dropna().iloc[-1]
    assert ask("What is the last file when removing base?", f).value == last
    paths = f.message.str.extract(r"hdfs://(\S+)")[0].nunique()
    result = ask("How many distinct hdfs when saved output?", f)
    assert result.value == paths and result.verified, result.answer


def test_a_first_or_last_of_an_event_nothing_searches_for_is_partial() -> None:
    f = frame(["Auditing locally available compute resources", "checking instance state", "service record updated"])
    for question, words in (("When did checking last happen?", "checking"),
                            ("When did service record first happen?", "service record")):
        result = ask(question, f)
        assert result.partial and not result.verified and f'"{words}"' in result.answer, result.answer


def test_the_span_of_lines_named_by_one_edge_of_a_pair_is_no_pairing() -> None:
    """"between the first and last session opened": the span of those lines, not how long sessions stayed open."""
    f = frame(["session opened for user root", "noise", "session opened for user cyrus", "session closed for user root",
               "session opened for user news", "noise"])
    opened = f.loc[f.message.str.contains("session opened"), "timestamp"]
    result = ask("How long between the first and last session opened?", f)
    assert result.value == {"seconds": (opened.max() - opened.min()).total_seconds()} and result.verified, result.answer


def test_a_phrase_whose_first_word_ends_a_name_is_searched_as_written() -> None:
    f = frame(["scheduler_evaluate_activity told me to run this job"] * 3 + ["user activity resumed"] * 2
              + ["activity monitor told nothing"], pid=["258", "258", "43", "43", "43", "43"])
    told = f.loc[f.message.str.contains("activity told"), "pid"].value_counts()
    result = ask("How many activity told per pid?", f)
    assert result.value == [[str(k), int(v)] for k, v in told.items()] and result.verified, result.answer


def test_a_peak_bucket_of_a_kind_of_value_counts_lines_and_says_so() -> None:
    f = frame([f"Receiving block blk_{n} src: /10.0.0.{n}:50010" for n in range(5)] + ["Verification ok"] * 3)
    result = ask("Which hour had the most blocks?", f)
    assert result.partial and not result.verified and '"blocks"' in result.answer, result.answer


def test_a_when_inside_the_question_before_words_the_log_writes_asks_no_time() -> None:
    """"list the distinct cmp when has extras": the log writes `(has extras)`; "has" asks nothing here."""
    f = frame([f"START u0 {{act=main cmp=com.app{n % 3}/.Main (has extras)}}" for n in range(6)] + ["Displayed x"])
    result = ask("List the distinct cmp when has extras", f)
    wanted = set(f.message.str.extract(r"cmp=(\S+)")[0].dropna())
    assert set(result.value or []) == wanted and result.verified, result.answer


def test_the_last_severity_word_of_a_log_without_levels_is_the_field_it_writes() -> None:
    f = frame([f"Could not connect to proxy - connection attempt failed with error {n}" for n in (10061, 10060)]
              + ["close, 100 bytes sent"])
    result = ask("What is the last error when connection attempt?", f)
    assert result.value == f.message.str.extract(r"error (\d+)")[0].dropna().iloc[-1] and result.verified


@pytest.mark.parametrize("which, count", [("first", 3), ("last", 2)])
def test_the_first_lines_of_a_word_a_pattern_field_is_named_by_are_lines(which: str, count: int) -> None:
    """"the first 3 POSTs" lists the POST lines, though `"POST <*>` makes POST a field of the access log's patterns;
    the line numbers are found by a regex over the file."""
    from pathlib import Path

    from react_engine import Engine, Settings
    from react_engine.logs.options import LoadOptions
    from react_engine.planners.rules import RulesPlanner

    log = Path("sample_logs/nginx/access.log")
    numbers = [n for n, line in enumerate(log.read_text().splitlines(), 1) if '"POST ' in line]
    chosen = numbers[:count] if which == "first" else numbers[-count:]
    result = Engine(RulesPlanner(), Settings(max_iterations=12)).ask(f"{which} {count} POSTs", [str(log)],
                                                                    load_options=LoadOptions(use_cache=False))
    assert all(f"access.log:{n} " in result.answer for n in chosen), result.answer
    assert "holding one" not in result.answer
