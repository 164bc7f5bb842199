"""Questions as a new user types them, each once a wrong or refused answer: a ranking whose size comes first ("the 3
most frequent messages", "2 least common levels", "top-3 nodes"), what came before the first of many occurrences, a
cause asked for (partial, never verified), "december the 5th", "what fraction of the lines", "the biggest number of
bytes", a level letter as the log writes it, and a dpkg log's own actions ("installs", "removed", "status lines")."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from question_frames import frame
from real_logs import real_log

from react_engine.contract.record import RunResult
from react_engine.logs import LoadOptions
from react_engine.loop.engine import Engine
from react_engine.planners.rules import RulesPlanner
from react_engine.question import Vocabulary
from react_engine.question.measures import Top
from react_engine.question.reading.read import read_question

ROOT = Path(__file__).resolve().parents[1]
DPKG = ROOT / "tests" / "fixtures" / "dpkg" / "dpkg.log"


def ask(question: str, path: Path | str) -> RunResult:
    return Engine(RulesPlanner()).ask(question, [str(path)], load_options=LoadOptions(use_cache=False, year=2026))


def _csv(system: str) -> pd.DataFrame:
    return pd.read_csv(real_log(system, ".log_structured.csv"), dtype=str, keep_default_na=False)


# ---- a ranking whose size comes before its superlative


@functools.cache
def _vocabulary() -> Vocabulary:
    n = 40
    f = frame([f"session opened for user u{i % 7}" for i in range(n)], severity=(["info", "error"] * n)[:n],
              level_raw=(["INFO", "ERROR"] * n)[:n], host=[f"web{i % 5}" for i in range(n)],
              component=(["sshd", "nginx"] * n)[:n])
    return Vocabulary.build(f)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 12), lead=st.sampled_from(["", "the ", "what are the ", "show the "]),
       words=st.sampled_from([("most frequent", False), ("most common", False), ("least common", True),
                              ("busiest", False), ("rarest", True), ("least frequent", True)]),
       noun=st.sampled_from(["hosts", "components"]))
def test_a_number_before_the_superlative_is_the_size_of_the_ranking(n: int, lead: str, words: tuple[str, bool],
                                                                      noun: str) -> None:
    superlative, least = words
    reading = read_question(f"{lead}{n} {superlative} {noun}?", ["timestamp", "severity", "level_raw", "host",
                                                                 "component", "message"], None, _vocabulary(), True)
    assert reading.problem is None and reading.query is not None, reading.problem
    measure = reading.query.measure
    assert isinstance(measure, Top) and measure.n == n and measure.least == least
    assert measure.key.name == noun[:-1]


@pytest.mark.parametrize("question", ["What are the 3 most frequent log messages?", "3 most common messages",
                                      "the three most frequent messages"])
def test_the_3_most_frequent_messages_are_the_exact_messages(question: str) -> None:
    expected = _csv("OpenSSH")["Content"].str.strip().value_counts().head(3)
    result = ask(question, real_log("OpenSSH"))
    assert result.verified, result.answer
    assert [[m, c] for m, c in result.value] == [[m, int(c)] for m, c in expected.items()]


@pytest.mark.parametrize(("system", "question", "column"), [
    ("BGL", "top-3 nodes by line count", "Node"), ("HPC", "2 most frequent states", "State"),
    ("HDFS", "the 3 busiest components", "Component")])
def test_a_column_is_ranked_however_the_size_is_written(system: str, question: str, column: str) -> None:
    n = int(re.search(r"\d", question).group(0))
    expected = _csv(system)[column].value_counts().head(n)
    result = ask(question, real_log(system))
    assert result.verified, result.answer
    assert [[v, c] for v, c in result.value] == [[v, int(c)] for v, c in expected.items()]


def test_the_2_rarest_users_stay_a_ranking_of_2() -> None:
    result = ask("what are the 2 rarest users?", ROOT / "sample_logs" / "app")
    assert result.verified and len(result.value) == 2 and result.answer.startswith("Rarest")


# ---- what came before, and what a cause asks


def test_what_came_before_the_first_of_many_occurrences_names_them_all_and_shows_the_line_before() -> None:
    lines = real_log("OpenSSH").read_text(encoding="utf-8", errors="replace").splitlines()
    hits = [i for i, line in enumerate(lines, 1) if "Failed password" in line]
    result = ask("what happened before the first failed password", real_log("OpenSSH"))
    assert result.verified, result.answer
    assert f"of the {len(hits)} occurrences" in result.answer and len(hits) > 1
    assert f"OpenSSH_2k.log:{hits[0]} " in result.answer and f"OpenSSH_2k.log:{hits[0] - 1} " in result.answer


@pytest.mark.parametrize("question", ["what led up to the first error?", "what caused the first error?",
                                      "why did the first 'Failed password' happen at 06:55:48?",
                                      "what was the cause of the first failed password?"])
def test_a_cause_asked_for_gets_the_context_as_a_partial_answer_never_verified(question: str) -> None:
    result = ask(question, real_log("OpenSSH"))
    assert not result.verified and (result.partial or result.refused), result.answer
    assert "because" not in result.answer.lower() and ("not a cause" in result.answer or result.refused)


def test_what_came_before_the_first_of_a_level_takes_the_lines_at_that_level() -> None:
    truth = _csv("Zookeeper")
    errors = truth.index[truth["Level"] == "ERROR"]
    result = ask("what came before the first ERROR?", real_log("Zookeeper"))
    assert result.verified, result.answer
    assert f"of the {len(errors)} occurrences" in result.answer
    assert f"Zookeeper_2k.log:{errors[0] + 1} " in result.answer and f"Zookeeper_2k.log:{errors[0]} " in result.answer


def test_what_came_right_before_is_what_came_before() -> None:
    lines = real_log("OpenSSH").read_text(encoding="utf-8", errors="replace").splitlines()
    first = next(i for i, line in enumerate(lines, 1) if "Accepted password" in line)
    result = ask("what came right before the first 'Accepted password'?", real_log("OpenSSH"))
    assert result.verified and f"OpenSSH_2k.log:{first - 1} " in result.answer, result.answer


def test_the_field_after_a_method_is_the_field_measured() -> None:
    content = _csv("OpenStack")["Content"]
    times = content[content.str.contains('"GET ')].str.extract(r"time: ([\d.]+)$", expand=False).astype(float)
    result = ask("median GET time", real_log("OpenStack"))
    assert result.verified and result.value == pytest.approx(times.median()), result.answer


def test_what_came_before_without_asking_a_cause_stays_verified() -> None:
    result = ask("what came before the first error?", real_log("OpenSSH"))
    assert result.verified and not result.partial, result.answer


# ---- dates, shares, statistics and levels as users write them


def test_a_day_written_after_the_month_and_the() -> None:
    truth = _csv("Apache")
    expected = int(((truth["Level"] == "error") & truth["Time"].str.contains("Dec 05")).sum())
    result = ask("how many errors on december the 5th?", real_log("Apache"))
    assert result.verified and result.value == expected > 0, result.answer


def test_what_fraction_of_the_lines_is_a_share_not_a_word_of_the_messages() -> None:
    truth = _csv("BGL")
    result = ask("what fraction of the lines are FATAL?", real_log("BGL"))
    assert result.verified and result.value == pytest.approx(100 * (truth["Level"] == "FATAL").mean()), result.answer


def test_the_biggest_number_of_bytes_is_their_maximum() -> None:
    received = _csv("Proxifier")["Content"].str.extract(r"sent, (\d+) bytes", expand=False).dropna().astype(int)
    result = ask("biggest number of bytes received", real_log("Proxifier"))
    assert result.verified and result.value == received.max(), result.answer


def test_a_level_letter_as_the_log_writes_it_is_that_level() -> None:
    truth = _csv("Android")
    result = ask("how many E lines?", real_log("Android"))
    assert result.verified and result.value == int((truth["Level"] == "E").sum()), result.answer


# ---- a dpkg log's own actions


def _dpkg_actions() -> pd.Series:
    return pd.Series(DPKG.read_text(encoding="utf-8").splitlines()).str.split(" ").str[2]


@pytest.mark.parametrize(("question", "action"), [
    ("how many pakages were removed?", "remove"), ("how many packages were installed?", "install"),
    ("how many upgrades?", "upgrade"), ("how many status lines?", "status"), ("how many times was a package purged?",
                                                                              "purge")])
def test_a_dpkg_action_in_any_form_counts_that_action(question: str, action: str) -> None:
    result = ask(question, DPKG)
    assert result.verified and result.value == int((_dpkg_actions() == action).sum()) > 0, result.answer


def test_installs_vs_removes_compares_the_actions_not_the_word() -> None:
    actions = _dpkg_actions()
    result = ask("installs vs removes", DPKG)
    assert result.verified and result.value == [int((actions == "install").sum()), int((actions == "remove").sum())]


def test_the_first_package_installed_is_the_first_install_line() -> None:
    lines = DPKG.read_text(encoding="utf-8").splitlines()
    first = next(i for i, line in enumerate(lines, 1) if line.split(" ")[2] == "install")
    result = ask("when was the first package installed?", DPKG)
    assert result.verified and result.value["line"] == first, result.answer


@pytest.mark.parametrize(("lead", "which"), [("when was the last", -1), ("when was the first", 0),
                                             ("at what time was the latest", -1)])
@pytest.mark.parametrize("action", ["remove", "install", "upgrade"])
def test_when_was_the_first_or_last_action_is_that_action_s_line(lead: str, which: int, action: str) -> None:
    lines = [i for i, a in enumerate(_dpkg_actions(), 1) if a == action]
    result = ask(f"{lead} {action}?", DPKG)
    assert result.verified and result.value["line"] == lines[which], result.answer


def test_when_was_the_last_word_a_field_is_named_by_keeps_its_lines() -> None:
    """"Task" is a field of Spark's messages ("Running task 0.0"): the time of the last line saying it is asked."""
    lines = pd.Series(real_log("Spark").read_text(encoding="utf-8").splitlines())
    saying = lines[lines.str.contains(r"\btask", case=False)]
    result = ask("when was the last task?", real_log("Spark"))
    assert result.value["line"] == int(saying.index[-1]) + 1 < len(lines), result.answer


# ---- investigations and spans in other words


def test_what_happened_to_a_name_in_capitals_is_its_timeline() -> None:
    lines = real_log("BGL").read_text(encoding="utf-8", errors="replace").splitlines()
    result = ask("what happened to UNKNOWN_LOCATION?", real_log("BGL"))
    assert result.verified and result.value == sum("UNKNOWN_LOCATION" in line for line in lines) > 0, result.answer


@pytest.mark.parametrize("question", ["give me a quick overview of this log", "what kind of stuff is in this log?"])
def test_an_overview_is_the_message_patterns(question: str) -> None:
    result = ask(question, ROOT / "sample_logs" / "app")
    assert result.verified, result.answer
    assert "message_patterns" in [s.action for s in result.steps if s.kind == "tool"]


def test_what_period_a_log_covers_is_its_span() -> None:
    truth = _csv("Windows")
    stamps = pd.to_datetime(truth["Date"] + " " + truth["Time"])
    result = ask("what period does the windows log cover?", real_log("Windows"))
    assert result.verified, result.answer
    assert result.value["seconds"] == (stamps.max() - stamps.min()).total_seconds()
