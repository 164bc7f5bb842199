"""The log's own events: message templates, and wordy questions read as one of them.

Expected counts are computed here with pandas over the frames the tests build, never taken from the engine.
"""

from __future__ import annotations

import re

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from question_frames import ask, frame

from react_engine.logs.wordforms import split_words
from react_engine.question.log_events import MASK, Events, runs_of, template_of

MESSAGES = st.lists(st.text(alphabet="abcXYZ019 ._:/=-[]()'", max_size=40), min_size=1, max_size=40)


def lines_with(f: pd.DataFrame, text: str) -> int:
    return int(f["message"].str.contains(text, case=False, regex=False).sum())


# --------------------------------------------------------------------------------------------- sampled lines

@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.text(alphabet="abcXYZ019 ._:", max_size=20), st.sampled_from(["", "error", "info"])),
                max_size=30),
       st.lists(st.sampled_from(["a", "b.c", "^x", "z$", r"\d", "[A-C]+1"]), max_size=3),
       st.one_of(st.none(), st.frozensets(st.sampled_from(["error", "info", "warning"]))))
def test_meet_counts_the_lines_every_pattern_matches_at_the_levels(rows: list[tuple[str, str]], patterns: list[str],
                                                                   levels: frozenset[str] | None) -> None:
    events = Events.build([m for m, _ in rows], [level for _, level in rows])
    expected = sum(1 for m, level in rows if (levels is None or level in levels)
                   and all(re.search(p, m, re.I) for p in patterns))
    assert events.meet(patterns, levels) == expected
    assert events.meet(patterns, levels) == expected  # again, from the remembered lines


# --------------------------------------------------------------------------------------------- templates

@settings(max_examples=200, deadline=None)
@given(MESSAGES)
def test_every_message_maps_to_exactly_one_template_whose_literal_runs_it_contains(messages: list[str]) -> None:
    events = Events.build(messages)
    assert sum(e.rows for e in events.events) == len(messages)
    templates = {e.template for e in events.events}
    assert len(templates) == len(events.events)
    for message in messages:
        template = template_of(message)
        assert template in templates
        assert all(run in message for run in runs_of(template))
        assert not re.search(r"\d", template.replace(MASK, ""))  # every number is masked


@settings(max_examples=100, deadline=None)
@given(MESSAGES, st.lists(st.text(alphabet="abcXYZ.019_", max_size=12), max_size=6))
def test_any_words_give_a_reading_of_an_event_or_none(messages: list[str], words: list[str]) -> None:
    events = Events.build(messages)
    reading = events.read(words)
    if reading is not None:
        assert reading.rows == sum(1 for m in messages if reading.search.lower() in m.lower()) > 0
        assert set(reading.words) <= set(words)


def test_names_are_split_into_words() -> None:
    assert split_words("calculateCaloriesWithCache") == ["calculate", "calories", "with", "cache"]
    assert split_words("NameSystem.delete") == ["name", "system", "delete"]
    assert split_words("invalidSet") == ["invalid", "set"]
    assert split_words("RMContainerAllocator SCREEN_OFF") == ["rm", "container", "allocator", "screen", "off"]


def test_numbers_ids_addresses_and_paths_are_masked() -> None:
    assert template_of("BLOCK* NameSystem.delete: blk_-42 is added to invalidSet of 10.1.2.3:50010") == \
        "BLOCK* NameSystem.delete: <*> is added to invalidSet of <*>"
    assert template_of("Opening /var/log/app for 0x1f") == "Opening <*> for <*>"


def test_an_event_is_read_only_when_it_clearly_explains_the_most_words() -> None:
    events = Events.build(["calculateCaloriesWithCache totalCalories=12", "calculateAltitudeWithCache total=3",
                           "onStandStepChanged 7"] * 3)
    reading = events.read(["recalculated", "calories", "cache"])
    assert reading is not None and reading.search == "calculateCaloriesWithCache totalCalories" and reading.rows == 3
    assert events.read(["calculated", "cache"]) is None  # both events say that much
    assert events.read(["giraffes", "cache"]) is None  # one word is not enough


# --------------------------------------------------------------------------------------------- questions

