"""Misspelt names: a name no row holds is read as the one name of the rows it misspells, never answered as 0."""

from __future__ import annotations

import csv

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from real_logs import real_log
from tool_frames import frame

from react_engine.logs import LoadOptions, load
from react_engine.loop.engine import Engine
from react_engine.planners.rules import RulesPlanner
from react_engine.question import Vocabulary
from react_engine.question.spelling import correct, correct_names

COMPONENTS = ["SogouCloud.exe", "Step_ExtSDM", "dfs.DataNode", "chrome.exe", "node-42"]
VOCABULARY = Vocabulary.build(frame([{"message": f"{c} said DHCPREQUEST from 10.0.0.{i}", "component": c}
                                     for i, c in enumerate(COMPONENTS)]))


def _misspelt(name: str, at: int, how: str) -> str:
    """`name` with one edit at `at` (never the first character): a swap, a dropped or a doubled letter."""
    i = 1 + at % (len(name) - 2)
    if how == "swap":
        return name[:i] + name[i + 1] + name[i] + name[i + 2:]
    return name[:i] + name[i + 1:] if how == "drop" else name[:i] + name[i] + name[i:]


@given(name=st.sampled_from(COMPONENTS[:3]), at=st.integers(0, 30), how=st.sampled_from(["swap", "drop", "double"]))
@settings(max_examples=80, deadline=None)
def test_a_name_with_one_edit_is_read_as_the_name_the_rows_hold(name: str, at: int, how: str) -> None:
    written = _misspelt(name, at, how)
    text, corrections = correct_names(f"how many lines from {written}?", VOCABULARY, frozenset())
    if written.lower() == name.lower():
        assert not corrections
    else:
        assert text == f"how many lines from {name}?"
        assert [str(c) for c in corrections] == [f'read "{written}" as "{name}"']


@pytest.mark.parametrize("written", ["node-43", "SogouCloud.exe", "'Step_ExtSMD'", "Firefox", "Windows10.exe"])
def test_names_the_rows_hold_other_digits_quoted_and_far_names_are_kept(written: str) -> None:
    question = f"how many lines from {written}?"
    assert correct_names(question, VOCABULARY, frozenset()) == (question, [])


def test_a_message_word_in_capitals_is_read_in_capitals() -> None:
    text, corrections = correct_names("DHCPREQEST lines?", VOCABULARY, frozenset())
    assert text == "DHCPREQUEST lines?" and corrections[0].read_as == "DHCPREQUEST"


def test_a_misspelt_program_counts_that_programs_lines() -> None:
    rows = list(csv.DictReader(real_log("Proxifier", ".log_structured.csv").open(encoding="utf-8")))
    result = Engine(RulesPlanner()).ask("how many lines from SogouClod.exe?", [real_log("Proxifier")],
                                        load_options=LoadOptions(use_cache=False))
    assert result.value == sum(r["Program"] == "SogouCloud.exe" for r in rows) > 0
    assert 'read "SogouClod.exe" as "SogouCloud.exe"' in result.answer
    assert [c.read_as for c in result.interpretation.corrections] == ["SogouCloud.exe"]


def test_a_name_nothing_is_close_to_stays_an_honest_zero() -> None:
    frame_ = load([str(real_log("Proxifier"))], LoadOptions(use_cache=False))
    result = Engine(RulesPlanner()).ask("how many lines from Netscape7.exe?", frame=frame_)
    assert result.value == 0 and not result.interpretation.corrections, result.answer


@pytest.mark.parametrize(("written", "logged"), [("destoryed", "destroying"), ("unloded", "unloading"),
                                                 ("recieving", "received")])
def test_a_misspelt_word_is_read_as_the_form_the_rows_use(written: str, logged: str) -> None:
    text, corrections = correct(f"how many surfaces were {written}?", frozenset({"surfaces", "were"}),
                                ["surface", logged])
    assert text == f"how many surfaces were {logged}?"
    assert [(c.written, c.read_as) for c in corrections] == [(written, logged)]


def test_a_word_far_from_every_form_is_kept() -> None:
    assert correct("how many surfaces were painted?", frozenset(), ["surface", "destroying"])[1] == []
