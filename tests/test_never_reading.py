"""Questions of values one event's lines hold and another's never do ("failed but never accepted", "that never
finished", "which ... never"): the rules planner's answer against Python sets over the same lines."""

from __future__ import annotations

import re

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from question_frames import ask, frame
from real_logs import real_log

from react_engine.logs import LoadOptions
from react_engine.loop.engine import Engine
from react_engine.planners.rules import RulesPlanner

IPS = [f"10.0.0.{i}" for i in range(1, 7)]
EVENTS = st.lists(st.tuples(st.sampled_from(["Failed password", "Accepted password"]), st.sampled_from(IPS)),
                  min_size=2, max_size=25).filter(lambda events: len({what for what, _ in events}) == 2)
"""Both events written (words after "never" that no line writes are not read: the answer is partial)."""


def _sshd(events: list[tuple[str, str]]) -> pd.DataFrame:
    return frame([f"{what} for root from {ip} port 22 ssh2" for what, ip in events])


def _never(events: list[tuple[str, str]]) -> list[str]:
    """The addresses that failed and were never accepted, in the order of their first failure."""
    accepted = {ip for what, ip in events if what.startswith("Accepted")}
    failed = [ip for what, ip in events if what.startswith("Failed")]
    return [ip for ip in dict.fromkeys(failed) if ip not in accepted]


@settings(max_examples=15, deadline=None)
@given(events=EVENTS)
def test_how_many_failed_but_never_accepted(events: list[tuple[str, str]]) -> None:
    result = ask("how many IP addresses had failed passwords but never an accepted one?", _sshd(events))
    assert result.verified and result.value == len(_never(events))
    assert [s.action for s in result.steps if s.action == "never_seen"] == ["never_seen"]


@settings(max_examples=10, deadline=None)
@given(events=EVENTS)
def test_which_failed_and_never_accepted_lists_them_by_their_first_failure(events: list[tuple[str, str]]) -> None:
    result = ask("which IP addresses had failed passwords that never had an accepted password?", _sshd(events))
    assert result.verified and result.value == _never(events)[:10]
    assert all(ip in result.answer for ip in _never(events)[:10])


def test_words_after_never_that_no_line_writes_leave_the_answer_partial() -> None:
    events = [("Failed password", "10.0.0.1"), ("Accepted password", "10.0.0.2")]
    result = ask("how many IP addresses had failed passwords but never a zorblax?", _sshd(events))
    assert not result.verified


def test_tasks_that_started_running_but_never_finished_in_a_real_spark_log() -> None:
    path = real_log("Spark")
    lines = path.read_text(errors="replace").splitlines()
    running = {m.group(1) for line in lines if (m := re.search(r"Running task .*\(TID (\d+)\)", line))}
    finished = {m.group(1) for line in lines if (m := re.search(r"Finished task .*\(TID (\d+)\)", line))}
    result = Engine(RulesPlanner()).ask("how many tasks (TIDs) started running but never finished?", [str(path)],
                                        load_options=LoadOptions(use_cache=False, year=2026))
    assert result.verified and result.value == len(running - finished) > 0
    assert result.evidence and all("Running task" in e.text for e in result.evidence)


@settings(max_examples=10, deadline=None)
@given(events=EVENTS)
def test_which_never_takes_every_line_holding_one_for_the_first_event(events: list[tuple[str, str]]) -> None:
    accepted = {ip for what, ip in events if what.startswith("Accepted")}
    never = [ip for ip in dict.fromkeys(ip for _, ip in events) if ip not in accepted]
    result = ask("which IP addresses never had an accepted password?", _sshd(events))
    assert result.verified and result.value == never[:10]
