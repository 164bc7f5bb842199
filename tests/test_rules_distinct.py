"""Distinct counts and rankings over columns and over values written in the messages, the roles of addresses and
ports, and the word naming the system that writes the log, by the rules planner.

Expected values are computed here with pandas over the frames given to the engine, never taken from it.
"""

from __future__ import annotations

import re
from typing import Any

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from question_frames import ask, frame

from react_engine.question import Vocabulary
from react_engine.question.reading.negation import excluded
from react_engine.question.reading.nouns import subject
from react_engine.question.reading.question import Question
from react_engine.tools.regex import check


def _web() -> pd.DataFrame:
    paths = ["/a", "/b", "/a", "/c", "/b", "/d", "/a", "/e"]
    status = [404, 404, 200, 404, 500, 404, 404, 200]
    agents = ["curl/8", "Mozilla/5.0", "curl/8", "Go-http", "curl/8", "Mozilla/5.0", "Wget", "Go-http"]
    messages = [f'"GET {p} HTTP/1.1" {s} 10 "-" "{a}"' for p, s, a in zip(paths, status, agents)]
    return frame(messages, path=paths, status=status, user_agent=agents, method=["GET"] * len(paths))


@pytest.mark.parametrize(("question", "expected"), [
    ("How many unique paths got a 404?", lambda f: f.loc[f.status == 404, "path"].nunique()),
    ("How many unique user agents are there?", lambda f: f.user_agent.nunique()),
    ("how many different paths?", lambda f: f.path.nunique()),
])
def test_a_distinct_count_of_a_column(question: str, expected: Any) -> None:
    f = _web()
    result = ask(question, f)
    assert result.value == expected(f) and result.verified, result.answer
    assert any(s.action == "count_entities" for s in result.steps)


def test_a_distinct_count_of_hosts_pids_and_components() -> None:
    f = frame(["boot", "disk full", "boot", "fan failed", "boot"], host=["n1", "n2", "n1", "n3", "n2"],
              pid=["10", "11", "10", "12", "13"], component=["kernel", "kernel", "init", "kernel", "init"],
              level_raw=["INFO", "FATAL", "INFO", "FATAL", "INFO"],
              severity=["info", "critical", "info", "critical", "info"])
    assert ask("How many unique nodes logged FATAL events?", f).value == f.loc[f.level_raw == "FATAL", "host"].nunique()
    assert ask("How many unique pids are there?", f).value == f.pid.nunique()
    assert ask("How many distinct components are there?", f).value == f.component.nunique()


def test_by_before_no_kind_is_no_breakdown_of_a_count() -> None:
    """"going by the 'Received block' lines" names the lines to count, not a value to rank them by: "how many
    blocks" is a count of distinct blocks."""
    blocks = ["blk_1", "blk_2", "blk_1", "blk_3"]
    f = frame([f"Received block {b} of size 10 from /10.0.0.1" for b in blocks] + ["Deleting block blk_9"])
    result = ask("How many blocks were received, going by the 'Received block' lines?", f)
    assert result.value == len(set(blocks)) and result.verified, result.answer


def _spark() -> pd.DataFrame:
    messages = []
    for tid in [0, 1, 2, 3, 1, 4, 2, 5]:
        messages.append(f"Running task {tid}.0 in stage 0.0 (TID {tid})")
        if tid % 2 == 0:
            messages.append(f"Finished task {tid}.0 in stage 0.0 (TID {tid}). 2703 bytes result sent to driver")
    messages.append("Got assigned task 7")
    return frame(messages)


def _extracted(f: pd.DataFrame, keep: str, pattern: str) -> pd.Series:
    return f.loc[f.message.str.contains(keep, case=False), "message"].str.extract(pattern)[0].dropna()


def test_a_distinct_count_of_values_written_after_a_name() -> None:
    f = _spark()
    result = ask("How many distinct TIDs finished?", f)
    assert result.value == _extracted(f, "finished", r"\(TID (\d+)\)").nunique() and result.verified, result.answer
    assert ask("how many unique TIDs are there?", f).value == f.message.str.extract(r"TID (\d+)")[0].nunique()


def test_a_distinct_count_of_tokens_that_start_with_the_noun() -> None:
    attempts = ["attempt_1445_0020_m_000000_0", "attempt_1445_0020_m_000001_0", "attempt_1445_0020_m_000000_0",
                "attempt_1445_0020_r_000000_1"]
    f = frame([f"Progress of TaskAttempt {a} is : 0.{i}" for i, a in enumerate(attempts)]
              + ["Done acknowledgement from attempt_1445_0020_m_000009_0", "TaskAttempt finished"])
    result = ask("How many distinct task attempts reported progress?", f)
    assert result.value == _extracted(f, "progress", r"(attempt_\S+)").nunique() and result.verified, result.answer


