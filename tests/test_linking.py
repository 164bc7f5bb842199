"""Questions in the log's own words: a number that is a value of the log, a field named with its value ("stage
4.0"), "what is the X of ..." answered with a value of X (or partial), an event named by the words its lines write
("connection request"), and the real loghub samples read the same way."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
import re2
from hypothesis import given
from hypothesis import strategies as st
from question_frames import ask, frame
from real_logs import HOW_TO_RUN
from real_logs import REAL_LOGS as REAL

from react_engine.question.reading.field_values import pair_pattern
from react_engine.question.reading.log_words import number_pattern

ROOT = Path(__file__).resolve().parents[1]

HDFS_LIKE = [
    "Receiving block blk_1 src: /10.0.0.1:50010 dest: /10.0.0.2:50010",
    "Receiving block blk_2 src: /10.0.0.3:41000 dest: /10.0.0.1:50010",
    "Receiving block blk_3 src: /10.0.0.3:42000 dest: /10.0.0.4:50010",
    "Deleting block blk_1 file /data/blk_1",
    "Finished task 1.0 in stage 4.0 (TID 79). 2 bytes result sent to driver",
    "Finished task 2.0 in stage 4.0 (TID 80). 2 bytes result sent to driver",
    "Finished task 1.0 in stage 5.0 (TID 91). 2 bytes result sent to driver",
    "Received connection request /10.0.0.9:3888",
    "Received connection request /10.0.0.8:3888",
    "Connection broken for id 3",
    "Connection closed by 10.0.0.9",
]


@pytest.mark.parametrize(("question", "truth"), [
    ("how many receiving block from 41000?", 1),  # a port, written after an address
    ("how many receiving block in src 10.0.0.3?", 2),  # the src field, not the dest one
    ("how many receiving block in dest 10.0.0.1?", 1),
    ("how many finished task in stage 4.0?", 2),
    ("how many connection request?", 2),  # the log's own phrase, not every line naming a connection
    ("how many connections closed?", 1),
])
def test_counts_in_the_logs_own_words(question: str, truth: int) -> None:
    result = ask(question, frame(HDFS_LIKE))
    assert result.value == truth and result.verified and not result.partial, result.answer


@pytest.mark.parametrize(("question", "truth"), [
    ("what is the src of 41000 that receiving block?", "10.0.0.3"),  # the address, its port is another value
    ("what is the tid of task 2.0 in stage 4.0?", "80"),
])
def test_what_is_the_field_of_a_value_is_answered_with_that_fields_value(question: str, truth: str) -> None:
    result = ask(question, frame(HDFS_LIKE))
    assert str(result.value) == truth and result.verified, result.answer


PAIRS = [
    "setVisibility vis=600 mask=ffffffff old=508",
    "setVisibility vis=508 mask=0000beef old=700",
    "LAPIC (acpi_id[0x01] lapic_id[0x00] enabled)",
    "LAPIC (acpi_id[0x02] lapic_id[0x06] enabled)",
    "Input size for job job_1 = 1256521728. Number of splits = 10",
    "Input size for job job_2 = 2000000. Number of splits = 3",
    "Got user-level exception type:create reqpath:n/a Error Path:/hbase",
    "Alarm upload totalSteps=7163Calories:153367Floor:240Distance:5112",
    "Alarm upload totalSteps=9000Calories:100Floor:300Distance:77",
]


@pytest.mark.parametrize(("question", "truth"), [
    ("what is the mask of 600 that setvisibility vis?", "ffffffff"),  # a value of letters, marked by `=`
    ("what is the acpi_id of 0x00 that lapic?", "0x01"),  # attached in brackets
    ("what is the splits of 1256521728 that input size?", "10"),  # the name as written, not "split"
    ("what is the reqpath of type that got user?", "n/a"),
])
def test_a_field_is_read_as_the_log_writes_it_with_its_value(question: str, truth: str) -> None:
    result = ask(question, frame(PAIRS))
    assert str(result.value) == truth and result.verified, result.answer


@pytest.mark.parametrize(("question", "truth"), [
    ("what is the client of 52117 that established session?", "10.0.0.28"),  # an entity word the log writes
    ("what is the request of 60366 that received connection?", "10.0.0.13"),  # a word the rules read as filler
    ("what is the client of 0x2 that established session?", "10.0.0.29"),  # the address, not with its port
])
def test_a_word_read_otherwise_names_the_field_the_log_writes_after_it(question: str, truth: str) -> None:
    lines = ["Established session 0x1 with timeout 10000 for client /10.0.0.28:52117",
             "Established session 0x2 with timeout 10000 for client /10.0.0.29:41000",
             "Refused session with timeout 10000 for client 7:41000",
             "Received connection request /10.0.0.13:60366", "Received connection request /10.0.0.14:3888"]
    result = ask(question, frame(lines))
    assert result.value == truth and result.verified, result.answer


def test_a_measure_word_is_never_a_field_of_a_value() -> None:
    lines = ["request served status 500 total 12", "request served status 200 total 14"]
    result = ask("what is the total of 500 that request served?", frame(lines))
    assert result.value != 12 or not result.verified, result.answer


def test_a_field_whose_value_holds_the_value_named_is_not_read_as_another_field_of_it() -> None:
    result = ask("what is the totalsteps of 153367Floor that alarm upload?", frame(PAIRS))
    assert not (result.verified and not result.partial) or result.value == "7163Calories", result.answer
    assert "153367Floor" not in str(result.value), result.answer


@given(st.sampled_from(["mask", "state", "mode"]), st.lists(st.from_regex(r"[a-z]{3,8}", fullmatch=True), min_size=2,
                                                              max_size=4, unique=True), st.sampled_from(["=", " = "]))
def test_the_value_asked_is_the_one_its_line_writes_or_none(name: str, values: list[str], between: str) -> None:
    lines = [f"set flag id={i + 10} {name}{between}{v}" for i, v in enumerate(values)]
    result = ask(f"what is the {name} of {11} that set flag?", frame(lines))
    assert result.value == values[1] or not result.verified, result.answer


def test_what_is_the_field_of_a_value_the_log_never_names_is_partial() -> None:
    result = ask("what is the gizmo of 41000 that receiving block?", frame(HDFS_LIKE))
    assert result.partial and not result.verified and result.answer.startswith('I did not read "gizmo"')


@pytest.mark.parametrize(("question", "unread"), [
    ("how many display?", "display"),  # a filler word the log writes, not looked for: not every line
    ("how many first from 41000?", "how many"),  # lines listed are no count
    ("display: how many?", "display"),  # what is counted written before "how many"
    ("Count the display lines", "display"),
])
def test_what_a_count_names_and_the_rules_did_not_look_for_makes_it_partial(question: str, unread: str) -> None:
    result = ask(question, frame([*HDFS_LIKE, "display 3 redrawn"]))
    assert result.partial and not result.verified, result.answer
    assert result.answer.startswith(f'I did not read "{unread}"'), result.answer


def test_a_number_the_log_never_writes_as_a_value_is_not_searched() -> None:
    result = ask("how many receiving block from 777?", frame(HDFS_LIKE))
    assert result.value is None and not result.verified


@given(st.integers(0, 10**6), st.sampled_from(["port {}", "{}", "/10.0.0.1:{}", "({}).", "x={},"]),
       st.integers(1, 9))
def test_a_number_is_found_as_a_value_of_its_own_and_never_inside_another(n: int, shape: str, digit: int) -> None:
    pattern = number_pattern(str(n))
    own, longer, decimal = shape.format(n), shape.format(f"{digit}{n}"), shape.format(f"{n}.{digit}")
    for compiled in (re.compile(pattern), re2.compile(pattern)):
        assert compiled.search(own) and not compiled.search(longer) and not compiled.search(decimal)


@given(st.sampled_from(["src", "port", "TID", "stage"]), st.from_regex(r"[0-9]{1,5}(\.[0-9]{1,3}){0,3}", fullmatch=True),
       st.sampled_from([": /", " ", "=", " #"]))
def test_a_field_and_its_value_are_found_as_the_log_writes_them(word: str, value: str, between: str) -> None:
    pattern = pair_pattern(word.lower(), value)
    line = f"x {word}{between}{value} y"
    assert re2.compile(pattern).search(line) and re.search(pattern, line)
    assert not re.search(pattern, f"x {word}{between}{value}9 y") and not re.search(pattern, f"x other {value} y")


@pytest.mark.skipif(not (REAL / "HDFS").is_dir(), reason=HOW_TO_RUN)
def test_loghub_hdfs_src_of_a_port_and_a_count_by_a_port() -> None:
    csv = pd.read_csv(REAL / "HDFS" / "HDFS_2k.log_structured.csv", dtype=str)
    receiving = csv[csv["EventTemplate"].str.startswith("Receiving block")]
    found = receiving["Content"].str.extract(r"src: /([\d.]+):(\d+)")
    port = found[1].value_counts()
    one = port[port == 1].index[0]
    src = found.loc[found[1] == one, 0].iloc[0]
    from react_engine import Engine
    from react_engine.logs.options import LoadOptions
    from react_engine.planners.rules import RulesPlanner

    engine, log = Engine(RulesPlanner()), [str(REAL / "HDFS" / "HDFS_2k.log")]
    result = engine.ask(f"What is the src of {one} that receiving block?", log, load_options=LoadOptions(year=2026))
    assert str(result.value).split(":")[0] == src and result.verified, result.answer
    result = engine.ask(f"How many receiving block from {one}?", log, load_options=LoadOptions(year=2026))
    assert result.value == int(receiving["Content"].str.contains(rf":{one}\b").sum()) and result.verified


def test_a_refusal_that_asks_for_the_question_again_is_not_verified() -> None:
    f = frame(["Deleting block blk_1", "Receiving block blk_2", "Receiving packet 3"] * 10)
    result = ask("how many deleting packets?", f)
    assert result.value is None and "rephrase" in result.answer.lower()
    assert not result.verified and not result.answered, result.answer


def test_a_filler_word_the_log_writes_with_a_value_names_its_field_with_the_word_before_it() -> None:
    """"for id 1": the log writes "for id 1, my id = 3", where "id 1" alone also finds "my id = 1"; "id" is a
    filler word of the rules, and the value alone is in many more lines."""
    lines = ["Connection broken for id 1, my id = 3, error =", "Connection broken for id 7, my id = 1, error =",
             "Connection broken for id 7, my id = 1, error =", "Send worker leaving thread id 1"]
    result = ask("how many connection broken for id 1?", frame(lines))
    assert result.value == sum("for id 1," in m for m in lines) and result.verified, result.answer
