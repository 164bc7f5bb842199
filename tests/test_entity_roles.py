"""Users a line names in two roles: who ran a command (sudo's subject, `by bob(uid=1000)`) and whom it ran as or was
for (`USER=root`, `for user root`). The question's words pick one; a count of users over lines whose roles differ
is refused naming both, never verified on one. Truths come from regexes over the same lines."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from question_frames import ask as ask_frame
from question_frames import frame as question_frame
from real_logs import real_log
from tool_frames import context, frame, run

from react_engine.contract.record import RunResult
from react_engine.errors import ToolError
from react_engine.logs import LoadOptions
from react_engine.loop.engine import Engine
from react_engine.planners.rules import RulesPlanner

ROOT = Path(__file__).resolve().parents[1]
SYSLOG = ROOT / "sample_logs" / "syslog" / "messages"
NAMES = st.sampled_from(["alice", "bob", "deploy", "carol", "root", "www-data", "backup"])


def ask(question: str, path: Path) -> RunResult:
    return Engine(RulesPlanner()).ask(question, [str(path)], load_options=LoadOptions(use_cache=False, year=2026))


def _sudo(invoker: str, target: str) -> str:
    return f"{invoker} : TTY=pts/0 ; PWD=/home/{invoker} ; USER={target} ; COMMAND=/usr/bin/systemctl restart app"


def _sudo_lines() -> list[str]:
    return [line for line in SYSLOG.read_text().splitlines() if re.search(r"\ssudo(?:\[\d+\])?:", line)]


def _invokers() -> list[str]:
    return [m.group(1) for line in _sudo_lines() if (m := re.search(r"sudo(?:\[\d+\])?:\s+(\S+) : ", line))]


@settings(max_examples=40, deadline=None)
@given(pairs=st.lists(st.tuples(NAMES, NAMES), min_size=1, max_size=12))
def test_a_count_of_users_over_lines_whose_roles_differ_is_refused_and_each_role_counts_its_own(
        pairs: list[tuple[str, str]]) -> None:
    ctx = context(frame([{"message": _sudo(a, b), "component": "sudo"} for a, b in pairs]))
    assert run("count_entities", ctx, type="invoking_user").value.recorded() == len({a for a, _ in pairs})
    assert run("count_entities", ctx, type="target_user").value.recorded() == len({b for _, b in pairs})
    if any(a != b for a, b in pairs):
        with pytest.raises(ToolError, match="invoking_user.*target_user"):
            run("count_entities", ctx, type="user")
    else:  # one user in both roles on every line: nothing to choose between
        assert run("count_entities", ctx, type="user").value.recorded() == len({b for _, b in pairs})


@settings(max_examples=30, deadline=None)
@given(names=st.lists(NAMES, min_size=1, max_size=10))
def test_a_role_the_lines_do_not_write_is_read_from_the_one_they_do(names: list[str]) -> None:
    ctx = context(frame([{"message": f"Accepted password for {n} from 10.0.0.1 port 22 ssh2"} for n in names]))
    assert run("count_entities", ctx, type="invoking_user").value.recorded() == len(set(names))
    assert run("count_entities", ctx, type="user").value.recorded() == len(set(names))


def test_a_role_written_without_a_name_is_not_answered_with_the_other_roles_users() -> None:
    ctx = context(frame([{"message": "session opened for user news by (uid=0)"},
                         {"message": "session opened for user cyrus by (uid=0)"}]))
    with pytest.raises(ToolError, match="no name"):
        run("count_entities", ctx, type="invoking_user")
    assert run("count_entities", ctx, type="target_user").value.recorded() == 2


def test_pam_by_names_who_opened_a_session_and_for_names_whom_it_is_for() -> None:
    ctx = context(frame([{"message": "pam_unix(su:session): session opened for user root by bob(uid=1000)"},
                         {"message": "pam_unix(su:session): session opened for user postgres by alice(uid=1001)"}]))
    assert sorted(run("extract_entities", ctx, types="invoking_user").entities["invoking_user"]) == ["alice", "bob"]
    assert sorted(run("extract_entities", ctx, types="target_user").entities["target_user"]) == ["postgres", "root"]


@pytest.mark.parametrize("question", ["how many distinct users ran sudo?", "how many distinct users used sudo?",
                                      "how many different users invoked sudo?"])
def test_users_who_ran_sudo_are_its_subjects(question: str) -> None:
    result = ask(question, SYSLOG)
    assert result.verified and not result.partial
    assert result.value == len(set(_invokers())) > 1


def test_the_user_who_ran_sudo_most_is_the_most_frequent_subject() -> None:
    invokers = _invokers()
    result = ask("which user ran sudo the most?", SYSLOG)
    assert result.verified and result.value == max(set(invokers), key=invokers.count)


def test_the_users_sudo_ran_as_are_its_user_fields() -> None:
    targets = [m.group(1) for line in _sudo_lines() if (m := re.search(r"USER=(\S+)", line))]
    result = ask("which user was sudo run as most often?", SYSLOG)
    assert result.verified and result.value == max(set(targets), key=targets.count)
    listed = ask("which users did sudo run commands as?", SYSLOG)
    assert listed.verified and f"{len(set(targets))} distinct target user" in listed.answer


@pytest.mark.parametrize("question", ["how many distinct sudo users?", "top sudo users"])
def test_sudo_users_in_no_role_the_question_names_are_refused_naming_both(question: str) -> None:
    result = ask(question, SYSLOG)
    assert not result.verified and result.value is None
    assert "who ran the command" in result.answer and "ran as or was for" in result.answer
    assert all(name in result.answer for name in set(_invokers()))


def test_sessions_opened_count_the_users_they_were_for_on_linux() -> None:
    path = real_log("Linux")
    truth = {m.group(1) for line in path.read_text(errors="replace").splitlines()
             if (m := re.search(r"session opened for user (\S+) by", line))}
    result = ask("how many different users had sessions opened?", path)
    assert result.verified and result.value == len(truth)


def test_users_who_ran_su_on_linux_are_unnamed_so_the_answer_is_refused() -> None:
    result = ask("how many distinct users ran su?", real_log("Linux"))
    assert not result.verified and result.value is None and "no name" in result.answer


def test_an_unmarked_question_over_ssh_logins_is_answered_as_before() -> None:
    names = ["alice", "bob", "alice", "carol"]
    result = ask_frame("how many distinct users?", question_frame(
        [f"Accepted password for {n} from 10.0.0.{i} port 22 ssh2" for i, n in enumerate(names)]))
    assert result.verified and result.value == len(set(names))


ADDRESSES = st.sampled_from(["192.0.2.77", "203.0.113.45", "10.0.0.10", "10.0.0.11", "198.51.100.23"])


@settings(max_examples=40, deadline=None)
@given(pairs=st.lists(st.tuples(ADDRESSES, ADDRESSES), min_size=1, max_size=12))
def test_addresses_marked_as_source_and_destination_are_counted_apart(pairs: list[tuple[str, str]]) -> None:
    df = frame([{"message": f"[UFW BLOCK] IN=eth0 OUT= SRC={a} DST={b} PROTO=TCP SPT=5 DPT=23"} for a, b in pairs]
               + [{"message": "systemd: Started Session 3 of user root."}])
    blocked = context(df, rows=df.iloc[:-1])  # the lines of one event: the question narrowed to them
    assert run("count_entities", blocked, type="source_ip").value.recorded() == len({a for a, _ in pairs})
    assert run("count_entities", blocked, type="destination_ip").value.recorded() == len({b for _, b in pairs})
    if any(a != b for a, b in pairs):
        with pytest.raises(ToolError, match="source_ip.*destination_ip"):
            run("count_entities", blocked, type="ip")
    everywhere = {a for a, _ in pairs} | {b for _, b in pairs}  # all the addresses a whole log writes
    assert run("count_entities", context(df), type="ip").value.recorded() == len(everywhere)


def test_the_ip_ufw_blocked_most_is_refused_naming_source_and_destination() -> None:
    everywhere = set(re.findall(r"\b\d{1,3}(?:\.\d{1,3}){3}\b", SYSLOG.read_text()))
    whole = ask("How many unique IP addresses appear in the logs?", SYSLOG)
    assert whole.verified and whole.value == len(everywhere)
    lines = [line for line in SYSLOG.read_text().splitlines() if "UFW BLOCK" in line]
    sources = {m.group(1) for line in lines if (m := re.search(r"SRC=(\S+)", line))}
    result = ask("which IP did ufw block the most?", SYSLOG)
    assert not result.verified and result.value is None
    assert "source" in result.answer and "destination" in result.answer
    marked = ask("how many distinct source IPs did ufw block?", SYSLOG)
    assert marked.verified and marked.value == len(sources)