def test_which_value_written_after_a_name_shows_up_most() -> None:
    codes = ["0x80004005", "0x800f081f", "0x80004005", "0x80070002", "0x80004005", "0x800f081f"]
    f = frame([f"Failed step {i} [HRESULT = {c} - E_FAIL]" for i, c in enumerate(codes)] + ["Loaded Servicing Stack"])
    result = ask("which HRESULT code shows up most?", f)
    assert result.value == f.message.str.extract(r"HRESULT = (0x[0-9a-f]+)")[0].value_counts().index[0]
    assert result.verified, result.answer


def test_a_ranking_of_a_column_named_by_the_question_leaves_out_the_value_it_excludes() -> None:
    labels = ["-", "-", "-", "KERNDTLB", "APPSEV", "KERNDTLB", "-"]
    f = frame([f"event {i}" for i in range(len(labels))], label=labels)
    result = ask("which alert label (other than '-') shows up most?", f)
    assert result.value == f.label[f.label != "-"].value_counts().index[0], result.answer
    assert ask("which alert label shows up most?", f).value == "-"
    assert ask("How many distinct alert labels are there?", f).value == f.label.nunique()


def test_a_noun_the_rows_never_write_with_a_value_is_refused_not_counted() -> None:
    f = _spark()
    for question in ("How many distinct giraffes finished?", "which TID was assigned most?"):
        result = ask(question, f)
        assert result.value is None and "rephrase" in result.answer, result.answer


WORDS = ["which", "unique", "distinct", "top", "3", "TID", "TIDs", "task", "attempts", "code", "number", "label",
         "shows", "up", "most", "finished", "(", "'-'", "other", "than", "how", "many", "state", "error", "ip", "the"]


@given(words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=9))
@settings(max_examples=200, deadline=None)
def test_any_question_gives_a_subject_whose_patterns_extract_one_value_or_none(words: list[str]) -> None:
    f = _spark().assign(label="-")
    vocabulary = Vocabulary.build(f)
    q = Question(" ".join(words))
    found = subject(q, list(f.columns), vocabulary)
    if found is None:
        return
    assert found.name and found.label.endswith("s")
    for pattern in found.patterns:
        check(pattern)
        assert re.compile(pattern).groups == 1
        assert vocabulary.together([pattern.removeprefix("(?i)")])[0] > 0  # the rows write it


def _ufw() -> pd.DataFrame:
    flows = [("203.0.113.5", "10.0.0.1", 22), ("198.51.100.7", "10.0.0.1", 23), ("203.0.113.5", "10.0.0.2", 22),
             ("192.0.2.9", "10.0.0.1", 3389), ("198.51.100.7", "10.0.0.3", 22)]
    messages = [f"[UFW BLOCK] IN=eth0 OUT= SRC={s} DST={d} LEN=40 PROTO=TCP SPT=4{i}000 DPT={p} SYN"
                for i, (s, d, p) in enumerate(flows)]
    return frame([*messages, "Accepted password for bob from 192.0.2.200 port 5000 ssh2"])


def test_source_and_destination_are_read_as_the_lines_mark_them() -> None:
    f = _ufw()
    blocked = f.message.str.contains("UFW BLOCK")
    sources = f.loc[blocked, "message"].str.extract(r"SRC=(\S+)")[0]
    result = ask("how many different source addresses did ufw block?", f)
    assert result.value == sources.nunique() and result.verified, result.answer
    assert ask("how many destination IPs did the firewall block?", f).value == \
        f.loc[blocked, "message"].str.extract(r"DST=(\S+)")[0].nunique()
    assert ask("how many destination addresses did ufw block?", f).value == \
        f.loc[blocked, "message"].str.extract(r"DST=(\S+)")[0].nunique()
    assert ask("how many unique source ports did ufw block?", f).value == \
        f.loc[blocked, "message"].str.extract(r"SPT=(\d+)")[0].nunique()
    ports = f.loc[blocked, "message"].str.extract(r"DPT=(\d+)")[0].value_counts()
    assert ask("which destination port did the firewall block most?", f).value == ports.index[0]