ZOOKEEPER = frame(["Cannot open channel to 2 at election address /10.10.34.12:3888",
                   "Cannot open channel to 3 at election address /10.10.34.13:3888",
                   "Received connection request /10.10.34.11:45307",
                   "Notification time out: 3200",
                   "Interrupted while waiting for message on queue",
                   "Server environment:host.name=node1"] * 4,
                  component=["QuorumCnxManager", "QuorumCnxManager", "QuorumCnxManager", "FastLeaderElection",
                             "SendWorker", "Environment"] * 4,
                  severity=["warning", "warning", "info", "info", "warning", "info"] * 4,
                  level_raw=["WARN", "WARN", "INFO", "INFO", "WARN", "INFO"] * 4)


HEALTH = frame(["calculateCaloriesWithCache totalCalories=126775", "calculateAltitudeWithCache totalAltitude=240",
                "onStandStepChanged 3579", "calculateCaloriesWithCache totalCalories=126797", "flush sensor data"] * 3)


def test_a_wordy_question_is_counted_as_the_event_it_describes() -> None:
    question = "Our watch went flat. Can you tell me how many times the app recalculated the total calories with its cache?"
    result = ask(question, HEALTH)
    assert result.value == lines_with(HEALTH, "calculateCaloriesWithCache") and result.verified
    interpretation = result.interpretation
    assert interpretation is not None and interpretation.problem is None
    assert [t.rows for t in interpretation.terms if t.column == "message"] == [result.value]
    assert "flat" in interpretation.ignored and "calories" not in interpretation.ignored


def test_a_severity_word_in_the_events_text_is_not_a_level_filter() -> None:
    f = frame(["data TLB error interrupt", "data TLB error interrupt", "instruction cache parity error corrected",
               "ciod: failed to read message prefix"] * 3, severity=["critical", "critical", "info", "error"] * 3)
    result = ask("how many data TLB eror interrupts?", f)
    assert result.value == lines_with(f, "data TLB error interrupt") and result.verified


def test_words_outside_a_quote_that_the_quote_covers_or_describes_are_not_searched() -> None:
    f = frame(["generating core.2275", "generating core.862", "core configuration loaded", "job 12 generated"])
    question = "how many times was a core file being generated? I mean the 'generating core' lines."
    result = ask(question, f)
    assert result.value == lines_with(f, "generating core") and result.verified


def test_words_that_never_meet_on_a_line_and_describe_no_event_are_still_refused() -> None:
    result = ask("how many election notifications were interrupted?", ZOOKEEPER)
    assert result.value is None and "rephrase" in result.answer


def test_an_event_saying_the_opposite_of_the_question_is_not_read() -> None:
    events = Events.build(["Closed socket connection for client /10.0.0.1:5000",
                           "Accepted socket connection from /10.0.0.2:5001", "Expiring session 0x1"] * 3)
    opened = events.read(["opened", "socket", "connections"])
    assert opened is None or opened.search == "Accepted socket connection from"
    closed = events.read(["closed", "socket", "connections"])
    assert closed is not None and closed.search == "Closed socket connection for client"


def test_a_name_counts_as_a_word_of_an_event_only_with_all_its_parts() -> None:
    events = Events.build(["Failed to create backup log cab. [HRESULT = 0x80070001 - ERROR_INVALID_FUNCTION]",
                           "Failed to open package. [HRESULT = 0x800f0805 - CBS_E_INVALID_PACKAGE]"])
    assert events.read(["CBS_E_INVALID_PACKAGE", "errors"]) is None


def test_a_number_the_event_does_not_explain_keeps_the_question_refused() -> None:
    f = frame(["[UFW BLOCK] IN=eth0 SRC=10.0.0.1 DPT=23", "[UFW BLOCK] IN=eth0 SRC=10.0.0.2 DPT=22",
               "[UFW ALLOW] IN=eth0 SRC=10.0.0.3 DPT=80"] * 3)
    result = ask("how many ufw bloks to port 23?", f)
    assert result.value in (None, int(f["message"].str.contains("DPT=23").sum())), result.answer


def test_a_day_word_inside_the_events_name_is_no_time_window() -> None:
    f = frame(["setTodayTotalDetailSteps=1514038440000##7007##548365##8661##16256##27407172",
               "onStandStepChanged 3579", "calculateCaloriesWithCache totalCalories=126775"] * 3)
    question = "My step counter looks off. How many times did the app set today's total detail steps?"
    result = ask(question, f)
    assert result.value == lines_with(f, "setTodayTotalDetailSteps") and result.verified, result.answer