def test_the_address_that_did_what_the_question_says_is_the_one_written_before_it() -> None:
    """"which IP served the most blocks": the address before "Served", not the one the block went to."""
    pairs = [("10.0.0.1", "10.0.0.9"), ("10.0.0.2", "10.0.0.9"), ("10.0.0.1", "10.0.0.8"), ("10.0.0.3", "10.0.0.9")]
    f = frame([f"{a}:50010 Served block blk_{i} to /{b}" for i, (a, b) in enumerate(pairs)] + ["Verification ok"])
    servers = f.message.str.extract(r"^([\d.]+):50010 Served")[0].value_counts()
    result = ask("which IP served the most blocks?", f)
    assert result.value == servers.index[0] and result.verified, result.answer


NTP = frame([f"synchronized to 10.0.0.{n}, stratum 2" for n in (5, 6, 5, 7, 5, 6)] + ["kernel time sync enabled"],
            host=["bn1", "bn2", "bn3", "bn1", "bn2", "bn3", "bn1"], component=["ntpd"] * 7)


def test_a_preposition_left_at_the_end_ranks_the_value_written_after_it() -> None:
    """"which server did ntpd synchronize to": the address after "synchronized to", not the host writing the line."""
    result = ask("which server did ntpd synchronize to most often?", NTP)
    servers = NTP.message.str.extract(r"synchronized to ([\d.]+),")[0].value_counts()
    assert result.value == servers.index[0] and result.verified, result.answer


def test_a_preposition_left_at_the_end_that_no_line_writes_after_its_verb_is_unread() -> None:
    f = frame([f"app.exe - host{n}.com:443 open through proxy p{n % 2}.net:5070 HTTPS" for n in range(6)])
    result = ask("which proxy did most lines go through?", f)
    assert result.partial and not result.verified and "go through" in result.answer, result.answer


def test_values_read_from_the_messages_are_no_writers_of_the_lines() -> None:
    """"which user wrote the most lines": a user named in some messages did not write the lines."""
    f = frame(["error in user parameter list", "Starting server for user 501", "Thermal pressure state: 1"] * 3,
              host=["mac1", "mac2", "mac1"] * 3)
    result = ask("which user wrote the most lines?", f)
    assert result.partial and not result.verified and "wrote" in result.answer, result.answer
    hosts = ask("which host wrote the most lines?", f)
    assert hosts.value == f.host.value_counts().index[0] and hosts.verified, hosts.answer


def test_client_addresses_are_the_ones_after_client() -> None:
    f = frame(["Established session 0x1 for client /10.0.0.7:4001 via 10.9.9.9",
               "Established session 0x2 for client /10.0.0.8:4002 via 10.9.9.9",
               "Established session 0x3 for client /10.0.0.7:4003 via 10.9.9.9"])
    result = ask("How many unique client IPs had sessions established?", f)
    assert result.value == f.message.str.extract(r"client /([\d.]+)")[0].nunique() and result.verified


def test_one_client_named_ranks_the_addresses_after_client() -> None:
    f = frame(["Closed socket connection for client /10.0.0.7:4001 which had sessionid 0x1",
               "Closed socket connection for client /10.0.0.8:4002 which had sessionid 0x2",
               "Closed socket connection for client /10.0.0.7:4003 which had sessionid 0x3"],
              thread=["NIOServerCxn.Factory:0.0.0.0/0.0.0.0:2181"] * 3)
    result = ask("Which client has the most closed socket?", f)
    clients = f.message.str.extract(r"client /([\d.]+)")[0].value_counts()
    assert result.value == clients.index[0] and result.verified, result.answer


def test_addresses_in_thread_names_make_an_unmarked_ranking_a_refusal() -> None:
    f = frame(["Received connection request /10.0.0.5:4000", "Received connection request /10.0.0.6:4001",
               "Received connection request /10.0.0.5:4002"],
              thread=["/10.0.0.1:3888:Listener", "/10.0.0.1:3888:Listener", "NIOServerCxn.Factory:0.0.0.0/0.0.0.0:2181"])
    result = ask("which IP address sent the most connection requests?", f)
    assert result.value is None and "source, destination or client" in result.answer, result.answer


def test_without_a_role_every_address_of_the_messages_counts() -> None:
    f = _ufw()
    every = f.message.str.extractall(r"(\d{1,3}(?:\.\d{1,3}){3})")[0]
    result = ask("How many unique IP addresses appear in the logs?", f)
    assert result.value == every.nunique() and result.verified, result.answer


def test_the_system_that_writes_the_log_is_not_a_search_word() -> None:
    f = frame(["phone call started", "battery low", "screen off", "phone call ended", "wifi lost"],
              level_raw=["W", "W", "I", "I", "W"], severity=["warning", "warning", "info", "info", "warning"])
    result = ask("how many warnings did the phone log?", f)
    assert result.value == (f.severity == "warning").sum() and result.verified, result.answer
    assert result.interpretation is not None and "phone" in result.interpretation.ignored
    assert ask("how many warnings mention phone?", f).value == \
        ((f.severity == "warning") & f.message.str.contains("phone")).sum()


def _levels() -> pd.DataFrame:
    return frame(["ERROR IN CONTACTING RM", "Task done", "ERROR IN CONTACTING RM", "disk slow", "map failed", "ok"],
                 level_raw=["ERROR", "INFO", "ERROR", "WARN", "ERROR", "INFO"],
                 severity=["error", "info", "error", "warning", "error", "info"],
                 component=["RMCommunicator", "TaskImpl", "RMCommunicator", "Disk", "TaskImpl", "TaskImpl"],
                 flag=[1, 0, 1, 1, 2, 1])


@pytest.mark.parametrize(("question", "expected"), [
    ("How many lines are there other than INFO?", lambda f: (f.level_raw != "INFO").sum()),
    ("how many lines other than warnings?", lambda f: (f.severity != "warning").sum()),
    ("How many lines came from components other than TaskImpl?", lambda f: (f.component != "TaskImpl").sum()),
    ("How many ERROR lines are there other than 'ERROR IN CONTACTING RM'?",
     lambda f: ((f.level_raw == "ERROR") & ~f.message.str.contains("ERROR IN CONTACTING RM")).sum()),
    ("How many lines have a flag other than 1?", lambda f: (f.flag != 1).sum()),
    ("which component logged the most lines other than TaskImpl?",
     lambda f: f.component[f.component != "TaskImpl"].value_counts().index[0]),
])
def test_a_value_left_out_drops_its_lines(question: str, expected: Any) -> None:
    f = _levels()
    result = ask(question, f)
    assert result.value == expected(f) and result.verified, result.answer


def test_a_value_left_out_that_the_rows_never_hold_is_refused() -> None:
    result = ask("how many lines other than giraffes?", _levels())
    assert result.value is None and "rephrase" in result.answer, result.answer


def test_requests_other_than_a_method_count_only_requests() -> None:
    f = _levels()
    result = ask("How many requests were made other than GET requests?", f)
    assert not f.message.str.contains(r'"(?:GET|POST|PUT|DELETE|HEAD|PATCH|OPTIONS) ').any()
    assert result.value == 0 and "HTTP method" in result.answer, result.answer


@given(words=st.lists(st.sampled_from(["other", "than", "except", "'x y'", "INFO", "ones", "the", "lines", "had",
                                       "(", ")", "which", "flag", "?", "GET", "requests"]), max_size=10))
@settings(max_examples=200, deadline=None)
def test_any_question_reads_as_values_to_leave_out_or_none(words: list[str]) -> None:
    q = Question(" ".join(words))
    for value in excluded(q):
        assert value.text.strip() and value.text in q.text
        assert value.before is None or q.text[value.at:].startswith(value.before)


def test_what_happened_to_the_counted_things_is_never_ignored() -> None:
    f = frame(["Receiving block blk_1", "Receiving block blk_2", "Deleting block blk_1"])
    result = ask("How many distinct blocks were allocated?", f)
    assert result.value is None and "allocated" in result.answer, result.answer
    assert ask("How many distinct blocks were deleted?", f).value == 1


def test_a_user_named_as_the_x_user_is_searched_as_a_whole_name() -> None:
    """"as the backup user": the user backup, as "(backup)" writes it, not the "backup" of backup.sh."""
    lines = ["CRON[1]: (backup) CMD (/usr/local/bin/backup.sh)", "CRON[2]: (root) CMD (/usr/local/bin/backup.sh)",
             "CRON[3]: (root) CMD (/usr/local/bin/backup.sh)", "CRON[4]: (backup) CMD (/usr/lib/sa1)"]
    f = frame(lines)
    for question in ("how many times did cron run backup.sh as the backup user?",
                     "how many times did cron run backup.sh as user backup?"):
        result = ask(question, f)
        assert result.value == sum("(backup)" in m and "backup.sh" in m for m in lines) and result.verified, \
            (question, result.answer)
